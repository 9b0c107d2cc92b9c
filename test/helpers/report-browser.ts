/**
 * Headless Chromium for the report browser tests: one persistent context per test file
 * (`useChromium` registers its hooks), and `open`, which loads a report from a file and records
 * console errors, requests and dialogs, asserting the file was the only request.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

const CHROMIUM = process.env.TAE_CHROMIUM ?? '/usr/bin/chromium';
export const SKIP = existsSync(CHROMIUM) ? false : `${CHROMIUM} not installed (apt-get install chromium)`;
export const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output');
export const dir = mkdtempSync(join(tmpdir(), 'tae-report-browser-'));
let context: BrowserContext | undefined;

/** Starts Chromium before the file's tests and closes it after them. */
export function useChromium(): void {
  before(async () => {
    if (SKIP) return;
    mkdirSync(OUTPUT, { recursive: true });
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tae-chromium-')), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  after(async () => {
    await context?.close();
  });
}

export interface Observed {
  readonly page: Page;
  readonly errors: string[];
  readonly requests: string[];
  readonly dialogs: string[];
}

export async function open(name: string, html: string): Promise<Observed> {
  const file = join(dir, name);
  writeFileSync(file, html);
  const page = await context!.newPage();
  const observed: Observed = { page, errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') observed.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => observed.errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => observed.requests.push(r.url()));
  page.on('dialog', (d) => {
    observed.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.waitForTimeout(300); // late requests (favicons, fonts) would show up by now
  assert.deepEqual(observed.requests, [pathToFileURL(file).href], 'the file itself is the only request');
  return observed;
}
