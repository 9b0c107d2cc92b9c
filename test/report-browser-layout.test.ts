/**
 * The HTML report's layout and graph in headless Chromium: long paths, hashes and command lines
 * wrap inside their cells (paths after separators, headers between words) at 1400 px and 900 px
 * without widening the page; the process graph is filterable by host and searchable by process
 * name, the match scrolled into view. Screenshots go to the temporary directory. Skips when
 * /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { buildReport } from '../src/report/index.js';
import { dir, open, SKIP, useChromium } from './helpers/report-browser.js';
import { exampleReportInput, graphInsight } from './helpers/report-inputs.js';

useChromium();

const LONG_PATH =
  'C:\\Users\\analyst\\AppData\\Local\\Microsoft\\WindowsApps\\Microsoft.DesktopAppInstaller_8wekyb3d8bbwe\\very-long-folder-name-for-testing\\another_folder\\payload-dropper-stage-two.exe';
const LONG_HASH =
  'SHA256=9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A089F86D081884C7D659A2FEAA0C55AD015';
/** Values as long as real ones: a path, a hash list, an encoded command line, a URL. */
const LONG_SAMPLE = {
  Table: {
    title: 'Process Analysis: Long values',
    category: 'Process',
    data: [
      ['Time', 'Image', 'CommandLine', 'Hashes', 'Url'],
      [
        '2024-05-01 10:00:00',
        LONG_PATH,
        `powershell.exe -NoProfile -ExecutionPolicy Bypass -enc ${'SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkA'.repeat(4)}`,
        `${LONG_HASH},MD5=0CC175B9C0F1B6A831C399E269772661,IMPHASH=F34D5F2D4577ED6D9CEEC516C1F5A744`,
        'http://update.example.invalid/download/stage2/payload.bin?session=0123456789abcdef0123456789abcdef&user=analyst&host=WORKSTATION-0001',
      ],
    ],
  },
};

/** The little of the DOM the measurements below use (the tests compile without lib "dom"). */
interface Box {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly tagName: string;
  readonly textContent: string | null;
}
interface TextRange {
  setStart(node: unknown, offset: number): void;
  setEnd(node: unknown, offset: number): void;
  getClientRects(): ArrayLike<{ readonly top: number }>;
}
interface Dom {
  readonly documentElement: Box;
  querySelectorAll(selector: string): Iterable<Box>;
  createTreeWalker(root: unknown, show: number): { nextNode(): { textContent: string | null } | null };
  createRange(): TextRange;
}
const SHOW_TEXT = 4;

/** Elements matching `selector`, and the page, whose content is wider than their box. */
function overflowing(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const dom = (globalThis as unknown as { document: Dom }).document;
    const out: string[] = [];
    const root = dom.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) out.push(`page: ${root.scrollWidth} > ${root.clientWidth}`);
    for (const el of dom.querySelectorAll(selector))
      if (el.scrollWidth > el.clientWidth + 1)
        out.push(
          `${el.tagName.toLowerCase()} ${el.scrollWidth} > ${el.clientWidth}: ${(el.textContent ?? '').slice(0, 60)}`,
        );
    return out;
  }, selector);
}

/** The characters before each line break inside the element's text. */
function lineEnds(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((el, show) => {
    const dom = (globalThis as unknown as { document: Dom }).document;
    const ends: string[] = [];
    const walker = dom.createTreeWalker(el, show);
    let lastTop: number | undefined;
    let previous = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        const range = dom.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (lastTop !== undefined && rect.top > lastTop + 2) ends.push(previous);
        lastTop = rect.top;
        previous = text[i]!;
      }
    }
    return ends;
  }, SHOW_TEXT);
}

test('long paths, hashes and command lines wrap inside their cells at 1400 px and 900 px, paths at separators', {
  skip: SKIP,
}, async () => {
  const input = await exampleReportInput();
  const title = `Threat analysis: ${Array.from({ length: 40 }, (_, i) => `host-${i}-Security.evtx`).join(',')}`;
  const html = await buildReport({ ...input, title, insights: [...input.insights, LONG_SAMPLE] });
  const { page, errors } = await open('long.html', html);
  for (const width of [1400, 900]) {
    await page.setViewportSize({ width, height: 900 });
    const cells = 'main td, main th, dl.meta dd, header h1';
    assert.deepEqual(await overflowing(page, cells), [], `no cell and not the page overflows at ${width} px`);
    // A table of many columns may scroll sideways in its box rather than break words; this one fits.
    const longTable = `h3:text-is("${LONG_SAMPLE.Table.title}") ~ .scroll`;
    const box = await page
      .locator(longTable)
      .first()
      .evaluate((el) => [el.scrollWidth, el.clientWidth]);
    assert.ok(box[0]! <= box[1]! + 1, `the long values table fits its box at ${width} px: ${box}`);
    const path = page.locator(`h3:text-is("${LONG_SAMPLE.Table.title}") ~ .scroll td:nth-child(2)`).first();
    const ends = await lineEnds(page, `h3:text-is("${LONG_SAMPLE.Table.title}") ~ .scroll td:nth-child(2)`);
    assert.ok(ends.length >= 1, `the path wraps at ${width} px`);
    for (const end of ends)
      assert.match(end, /[\\/._-]/, `the path breaks after a separator, not after ${end}`);
    assert.equal(await path.textContent(), LONG_PATH, 'the copied text is the path, unchanged');
    const headers = await page.locator('main th').count();
    for (let i = 0; i < headers; i++)
      for (const end of await lineEnds(page, `:nth-match(main th, ${i + 1})`))
        assert.match(end, /\s/, `a column header wraps between words at ${width} px`);
    await page.screenshot({ path: join(dir, `report-long-${width}.png`), fullPage: true });
  }
  assert.deepEqual(errors, []);
});

