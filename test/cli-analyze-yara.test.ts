/**
 * `tae analyze --yara`, the built binary on a generated log: payloads scanned with a `--rule`
 * YARA file show in the summary, the `-o` JSON (matches with their records, and the job's
 * insights) and the HTML report, attacker text escaped; a .yar rule without --yara is refused.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { payloadLog, scriptBlockEvent } from './helpers/payload-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-analyze-yara-'));
const MARKUP = '<script>alert("tae")</script> # tae-markup-marker';
writeFileSync(join(dir, 'payloads.evtx'), writeEvtx([...payloadLog(), scriptBlockEvent(MARKUP, 900)]));
writeFileSync(
  join(dir, 'x.yar'),
  `rule gzip_beacon { strings: $a = "$c2 = \\"tae-gzip-beacon.example\\"" condition: $a }
rule markup_in_script { strings: $a = "tae-markup-marker" condition: $a }`,
);
const tae = (...args: string[]) => runTae(dir, args, { SOURCE_DATE_EPOCH: '1714557600' });

before(ensureBuilt);

test('tae analyze --yara --rule x.yar shows the payload matches in the summary, -o JSON and the report', () => {
  const r = tae(
    'analyze',
    'payloads.evtx',
    '--yara',
    '--rule',
    'x.yar',
    '-o',
    'out.json',
    '--html',
    'r.html',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Sigma: not run/m);
  assert.match(r.stdout, /^YARA payloads: \d+ payloads scanned, 2 matches$/m);
  assert.match(r.stdout, /High .* Yara +YARA: gzip_beacon/);
  const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
  assert.equal(out.sigma, null);
  const matches = out.yara_payloads.matches as {
    kind: string;
    rules: { rule: string; namespace: string }[];
    records: { record_id: number; event_id: number; file: string }[];
    layers: string[];
    preview: string;
  }[];
  assert.deepEqual(
    matches.map((m) => [m.rules.map((x) => `${x.namespace}:${x.rule}`), m.kind, m.layers, m.records]),
    [
      [
        ['x.yar:gzip_beacon'],
        'base64',
        ['base64', 'gzip'],
        [
          {
            record_id: 300,
            timestamp: '2026-04-02T09:02:00.000Z',
            event_id: 4688,
            channel: 'Security',
            file: 'payloads.evtx',
          },
        ],
      ],
      [
        ['x.yar:markup_in_script'],
        'script-block',
        [],
        [
          {
            record_id: 900,
            timestamp: '2026-04-02T09:10:00.000Z',
            event_id: 4104,
            channel: 'Microsoft-Windows-PowerShell/Operational',
            file: 'payloads.evtx',
          },
        ],
      ],
    ],
  );
  assert.ok(matches[0]!.preview.startsWith('$c2 = "tae-gzip-beacon.example"'));
  const table = out.insights.find(
    (i: { Table?: { title: string } }) => i.Table?.title === 'Overview: YARA Payload Matches',
  );
  assert.deepEqual(
    table.Table.data.map((row: string[]) => row[0]),
    ['Rule', 'gzip_beacon', 'markup_in_script'],
  );
  const html = readFileSync(join(dir, 'r.html'), 'utf8');
  assert.match(html, /Overview: YARA Payload Matches/);
  assert.match(html, /YARA: gzip_beacon/);
  // Long values carry <wbr> break points in the report; the text between them is escaped.
  const text = html.replaceAll('<wbr>', '');
  assert.ok(text.includes('&lt;script&gt;alert(&quot;tae&quot;)&lt;/script&gt; # tae-markup-marker'));
  assert.ok(!html.includes('<script>alert('));
});

test('tae analyze without --yara has no YARA output, and a .yar --rule without --yara is refused', () => {
  const r = tae('analyze', 'payloads.evtx', '-o', 'plain.json');
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /YARA/);
  const out = JSON.parse(readFileSync(join(dir, 'plain.json'), 'utf8'));
  assert.equal('yara_payloads' in out, false);
  assert.ok(!JSON.stringify(out.insights).includes('YARA'));
  const refused = tae('analyze', 'payloads.evtx', '--rule', 'x.yar');
  assert.equal(refused.status, 2, refused.stderr);
  assert.match(refused.stderr, /x\.yar is a YARA rule: add --yara/);
});
