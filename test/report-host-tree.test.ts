/**
 * The process graph per host (issue 47): over generated logs of three hosts (the intrusion
 * story's workstation and file server, and the noisy workstation whose siblings summarise),
 * the analysis lists every process with its parent on the same host, and in headless Chromium
 * choosing one host draws that host's processes, and only them, as a tree whose every line sits
 * under its own parent; a summary line expands into its processes, siblings under one parent.
 * The browser part skips when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { intrusionStory, NOISY_HOST, noisyStory } from '../fixtures/stories/index.js';
import { PROCESSES_COLUMNS, PROCESSES_TITLE } from '../src/analysis/index.js';
import { analyzeFiles } from '../src/cli/analyze-run.js';
import type { Insight } from '../src/insights/index.js';
import { buildReport } from '../src/report/index.js';
import { open, SKIP, useChromium } from './helpers/report-browser.js';

useChromium();

const dir = mkdtempSync(join(tmpdir(), 'tae-host-tree-'));
const stories = [...intrusionStory().slice(0, 2), ...noisyStory()];
const files = stories.map((f) => {
  writeFileSync(join(dir, f.name), f.bytes);
  return join(dir, f.name);
});
const SERVER = 'SRV-FILES-02.corp.example';
after(() => rmSync(dir, { recursive: true, force: true }));

let analysed: Promise<Insight[]> | undefined;
const insights = () => {
  analysed ??= analyzeFiles({ files, threads: 0 }).then((r) => r.insights);
  return analysed;
};

/** The processes table as rows keyed by column name. */
async function processes(): Promise<Record<(typeof PROCESSES_COLUMNS)[number], string>[]> {
  const table = (await insights()).find((i) => 'Table' in i && i.Table.title === PROCESSES_TITLE) as {
    Table: { data: string[][] };
  };
  const [head, ...rows] = table.Table.data;
  assert.deepEqual(head, [...PROCESSES_COLUMNS]);
  return rows.map((r) => Object.fromEntries(PROCESSES_COLUMNS.map((c, i) => [c, r[i]!]))) as never;
}

test('every process of three hosts is listed with a parent on its own host, parents first', async () => {
  const rows = await processes();
  assert.deepEqual([...new Set(rows.map((r) => r.Computer))].sort(), [
    NOISY_HOST,
    SERVER,
    'WS-FINANCE-07.corp.example',
  ]);
  const seen = new Map<string, string>();
  for (const r of rows) {
    if (r.Parent !== '')
      assert.equal(
        seen.get(r.Parent),
        r.Computer,
        `${r.Process}: parent ${r.Parent} on its host, listed first`,
      );
    assert.ok(!seen.has(r.Process), `${r.Process} listed once`);
    seen.set(r.Process, r.Computer);
  }
  const powershell = rows.find((r) => r.Image.endsWith('powershell.exe') && r.PID === '7340')!;
  assert.match(powershell.Parent, /^cmd\.exe:7312@/);
});

/** The drawn tree: each process line's row, its data-parent and the row of the line it sits under. */
interface Line {
  readonly row: number;
  readonly parent: number;
  readonly under: number;
}

test("choosing a host draws that host's processes alone, as a tree with the right parents", {
  skip: SKIP,
}, async () => {
  const rows = await processes();
  const { page, errors } = await open('host-tree.html', await buildReport({ insights: await insights() }));
  const server = await page.$eval(
    '#pt-host',
    (s, host) =>
      [...(s as unknown as { options: { value: string; textContent: string }[] }).options].find((o) =>
        o.textContent.startsWith(host),
      )!.value,
    SERVER,
  );
  await page.selectOption('#pt-host', server);
  await page.click('#pt-expand-all');
  const lines: Line[] = await page.$$eval('#pt-tree li.pt-proc', (items) =>
    items.map((li) => {
      const e = li as unknown as {
        getAttribute(n: string): string;
        parentElement: { closest(s: string): unknown };
      };
      const up = e.parentElement.closest('li.pt-proc') as { getAttribute(n: string): string } | null;
      return {
        row: Number(e.getAttribute('data-row')),
        parent: Number(e.getAttribute('data-parent')),
        under: up ? Number(up.getAttribute('data-row')) : -1,
      };
    }),
  );
  const mine = rows.flatMap((r, i) => (r.Computer === SERVER ? [i] : []));
  assert.ok(mine.length >= 5, 'the file server started processes');
  assert.deepEqual(
    lines.map((l) => l.row).sort((a, b) => a - b),
    mine,
    'each of its processes once, no other host',
  );
  const rowOf = new Map(rows.map((r, i) => [r.Process, i]));
  for (const l of lines) {
    const parent = rows[l.row]!.Parent;
    assert.equal(l.parent, parent === '' ? -1 : rowOf.get(parent), `${rows[l.row]!.Process}: its parent`);
    assert.equal(l.under, l.parent, `${rows[l.row]!.Process} is drawn under its parent`);
  }
  assert.deepEqual(errors, []);
});

test('on a host of many siblings a summary line expands into its processes, under their parent', {
  skip: SKIP,
}, async () => {
  const { page, errors } = await open(
    'host-tree-noisy.html',
    await buildReport({ insights: await insights() }),
  );
  const noisy = await page.$eval(
    '#pt-host',
    (s, host) =>
      [...(s as unknown as { options: { value: string; textContent: string }[] }).options].find((o) =>
        o.textContent.startsWith(host),
      )!.value,
    NOISY_HOST,
  );
  await page.selectOption('#pt-host', noisy);
  // Summaries may sit below the first two levels, which open by themselves: open the rest.
  if ((await page.locator('#pt-tree li.pt-summary').count()) === 0) await page.click('#pt-expand-all');
  const first = page.locator('#pt-tree li.pt-summary').first();
  const label = (await first.locator(':scope > .pt-label').textContent()) ?? '';
  const [, image, n] = /^(.+) ×(\d+)/.exec(label) ?? [];
  assert.ok(image && Number(n) >= 3, label);
  if ((await first.locator(':scope > ul').count()) === 0) await first.locator(':scope > .pt-label').click();
  const members = first.locator(':scope > ul > li.pt-proc');
  assert.equal(await members.count(), Number(n));
  const parents = await members.evaluateAll((items) =>
    items.map((li) => (li as unknown as { getAttribute(n: string): string }).getAttribute('data-parent')),
  );
  assert.equal(new Set(parents).size, 1, 'siblings of one parent');
  const images = await members.locator(':scope > .pt-label .pt-image').allTextContents();
  assert.ok(
    images.every((i) => i.toLowerCase() === image!.toLowerCase()),
    images.join(', '),
  );
  assert.deepEqual(errors, []);
});
