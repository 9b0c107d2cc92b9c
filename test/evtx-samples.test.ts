/** Record and failure counts on the evtx crate's torture samples (README-expected.md), or better. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseEvtx } from '../src/index.js';
import { corpusIndex, EVTX_DIR, SKIP_NO_CORPUS } from './helpers/corpus.js';

/** [file, records the crate decodes, records it fails on]. */
const CRATE_COUNTS: readonly [string, number, number][] = [
  ['sample-with-irregular-bool-values.evtx', 3028, 0],
  ['2-vss_0-Microsoft-Windows-RemoteDesktopServices-RdpCoreTS%4Operational.evtx', 1910, 4],
  ['2-vss_0-Microsoft-Windows-TerminalServices-RemoteConnectionManager%4Operational.evtx', 1774, 2],
  ['2-vss_7-System.evtx', 1160, 0],
  ['sample_with_a_bad_chunk_magic.evtx', 270, 2],
  ['Microsoft-Windows-HelloForBusiness%4Operational.evtx', 6, 0],
  ['Microsoft-Windows-LanguagePackSetup%4Operational.evtx', 17, 0],
  ['E_Windows_system32_winevt_logs_Microsoft-Windows-Shell-Core%4Operational.evtx', 1146, 0],
  ['E_Windows_system32_winevt_logs_Microsoft-Windows-CAPI2%4Operational.evtx', 340, 0],
  ['E_ShadowCopy6_windows_system32_winevt_logs_Microsoft-Windows-CAPI2%4Operational.evtx', 459, 0],
  ['Application_no_crc32.evtx', 17, 0],
  ['post-Security.evtx', 126, 0],
  ['sample-with-zero-data-size-event.evtx', 335, 1],
];

async function counts(path: string) {
  const parse = parseEvtx(path, { outputs: ['event'] });
  let records = 0;
  for await (const _ of parse) records++;
  const errors = parse.diagnostics.filter((d) => d.severity === 'error').length;
  return { records, errors, diagnostics: parse.diagnostics };
}

for (const [file, ok, failed] of CRATE_COUNTS) {
  test(`${file} yields at least the crate's ${ok} records`, { skip: SKIP_NO_CORPUS }, async () => {
    const c = await counts(join(EVTX_DIR, 'evtx-crate-samples', file));
    assert.ok(c.records >= ok, `decoded ${c.records}, the crate ${ok}`);
    if (failed > 0) assert.ok(c.diagnostics.length > 0, 'the damage the crate fails on is reported');
  });
}

test('every corpus file yields exactly as many records as evtx_dump, with a diagnostic for each it fails on', {
  skip: SKIP_NO_CORPUS,
}, async () => {
  const mismatched: string[] = [];
  for (const f of corpusIndex()) {
    const c = await counts(f.path);
    if (c.records !== f.records) mismatched.push(`${f.rel}: ${c.records} records, evtx_dump ${f.records}`);
    if (f.recordErrors > 0 && c.diagnostics.length === 0)
      mismatched.push(`${f.rel}: no diagnostic for ${f.recordErrors} bad records`);
  }
  assert.deepEqual(mismatched, []);
});
