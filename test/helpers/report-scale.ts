/**
 * What issue 47's acceptance 1 measures of an HTML report in headless Chromium, for the scale
 * test and the bench: the file's size; DOMContentLoaded and load (from the navigation timing of
 * a fresh page); the page's height at 1,400 px (and 900 px) wide as it first shows; whether the
 * level × host summary is on the first screen; and, opening every collapsed part in turn, that
 * each shows content. A rule's details panel is opened from the detections table.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { fleetCase } from '../../fixtures/stories/index.js';

export const CHROMIUM = process.env.TAE_CHROMIUM ?? '/usr/bin/chromium';

export interface ReportFigures {
  readonly bytes: number;
  readonly domContentLoadedMs: number;
  readonly loadMs: number;
  readonly height1400: number;
  readonly height900: number;
  /** The level × host table's top edge at 1,400 × 1,000, in px from the page top. */
  readonly levelsTop: number;
  readonly levelsRows: number;
  readonly detectionRows: number;
  /** Every `<details>` of the page by its summary text, and the height its content took when opened. */
  readonly opened: readonly { readonly summary: string; readonly height: number }[];
  readonly rulePanel: boolean;
  readonly errors: readonly string[];
}

interface Timing {
  readonly domContentLoadedEventEnd: number;
  readonly loadEventEnd: number;
}

/** Browser-side helpers, typed loosely: the tests compile without lib "dom". */
type Dom = {
  documentElement: { scrollHeight: number };
  querySelectorAll(s: string): ArrayLike<{ open: boolean; getBoundingClientRect(): { height: number } }>;
};
declare const document: Dom;
declare const performance: { getEntriesByType(t: string): Timing[] };

async function load(page: Page, url: string, width: number): Promise<{ timing: Timing; height: number }> {
  await page.setViewportSize({ width, height: 1000 });
  await page.goto(url, { waitUntil: 'load' });
  const timing = await page.evaluate(() => {
    const t = performance.getEntriesByType('navigation')[0]!;
    return { domContentLoadedEventEnd: t.domContentLoadedEventEnd, loadEventEnd: t.loadEventEnd };
  });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  return { timing, height };
}

/**
 * Writes the generated 50-host incident (fixtures/stories/fleet.ts) under `dir`, the case measured
 * where the corpus is absent; returns its folder.
 */
export function writeFleetCase(dir: string): string {
  const root = join(dir, 'fleet');
  for (const f of fleetCase()) {
    mkdirSync(dirname(join(root, f.name)), { recursive: true });
    writeFileSync(join(root, f.name), f.bytes);
  }
  return root;
}

export async function measureReport(file: string): Promise<ReportFigures> {
  const profile = mkdtempSync(join(tmpdir(), 'tae-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const url = pathToFileURL(file).href;
    const errors: string[] = [];
    const narrow = await browser.newPage();
    const { height: height900 } = await load(narrow, url, 900);
    await narrow.close();
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const { timing, height: height1400 } = await load(page, url, 1400);
    const levels = page.locator('#host-levels');
    const levelsTop = (await levels.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    const levelsRows = await page.locator('#host-levels tbody tr').count();
    const detectionRows = await page.locator('#detections-table tbody tr').count();
    const opened: { summary: string; height: number }[] = [];
    const toggles = page.locator('details > summary');
    const n = await toggles.count();
    for (let i = 0; i < n; i++) {
      const summary = toggles.nth(i);
      const details = summary.locator('xpath=..');
      if (!(await details.evaluate((d) => (d as unknown as { open: boolean }).open))) await summary.click();
      const height = await details.evaluate((d) => {
        const box = (d as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect();
        return box.height;
      });
      const summaryHeight = (await summary.boundingBox())?.height ?? 0;
      opened.push({ summary: ((await summary.textContent()) ?? '').trim(), height: height - summaryHeight });
    }
    await page.locator('#detections-table .rule-link').first().click();
    const rulePanel = await page.locator('#rule-panel').isVisible();
    return {
      bytes: statSync(file).size,
      domContentLoadedMs: Math.round(timing.domContentLoadedEventEnd),
      loadMs: Math.round(timing.loadEventEnd),
      height1400,
      height900,
      levelsTop,
      levelsRows,
      detectionRows,
      opened,
      rulePanel,
      errors,
    };
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
