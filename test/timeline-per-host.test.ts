/**
 * The key event timeline per host (issue 47), over generated logs of three hosts (the intrusion
 * story's workstation and file server, and a second workstation where the example story happens
 * again, so the same rules fire on two hosts) analysed by the built `tae
 * analyze` with the builtin Sigma rules: every entry belongs to one host, named in the sources
 * table beside the timeline and in the Computer column of `--csv`/`--jsonl`; a Sigma rule that
 * fired on two hosts is two entries; record references name the channel and the file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { intrusionStory } from '../fixtures/stories/index.js';
import type { Insight, TimelineEntry } from '../src/insights/index.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-timeline-hosts-'));
const HR = 'WS-HR-03.corp.example';
const files = [
  ...intrusionStory(),
  { name: 'WS-HR-03.evtx', bytes: writeEvtx(exampleEvents().map((e) => ({ ...e, computer: HR }))) },
];
for (const f of files) writeFileSync(join(dir, f.name), f.bytes);
const names = files.map((f) => f.name);
const HOSTS = ['WS-FINANCE-07.corp.example', 'SRV-FILES-02.corp.example', HR];

before(ensureBuilt);
after(() => rmSync(dir, { recursive: true, force: true }));

interface Keyed {
  readonly entry: TimelineEntry;
  readonly computer: string;
  readonly reference: string;
  readonly file: string;
}

let analysed: { insights: Insight[] } | undefined;
function results(): { insights: Insight[] } {
  if (analysed !== undefined) return analysed;
  const r = runTae(dir, ['analyze', '-q', '--sigma', '-o', 'results.json', ...names]);
  assert.equal(r.status, 0, r.stderr);
  analysed = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { insights: Insight[] };
  return analysed;
}

function keyed(): Keyed[] {
  const { insights } = results();
  const timeline = insights.find((i) => 'Timeline' in i) as { Timeline: { data: TimelineEntry[] } };
  const sources = insights.find((i) => 'Table' in i && i.Table.title === 'Key Event Timeline: Sources') as {
    Table: { data: string[][] };
  };
  assert.deepEqual(sources.Table.data[0], ['Entry', 'Computer', 'Record', 'File']);
  const rows = sources.Table.data.slice(1);
  assert.equal(rows.length, timeline.Timeline.data.length, 'one sources row per timeline entry');
  return timeline.Timeline.data.map((entry, i) => {
    const [n, computer, reference, file] = rows[i]!;
    assert.equal(n, String(i + 1));
    return { entry, computer: computer!, reference: reference!, file: file! };
  });
}

test('every key event of three hosts names its one host, and each host has its own entries', () => {
  const all = keyed();
  assert.deepEqual([...new Set(all.map((k) => k.computer))].sort(), [...HOSTS].sort());
  for (const k of all) {
    // The description says the same host, and no other of the three.
    assert.ok(k.entry.description.includes(k.computer.split('.')[0]!), JSON.stringify(k));
    for (const other of HOSTS.filter((h) => h !== k.computer))
      assert.ok(!k.entry.description.includes(other), `${k.entry.short_name} names ${other} too`);
  }
  for (const host of HOSTS) assert.ok(all.filter((k) => k.computer === host).length >= 3, host);
});

test('a Sigma rule that fired on two hosts is one entry per host, never one row across hosts', () => {
  const sigma = keyed().filter((k) => k.entry.category === 'Sigma');
  const byRule = new Map<string, string[]>();
  for (const k of sigma)
    byRule.set(k.entry.short_name, [...(byRule.get(k.entry.short_name) ?? []), k.computer]);
  const shared = [...byRule].filter(([, hosts]) => new Set(hosts).size > 1);
  assert.ok(shared.length > 0, 'some builtin rule fires on two of the hosts');
  for (const [rule, hosts] of shared)
    assert.equal(new Set(hosts).size, hosts.length, `${rule}: one entry per host`);
  for (const k of sigma) assert.match(k.entry.description, / on [\w.-]+(;|$)/);
});

test('record references name the channel and the file the record was read from', () => {
  for (const k of keyed()) {
    const [channel, record] = k.reference.split('#');
    assert.ok(channel !== '' && channel !== undefined, JSON.stringify(k));
    assert.equal(Number(record), k.entry.record_id);
    assert.ok(names.includes(k.file), `${k.file} is one of the inputs`);
  }
  // A record the shadow copy holds too is named by one file, the same for every key event.
  const copied = keyed().filter((k) => k.computer === HOSTS[1] && k.reference === 'Security#6');
  assert.ok(copied.length >= 2);
  assert.equal(new Set(copied.map((k) => k.file)).size, 1);
  const hr = keyed().filter((k) => k.computer === HR);
  assert.ok(hr.length > 0 && hr.every((k) => k.file === 'WS-HR-03.evtx'));
});

test('tae analyze --csv and --jsonl carry the Computer, the record reference and the file', () => {
  const csv = runTae(dir, ['analyze', '--sigma', '--csv', ...names]);
  assert.equal(csv.status, 0, csv.stderr);
  const header = csv.stdout.split('\r\n')[0] ?? csv.stdout.split('\n')[0]!;
  assert.match(header, /^start,end,importance,category,computer,record_id,reference,file,short_name,/);
  assert.match(csv.stdout, /,High,Sigma,WS-HR-03\.corp\.example,120,Security#120,WS-HR-03\.evtx,/);
  const jsonl = runTae(dir, ['analyze', '--sigma', '--jsonl', ...names]);
  const rows = jsonl.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(rows.length, keyed().length);
  assert.deepEqual([...new Set(rows.map((r) => r.computer))].sort(), [...HOSTS].sort());
  for (const r of rows) {
    assert.match(String(r.reference), /^[\w /-]+#\d+$/);
    assert.ok(names.includes(String(r.file)));
  }
});
