/**
 * `tae sigma` listings in time order across files, with a MITRE column (issue 47): matches of
 * files whose times interleave come out as one timeline whatever the order the files are named
 * in; past the in-memory bound they go through sorted runs on disk (encrypted, removed after)
 * and come back merged, stable for ties; the MITRE column (tactics and technique ids off the
 * rule's tags) is in the table, CSV and JSON lines.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { TimeOrder } from '../src/cli/time-order.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-sigma-order-'));
/** Process creations on one host at the given minutes past 10:00. */
const log = (host: string, minutes: number[]): Uint8Array =>
  writeEvtx(
    minutes.map(
      (m): EventDescription => ({
        provider: 'Microsoft-Windows-Sysmon',
        providerGuid: '5770385F-C22A-43E0-BF4C-06F5698FFBD9',
        channel: 'Microsoft-Windows-Sysmon/Operational',
        computer: host,
        time: new Date(Date.UTC(2026, 2, 1, 10, m)).toISOString(),
        eventId: 1,
        eventData: { Image: 'C:\\Windows\\System32\\whoami.exe', CommandLine: `whoami /all ${m}` },
      }),
    ),
  );
writeFileSync(join(dir, 'late-named-first.evtx'), log('HOST-B', [1, 3, 5]));
writeFileSync(join(dir, 'early.evtx'), log('HOST-A', [0, 2, 4]));
writeFileSync(
  join(dir, 'whoami.yml'),
  `title: Whoami run
id: 3f1c9a52-7d1e-4b8e-9c44-2a7c1b9e0d11
level: medium
tags: [attack.discovery, attack.t1033, attack.s0002, attack.execution, attack.t1059.001]
logsource: {product: windows, category: process_creation}
detection:
  selection: {Image|endswith: '\\whoami.exe'}
  condition: selection
`,
);
const tae = (...args: string[]) => runTae(dir, args);

before(ensureBuilt);

test('matches of several files come out in time order, whatever order the files are named in', () => {
  const r = tae('sigma', '--jsonl', '--rule', 'whoami.yml', 'late-named-first.evtx', 'early.evtx');
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { time: string; computer: string });
  assert.deepEqual(
    rows.map((m) => `${m.time.slice(11, 16)} ${m.computer}`),
    ['10:00 HOST-A', '10:01 HOST-B', '10:02 HOST-A', '10:03 HOST-B', '10:04 HOST-A', '10:05 HOST-B'],
  );
});

test('the MITRE column gives the tactics and technique ids in the table, CSV and JSON lines', () => {
  const expected = 'discovery, execution, T1033, T1059.001';
  const jsonl = tae('sigma', '--jsonl', '--rule', 'whoami.yml', 'early.evtx');
  assert.equal((JSON.parse(jsonl.stdout.split('\n')[0]!) as { mitre: string }).mitre, expected);
  const csv = tae('sigma', '--csv', '--rule', 'whoami.yml', 'early.evtx').stdout.split('\n');
  const column = csv[0]!.split(',').indexOf('mitre');
  assert.ok(column > 0, csv[0]);
  assert.ok(csv[1]!.includes(`"${expected}"`), csv[1]);
  const table = tae('sigma', '--rule', 'whoami.yml', 'early.evtx').stdout;
  assert.match(table.split('\n')[0]!, /\bMITRE\b/);
  assert.ok(table.includes(expected), table);
});

test('past the memory bound rows go through sorted runs on disk and merge back in order, ties stable', () => {
  const temp = mkdtempSync(join(dir, 'tmp-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = temp;
  try {
    const order = new TimeOrder({ rows: 64, chars: 1 << 30 });
    const input = Array.from({ length: 1000 }, (_, i) => ({ ts: (i * 7919) % 97, n: i }));
    for (const x of input) order.add(x.ts, { n: x.n, text: 'é ✓ 𝄞'.repeat(x.n % 5) }, 10);
    assert.ok(order.spilled >= 15, `${order.spilled} runs`);
    assert.equal(readdirSync(temp).length, 1, 'one owner-only directory of runs');
    const out = [...order.sorted()].flat();
    const want = [...input].sort((a, b) => a.ts - b.ts || a.n - b.n).map((x) => x.n);
    assert.deepEqual(
      out.map((r) => r.n),
      want,
    );
    assert.equal(out[3]!.text, 'é ✓ 𝄞'.repeat((out[3]!.n as number) % 5));
    assert.deepEqual(readdirSync(temp), [], 'the runs are removed');
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});

test('more runs than are merged at once are first merged into one, the order kept', () => {
  const order = new TimeOrder({ rows: 4, chars: 1 << 30 });
  const input = Array.from({ length: 2000 }, (_, i) => ({ ts: (i * 7919) % 499, n: i }));
  for (const x of input) order.add(x.ts, { n: x.n }, 1);
  assert.ok(order.spilled < 64, `${order.spilled} runs open`);
  const want = [...input].sort((a, b) => a.ts - b.ts || a.n - b.n).map((x) => x.n);
  assert.deepEqual(
    [...order.sorted()].flat().map((r) => r.n),
    want,
  );
});
