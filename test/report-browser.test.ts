/**
 * The HTML report in headless Chromium (Debian `chromium`, driven by playwright-core): no
 * console errors (a CSP violation is one), no request but the file itself, no hostile script
 * run, the process graph drawn as SVG, the key event timeline filterable by category, importance
 * and text, every other table sortable by column and filterable by text, a summary node of the
 * graph expandable into the processes it stands for. Screenshots go to test-output/. Skips when /usr/bin/chromium is absent (layout and graph: report-browser-layout).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { buildReport } from '../src/report/index.js';
import { OUTPUT, open, SKIP, useChromium } from './helpers/report-browser.js';
import {
  exampleReportInput,
  graphInsight,
  HOSTILE_IMAGE,
  hostileReportInput,
  summaryReportInput,
} from './helpers/report-inputs.js';

useChromium();

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
  assert.equal(await page.locator('script:not([type="application/json"])').count(), 1);
  await page
    .locator('#detections-table .rule-link', { hasText: /^Rule <img/ })
    .first()
    .click();
  const panel = page.locator('#rule-panel');
  assert.ok(await panel.isVisible(), 'the rule panel opens');
  assert.match((await panel.innerText()) ?? '', /javascript:document\.title="pwned"/);
  assert.equal(await panel.locator('a, script, img').count(), 0, 'references are text, not links');
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
  assert.equal(
    await page.locator('.table-filter input').count(),
    tables - 2,
    'every table but the timeline and the detections (their own filters)',
  );
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

/** A computed style property of the element a locator finds (the tests compile without lib "dom"). */
const computed = (locator: Locator, property: string) =>
  locator.evaluate(
    (e, property) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(e)[
        property
      ],
    property,
  );

/** The page's width exceeds its viewport (something widened it). */
const pageOverflows = (page: Page) =>
  page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return root.scrollWidth > root.clientWidth + 1;
  });

test('a summary node expands on click, Enter or Space into exactly its processes, hostile names as text, links rows, and collapses', {
  skip: SKIP,
}, async () => {
  const input = await summaryReportInput();
  const graph = input.insights.find((i) => 'Graph' in i) as unknown as {
    Graph: { graph_metadata: Record<string, string[]> };
  };
  const meta = graph.Graph.graph_metadata;
  const keys = Object.keys(meta).filter((k) => k.startsWith('summary_'));
  const hostileKey = keys.find((k) => meta[k]![0]!.startsWith(HOSTILE_IMAGE))!;
  assert.ok(keys.length >= 3 && hostileKey !== undefined);
  const { page, errors, dialogs } = await open('summaries.html', await buildReport(input));
  page.setDefaultTimeout(5000);
  const node = (key: string) => page.locator(`#process-graph g.pg-summary[data-summary="${key}"]`);
  const panel = page.locator('#pg-members');
  const members = panel.locator('tr.pg-member');
  const shownIds = () => members.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
  assert.equal(await page.locator('#process-graph g.pg-summary').count(), keys.length);
  assert.equal(await node('summary_1').getAttribute('tabindex'), '0');
  assert.equal(await computed(node('summary_1'), 'cursor'), 'pointer');
  assert.equal(await panel.isVisible(), false);

  for (const width of [1400, 900]) {
    await page.setViewportSize({ width, height: 900 });
    await node('summary_1').click();
    assert.equal(await node('summary_1').getAttribute('aria-expanded'), 'true');
    assert.ok(await panel.isVisible());
    assert.equal(await members.count(), meta.summary_1!.length);
    assert.deepEqual((await shownIds()).sort(), [...meta.summary_1!].sort());
    assert.equal(
      await panel.locator('.pg-members-count').textContent(),
      `${meta.summary_1!.length} processes`,
    );
    const stroke = await computed(node('summary_1').locator('polygon').first(), 'strokeWidth');
    assert.equal(stroke, '4px', 'the expanded node is outlined');
    assert.equal(await pageOverflows(page), false, `the open panel does not widen the page at ${width} px`);
    await page.screenshot({ path: join(OUTPUT, `report-summary-expanded-${width}.png`) });
    await panel.locator('button.pg-collapse').click();
    assert.equal(await node('summary_1').getAttribute('aria-expanded'), 'false');
    assert.equal(await panel.isVisible(), false);
    assert.equal(await members.filter({ visible: true }).count(), 0);
  }

  await node(hostileKey).focus();
  await page.keyboard.press('Enter');
  assert.equal(await node(hostileKey).getAttribute('aria-expanded'), 'true');
  assert.deepEqual(await shownIds(), meta[hostileKey]);
  const images = await members.locator('td:first-child').allTextContents();
  assert.deepEqual(
    images,
    meta[hostileKey]!.map(() => HOSTILE_IMAGE),
    'the name is text, quotes and entity kept',
  );
  assert.equal(await page.locator('img').count(), 0);
  const record = /@r(\d+)$/.exec(meta[hostileKey]![0]!)![1];
  await members.first().locator('button.pg-jump', { hasText: 'Notable Executions' }).click();
  const flashed = page.locator('main tr.pg-flash');
  assert.equal(await flashed.locator('td').last().textContent(), `Sysmon/Operational#${record}`);
  assert.ok(
    await flashed.evaluate(
      (row) => row === (row.ownerDocument as unknown as { activeElement: unknown }).activeElement,
    ),
    'the row has focus',
  );
  await node('summary_1').focus();
  await page.keyboard.press(' ');
  assert.equal(await node(hostileKey).getAttribute('aria-expanded'), 'false', 'one summary open at a time');
  assert.equal(await members.count(), meta.summary_1!.length);
  await page.keyboard.press('Enter');
  assert.equal(await panel.isVisible(), false, 'Enter on the open node collapses it');

  await page.fill('#pg-search', meta.summary_1![7]!);
  assert.equal(
    await page.locator('#process-graph g.pg-current').getAttribute('data-summary'),
    'summary_1',
    'search finds a summarised process',
  );
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
});

