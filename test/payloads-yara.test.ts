import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { scanPayloads, YaraEngine } from '../src/yara/index.js';
import { payloadsOf } from './helpers/payload-extract.js';
import { payloadLog } from './helpers/payload-log.js';

const engine = new YaraEngine({ threads: 2, scanTimeoutMs: 5_000 });
after(() => engine.close());

/** One rule per story, written for the decoded text: none of these strings is in the log as written. */
const RULES = `
rule split_script_block { strings: $a = "function Invoke-TaeReflectiveStager" condition: $a }
rule double_encoded_cradle { strings: $a = "DownloadString('http://10.0.13.37/tae-double-stage.ps1')" condition: $a }
rule gzip_beacon { strings: $a = "$c2 = \\"tae-gzip-beacon.example\\"" $b = "Invoke-RestMethod" condition: all of them }
rule service_launcher { strings: $a = "# tae-service-launcher" $b = "DownloadData" condition: all of them }
`;

describe('scanPayloads', () => {
  test('each story is matched by the rule written for its decoded text, and the raw log matches none', async () => {
    const { payloads } = await payloadsOf(payloadLog());
    const scan = await scanPayloads(payloads, { rules: RULES, engine });
    assert.equal(scan.kind, 'scanned');
    if (scan.kind !== 'scanned') return;
    const hits = scan.results.flatMap((r) =>
      r.outcome.kind === 'matched'
        ? r.outcome.matches.map((m) => `${m.rule} <- ${r.payload.kind}#${r.payload.records[0]!.recordId}`)
        : [],
    );
    assert.deepEqual(hits.sort(), [
      'double_encoded_cradle <- encoded-command#200',
      'gzip_beacon <- base64#300',
      'service_launcher <- encoded-command#400',
      'split_script_block <- script-block#101',
    ]);
    const compiled = await engine.compile({ sources: RULES });
    assert.equal(compiled.kind, 'compiled');
    if (compiled.kind !== 'compiled') return;
    const raw = await engine.scan({ rules: compiled.rules, target: { bytes: writeEvtx(payloadLog()) } });
    assert.deepEqual(raw, { kind: 'matched', matches: [], bytes: raw.kind === 'matched' ? raw.bytes : 0 });
    const again = await scanPayloads(payloads, { compiled: compiled.rules, engine });
    assert.deepEqual(again, { ...scan, warnings: compiled.rules.warnings });
  });

  test('bytes payloads are scanned as bytes, text as UTF-8', async () => {
    const scan = await scanPayloads([{ bytes: Uint8Array.of(0x4d, 0x5a, 0x90, 0) }, { text: 'héllo' }], {
      rules:
        'rule mz { condition: uint16(0) == 0x5a4d } rule utf8 { strings: $a = { 68 C3 A9 6C } condition: $a }',
      engine,
    });
    assert.equal(scan.kind, 'scanned');
    if (scan.kind !== 'scanned') return;
    assert.deepEqual(
      scan.results.map((r) =>
        r.outcome.kind === 'matched' ? r.outcome.matches.map((m) => m.rule) : r.outcome.kind,
      ),
      [['mz'], ['utf8']],
    );
  });

  test('rules that do not compile come back as compile-failed, with the compiler errors', async () => {
    const scan = await scanPayloads([{ text: 'x' }], { rules: 'rule broken { condition: nope }', engine });
    assert.equal(scan.kind, 'compile-failed');
    assert.ok(scan.kind === 'compile-failed' && scan.errors.length > 0);
  });

  test('exactly one of rules and compiled is required', async () => {
    await assert.rejects(scanPayloads([], { engine }), /options\.rules must be given, or else compiled/);
  });
});
