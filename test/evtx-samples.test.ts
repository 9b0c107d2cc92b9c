/** Record and diagnostic counts on the evtx crate's torture samples (README-expected.md), pinned exactly. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseEvtx } from '../src/index.js';
import { corpusIndex, EVTX_DIR, SKIP_NO_CORPUS } from './helpers/corpus.js';

/**
 * [file, records the crate decodes, records it fails on, our error and warning diagnostics,
 * their codes]. We decode exactly the crate's records; where it fails on records we report each
 * loss as an error, and damage that costs nothing (a checksum the chunk survives) as a warning.
 */
const SAMPLE_COUNTS: readonly [string, number, number, number, number, string][] = [
  ['sample-with-irregular-bool-values.evtx', 3028, 0, 0, 0, ''],
  [
    '2-vss_0-Microsoft-Windows-RemoteDesktopServices-RdpCoreTS%4Operational.evtx',
    1910,
    4,
    4,
    2,
    'chunk.bad_data_crc,record.bad_binxml,record.bad_magic,record.bad_value',
  ],
  [
    '2-vss_0-Microsoft-Windows-TerminalServices-RemoteConnectionManager%4Operational.evtx',
    1774,
    2,
    2,
    2,
    'chunk.bad_data_crc,record.bad_binxml,record.bad_magic',
  ],
  ['2-vss_7-System.evtx', 1160, 0, 0, 0, ''],
  ['sample_with_a_bad_chunk_magic.evtx', 270, 2, 0, 3, 'chunk.bad_data_crc'],
  ['Microsoft-Windows-HelloForBusiness%4Operational.evtx', 6, 0, 0, 1, 'chunk.bad_data_crc'],
  ['Microsoft-Windows-LanguagePackSetup%4Operational.evtx', 17, 0, 0, 1, 'chunk.bad_data_crc'],
  ['E_Windows_system32_winevt_logs_Microsoft-Windows-Shell-Core%4Operational.evtx', 1146, 0, 0, 0, ''],
  ['E_Windows_system32_winevt_logs_Microsoft-Windows-CAPI2%4Operational.evtx', 340, 0, 0, 0, ''],
  ['E_ShadowCopy6_windows_system32_winevt_logs_Microsoft-Windows-CAPI2%4Operational.evtx', 459, 0, 0, 0, ''],
  ['Application_no_crc32.evtx', 17, 0, 0, 1, 'chunk.bad_header_crc'],
  ['post-Security.evtx', 126, 0, 0, 0, ''],
  ['sample-with-zero-data-size-event.evtx', 335, 1, 1, 1, 'chunk.bad_data_crc,record.bad_size'],
];

async function counts(path: string) {
  const parse = parseEvtx(path, { outputs: ['event'] });
  let records = 0;
  for await (const _ of parse) records++;
  const errors = parse.diagnostics.filter((d) => d.severity === 'error').length;
  return { records, errors, diagnostics: parse.diagnostics };
}

for (const [file, crate, crateFailed, errors, warnings, codes] of SAMPLE_COUNTS) {
  test(`${file} yields exactly the crate's ${crate} records, with ${errors} error and ${warnings} warning diagnostics`, {
    skip: SKIP_NO_CORPUS,
  }, async () => {
    const c = await counts(join(EVTX_DIR, 'evtx-crate-samples', file));
    assert.equal(c.records, crate);
    assert.equal(c.errors, errors);
    assert.equal(c.diagnostics.length - c.errors, warnings);
    assert.equal([...new Set(c.diagnostics.map((d) => d.code))].sort().join(','), codes);
    if (crateFailed > 0) assert.ok(c.diagnostics.length > 0, 'the damage the crate fails on is reported');
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
