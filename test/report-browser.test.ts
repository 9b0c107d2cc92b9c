/**
 * The HTML report in headless Chromium (Debian `chromium`, driven by playwright-core): no
 * console errors (a CSP violation is one), no request but the file itself, no hostile script
 * run, the process graph drawn as SVG, the key event timeline filterable by category, importance
 * and text, every other table sortable by column and filterable by text, long values wrapped
 * inside their cells at 1400 px and 900 px, the graph filterable by host and searchable. Most
 * screenshots go to test-output/; those of the wrapping and graph tests to the temporary
 * directory. Skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildReport } from '../src/report/index.js';
import { exampleReportInput, hostileReportInput } from './helpers/report-inputs.js';

const CHROMIUM = process.env.TAE_CHROMIUM ?? '/usr/bin/chromium';
const SKIP = existsSync(CHROMIUM) ? false : `${CHROMIUM} not installed (apt-get install chromium)`;
const OUTPUT = join(import.meta.dirname, '..', 'test-output');
const dir = mkdtempSync(join(tmpdir(), 'tae-report-browser-'));
let context: BrowserContext | undefined;

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

interface Observed {
  readonly page: Page;
  readonly errors: string[];
  readonly requests: string[];
  readonly dialogs: string[];
}

async function open(name: string, html: string): Promise<Observed> {
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

const visibleRows = (page: Page) => page.locator('#timeline-table tbody tr:visible');

test('the example report renders its graph and timeline with no console error or network request', {
  skip: SKIP,
}, async () => {
  const { page, errors } = await open('example.html', await buildReport(await exampleReportInput()));
  assert.equal(await page.title(), 'Threat analysis: example.evtx');
  const nodes = page.locator('#process-graph svg g.node');
  assert.ok((await nodes.count()) >= 10);
  const box = await page.locator('#process-graph svg').boundingBox();
  assert.ok(box !== null && box.width > 200 && box.height > 200, 'the graph has a size on screen');
  assert.equal(await visibleRows(page).count(), 18);
  assert.equal(await page.textContent('#tl-count'), '18 of 18 key events shown');

  await page.selectOption('#tl-category', 'Authentication');
  const auth = await visibleRows(page).evaluateAll((rows) =>
    rows.map((r) => r.getAttribute('data-category')),
  );
  assert.ok(auth.length > 0 && auth.length < 18);
  assert.ok(auth.every((c) => c === 'Authentication'));
  await page.selectOption('#tl-category', '');
  await page.selectOption('#tl-importance', '3');
  const ranks = await visibleRows(page).evaluateAll((rows) =>
    rows.map((r) => Number(r.getAttribute('data-rank'))),
  );
  assert.ok(ranks.length > 0 && ranks.every((r) => r >= 3));
  await page.selectOption('#tl-importance', '0');
  await page.fill('#tl-text', 'powershell');
  assert.ok((await visibleRows(page).count()) >= 1);
  assert.match((await page.textContent('#tl-count')) ?? '', /^\d+ of 18 key events shown$/);
  await page.fill('#tl-text', '');

  await page.screenshot({ path: join(OUTPUT, 'report-example.png') });
  await page.locator('#process-graph').screenshot({ path: join(OUTPUT, 'report-example-graph.png') });
  assert.deepEqual(errors, []);
});

test('the hostile report runs none of its payloads and fetches nothing', { skip: SKIP }, async () => {
  const input = await hostileReportInput();
  const { page, errors, dialogs } = await open('hostile.html', await buildReport(input));
  assert.equal(await page.title(), input.title);
  assert.deepEqual(dialogs, []);
  assert.equal(await page.locator('img, iframe, image, a[href^="http"], a[href^="javascript"]').count(), 0);
  assert.equal(await page.locator('script').count(), 1);
  assert.ok((await page.locator('#process-graph svg g.node').count()) >= 2);
  assert.ok((await page.locator('body').innerText()).includes('WS-<b>HOSTILE</b>-01'));
  await page.screenshot({ path: join(OUTPUT, 'report-hostile.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

/** A table the analyzer could produce, with numbers that sort wrong as text and a tie. */
const SORT_SAMPLE = {
  Table: {
    title: 'Process Analysis: Sort sample',
    category: 'Process',
    data: [
      ['Image', 'Count'],
      ['b.exe', '10'],
      ['a.exe', '9'],
      ['c.exe', '100'],
      ['d.exe', '9'],
      ['<b>e.exe</b>', ''],
    ],
  },
};