/** A graph whose one summary stands for `n` processes of two images, the last inferred. */
function bigSummary(n: number) {
  const ids = Array.from({ length: n }, (_, i) =>
    i === n - 1 ? 'services.exe:704@inferred' : `${i % 3 ? 'cmd.exe' : 'conhost.exe'}:${7000 + i}@r${i + 1}`,
  );
  const dot = [
    'digraph "g" {',
    '  subgraph "cluster_1" { label="HOST-A";',
    '    "explorer.exe:1@r0" [label="explorer.exe"];',
    `    "summary_1" [label="${n} processes\\n2 images", shape=box3d, style=""];`,
    '  }',
    '  "explorer.exe:1@r0" -> "summary_1";',
    '}',
  ].join('\n');
  return graphInsight(dot, { summary_1: ids });
}

test('a summary of 1,200 processes lists the first 500 grouped by image, and its filter reaches them all', {
  skip: SKIP,
}, async () => {
  const insight = bigSummary(1200);
  const { page, errors } = await open(
    'big-summary.html',
    await buildReport({ title: 'Big', insights: [insight] }),
  );
  page.setDefaultTimeout(5000);
  await page.locator('#process-graph g.pg-summary').click();
  const panel = page.locator('#pg-members');
  const members = panel.locator('tr.pg-member');
  const count = panel.locator('.pg-members-count');
  assert.equal(await members.count(), 500);
  assert.equal(
    await count.textContent(),
    '1200 processes; first 500 listed, 700 more (the filter searches all)',
  );
  assert.deepEqual(
    await panel.locator('tr.pg-group th').allTextContents(),
    ['cmd.exe (799)'],
    'the largest group first',
  );
  const records = await members.locator('td:nth-child(3)').allTextContents();
  assert.deepEqual(records.slice(0, 3), ['2', '3', '5'], 'in record order within an image');
  await panel.locator('input[type="search"]').fill('@r1198');
  assert.deepEqual(await members.evaluateAll((r) => r.map((x) => x.getAttribute('data-id'))), [
    'conhost.exe:8197@r1198',
  ]);
  assert.equal(await count.textContent(), '1 of 1200 processes match');
  await panel.locator('input[type="search"]').fill('conhost');
  assert.deepEqual(await panel.locator('tr.pg-group th').allTextContents(), ['conhost.exe (400)']);
  assert.equal(await members.count(), 400);
  await panel.locator('input[type="search"]').fill('services');
  assert.deepEqual(await members.locator('td').allTextContents(), ['services.exe', '704', 'inferred', '']);
  await page.keyboard.press('Escape');
  assert.equal(await panel.isVisible(), false);
  assert.deepEqual(errors, []);
});
