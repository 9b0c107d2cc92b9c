/**
 * The `Process Inference Graph: Processes` table (analysis/builders/graph/processes-table.ts):
 * bounded per host, and every listed process's parent is listed before it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROCESSES_PER_HOST, processesInsight } from '../src/analysis/builders/graph/processes-table.js';
import type { Instance } from '../src/analysis/builders/graph/resolve.js';

function instance(idx: number, computer: string, parent: Instance | null): Instance {
  const i: Instance = {
    idx,
    computer,
    pid: idx,
    guid: '',
    image: 'C:\\Windows\\System32\\cmd.exe',
    commandLine: `cmd /c echo ${'x'.repeat(idx % 700)}`,
    user: 'u',
    start: 1_700_000_000_000 + idx,
    end: Number.NaN,
    recordId: idx + 1,
    refs: [],
    inferred: false,
    flagged: false,
    parent,
    children: [],
  };
  parent?.children.push(i);
  return i;
}

test('a host lists at most PROCESSES_PER_HOST processes, each after its parent; other hosts keep theirs', () => {
  const all: Instance[] = [];
  // A busy host: chains of ten under 300 roots, 3,000 processes; a quiet host of 5.
  for (let r = 0; r < 300; r++) {
    let parent = instance(all.length, 'BUSY', null);
    all.push(parent);
    for (let d = 1; d < 10; d++) {
      parent = instance(all.length, 'BUSY', parent);
      all.push(parent);
    }
  }
  for (let k = 0; k < 5; k++) all.push(instance(all.length, 'QUIET', null));
  const ids = new Map(all.map((i) => [i, `p${i.idx}`] as const));
  const table = processesInsight(all, ids);
  assert.ok('Table' in table);
  const rows = table.Table.data as string[][];
  const [head, ...body] = rows;
  const col = (name: string) => head!.indexOf(name);
  const byHost = (h: string) => body.filter((r) => r[col('Computer')] === h);
  assert.equal(byHost('BUSY').length, PROCESSES_PER_HOST);
  assert.equal(byHost('QUIET').length, 5);
  const seen = new Set<string>();
  for (const r of body) {
    const parent = r[col('Parent')]!;
    assert.ok(parent === '' || seen.has(parent), `${r[col('Process')]}'s parent ${parent} is listed first`);
    seen.add(r[col('Process')]!);
    assert.ok(r[col('Command Line')]!.length <= 200);
  }
});