/** The first scroll box or filter box after the sample's heading: its own. */
const afterSample = (page: Page, what: string) =>
  page.locator(`h3:text-is("${SORT_SAMPLE.Table.title}") ~ ${what}`).first();

test('a report table sorts by a clicked column, numbers by value, stably, toggling asc and desc', {
  skip: SKIP,
}, async () => {
  const input = await exampleReportInput();
  const html = await buildReport({ ...input, insights: [...input.insights, SORT_SAMPLE] });
  const { page, errors } = await open('sort.html', html);
  page.setDefaultTimeout(5000);
  const rows = afterSample(page, '.scroll').locator('tbody tr');
  const column = (n: number) => rows.evaluateAll((rs, i) => rs.map((r) => r.children[i]!.textContent), n);
  const count = afterSample(page, '.scroll').locator('th:nth-child(2)');
  assert.deepEqual(await column(0), ['b.exe', 'a.exe', 'c.exe', 'd.exe', '<b>e.exe</b>']);
  await count.locator('button').click();
  assert.deepEqual(
    await column(0),
    ['a.exe', 'd.exe', 'b.exe', 'c.exe', '<b>e.exe</b>'],
    'ascending, ties kept',
  );
  assert.equal(await count.getAttribute('aria-sort'), 'ascending');
  await count.locator('button').click();
  assert.deepEqual(
    await column(0),
    ['c.exe', 'b.exe', 'a.exe', 'd.exe', '<b>e.exe</b>'],
    'descending, empty last',
  );
  assert.equal(await count.getAttribute('aria-sort'), 'descending');
  const image = afterSample(page, '.scroll').locator('th:nth-child(1)');
  await image.locator('button').click();
  assert.deepEqual(await column(0), ['<b>e.exe</b>', 'a.exe', 'b.exe', 'c.exe', 'd.exe']);
  assert.equal(await image.getAttribute('aria-sort'), 'ascending');
  assert.equal(await count.getAttribute('aria-sort'), 'none');
  assert.equal(await page.locator('main b').count(), 0, 'cell text is never parsed as markup');

  await page.locator('#timeline-table th:nth-child(4) button').click();
  const categories = await page
    .locator('#timeline-table tbody tr')
    .evaluateAll((rs) => rs.map((r) => r.children[3]!.textContent ?? ''));
  assert.deepEqual(
    categories,
    [...categories].sort((a, b) => a.localeCompare(b)),
  );
  assert.deepEqual(errors, []);
});

test('a report table filter hides rows without the text, case-insensitively, and counts the rest', {
  skip: SKIP,
}, async () => {
  const input = await exampleReportInput();
  const html = await buildReport({ ...input, insights: [...input.insights, SORT_SAMPLE] });
  const { page, errors } = await open('filter.html', html);
  const tables = await page.locator('main table').count();
  assert.equal(await page.locator('.table-filter input').count(), tables - 1, 'every table but the timeline');
  page.setDefaultTimeout(5000);
  const block = afterSample(page, '.table-filter');
  const shown = afterSample(page, '.scroll').locator('tbody tr:visible');
  assert.equal(await block.locator('.table-count').textContent(), '5 of 5 rows shown');
  await block.locator('input').fill('E.EX');
  assert.equal(await shown.count(), 1);
  assert.equal(await shown.first().locator('td').first().textContent(), '<b>e.exe</b>');
  assert.equal(await block.locator('.table-count').textContent(), '1 of 5 rows shown');
  await block.locator('input').fill('9');
  assert.equal(await block.locator('.table-count').textContent(), '2 of 5 rows shown');
  await block.locator('input').fill('');
  assert.equal(await shown.count(), 5);
  assert.deepEqual(errors, []);
});

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
  return {
    Graph: {
      title: 'Process Inference Graph',
      data: dot,
      category: 'Process',
      graph_metadata: { _stats_original_nodes: [], _stats_optimized_nodes: [] },
    },
  };
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