/** A process graph of two hosts, each a long chain, so that the graph box must scroll. */
function twoHostGraph(perHost: number) {
  const chain = (prefix: string, image: (i: number) => string) =>
    Array.from(
      { length: perHost },
      (_, i) => `    "${prefix}${i}" [label="${image(i)}\\npid ${1000 + i}"];`,
    ).join('\n') +
    '\n' +
    Array.from({ length: perHost - 1 }, (_, i) => `    "${prefix}${i}" -> "${prefix}${i + 1}";`).join('\n');
  const dot = [
    'digraph "g" {',
    '  graph [rankdir=LR]; node [shape=box, style=rounded];',
    '  subgraph "cluster_1" {',
    '    label="HOST-A";',
    chain('a', (i) => (i === 0 ? 'explorer.exe' : 'cmd.exe')),
    '  }',
    '  subgraph "cluster_2" {',
    '    label="<b>HOST-B</b>";',
    chain('b', (i) => (i === perHost - 1 ? 'mimikatz.exe' : 'rundll32.exe')),
    '  }',
    '}',
  ].join('\n');
  return graphInsight(dot);
}

test('the process graph filters by host and finds a process by name, scrolling it into view', {
  skip: SKIP,
}, async () => {
  const html = await buildReport({ title: 'Graph', insights: [twoHostGraph(30)] });
  const { page, errors } = await open('graph-nav.html', html);
  page.setDefaultTimeout(5000);
  await page.setViewportSize({ width: 900, height: 700 });
  assert.deepEqual(await page.locator('#pg-host option').allTextContents(), [
    'All hosts (2)',
    'HOST-A',
    '<b>HOST-B</b>',
  ]);
  assert.equal(await page.locator('#process-graph b').count(), 0);
  assert.equal(await page.textContent('#pg-count'), '60 processes');

  await page.selectOption('#pg-host', '1');
  const dimmed = await page.locator('#process-graph g.node.pg-dim').allTextContents();
  assert.equal(dimmed.length, 30);
  assert.ok(
    dimmed.every((t) => /explorer|cmd/.test(t)),
    'only the other host is dimmed',
  );

  const inView = async (selector: string) => {
    const graph = (await page.locator('#process-graph').boundingBox())!;
    const node = (await page.locator(selector).boundingBox())!;
    return (
      node.x >= graph.x - 1 &&
      node.x + node.width <= graph.x + graph.width + 1 &&
      node.y >= graph.y - 1 &&
      node.y + node.height <= graph.y + graph.height + 1
    );
  };
  const mimikatz = '#process-graph g.node:has-text("mimikatz.exe")';
  assert.equal(await inView(mimikatz), false, 'the graph is larger than its box');
  await page.fill('#pg-search', 'MIMIKATZ');
  assert.equal(await page.textContent('#pg-count'), '1 of 60 processes match');
  assert.match((await page.locator('#process-graph g.node.pg-current').textContent()) ?? '', /mimikatz\.exe/);
  assert.ok(await inView('#process-graph g.node.pg-current'), 'the match is scrolled into the graph box');
  await page.fill('#pg-search', 'cmd.exe');
  assert.equal(await page.textContent('#pg-count'), '0 of 60 processes match', 'the host filter applies');
  await page.selectOption('#pg-host', '');
  assert.equal(await page.textContent('#pg-count'), '29 of 60 processes match');
  const first = await page.locator('#process-graph g.node.pg-current').textContent();
  await page.press('#pg-search', 'Enter');
  assert.equal(await page.textContent('#pg-count'), '2 of 29 matches (Enter for the next)');
  assert.notEqual(await page.locator('#process-graph g.node.pg-current').textContent(), first);
  assert.ok(await inView('#process-graph g.node.pg-current'));
  await page.screenshot({ path: join(dir, 'report-graph-nav.png') });
  assert.deepEqual(errors, []);
});
