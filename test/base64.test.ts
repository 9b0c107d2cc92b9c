/** One reading of base64 for every endpoint: both alphabets, whitespace ignored, padding only where it belongs. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base64ByteLength, cleanBase64, decodeBase64, decodeRuleText } from '../src/base64/index.js';

const BYTES = Buffer.from([0xfb, 0xff, 0xbf, 0x00, 0x3e, 0x3f, 0x41]);

test('standard, URL-safe, unpadded and wrapped forms decode to the same bytes', () => {
  const forms = [
    BYTES.toString('base64'),
    BYTES.toString('base64url'),
    BYTES.toString('base64').replace(/=+$/, ''),
    BYTES.toString('base64').replace(/(.{4})/g, '$1\r\n '),
  ];
  for (const form of forms) {
    const clean = cleanBase64(form);
    assert.ok(clean !== null, form);
    assert.equal(base64ByteLength(clean), BYTES.length, form);
    assert.deepEqual(decodeBase64(clean), BYTES, form);
  }
});

test('foreign characters, misplaced padding, impossible lengths and non-strings are not base64', () => {
  for (const bad of ['ab$d', 'ab=d', 'a===', 'abc==', 'ab=', 'abcde', 'ab+_', 42, null, undefined, {}]) {
    assert.equal(cleanBase64(bad), null, String(bad));
  }
  assert.equal(cleanBase64(''), '');
});

test('the decoded length is known before decoding, for every padding', () => {
  for (let n = 0; n < 12; n++) {
    const clean = cleanBase64(Buffer.alloc(n, 7).toString('base64'))!;
    assert.equal(base64ByteLength(clean), n);
  }
});

test('a rule field decodes strictly: not base64, empty, blank or not UTF-8 is null; a BOM is dropped', () => {
  const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');
  for (const bad of [
    undefined,
    '%%%',
    '',
    b64('  \n'),
    b64(Buffer.from([0x72, 0xff])),
    b64(Buffer.from([0xc0, 0xaf])),
  ])
    assert.equal(decodeRuleText(bad), null, String(bad));
  assert.equal(decodeRuleText(b64('\uFEFFrule r')), 'rule r');
  assert.throws(
    () => decodeRuleText(b64('12345'), { maxBytes: 4, tooLarge: () => new Error('too large') }),
    /too large/,
  );
});
