/**
 * The one sanitiser for text a person reads (src/display): what it escapes, how, and what it
 * leaves alone; and the JSON form, which must parse back to the same value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayBlock, displayJson, displayLine } from '../src/display/index.js';

test('a line shows every control, bidi override, invisible mark and lone surrogate as an escape', () => {
  assert.equal(
    displayLine('a\u001b]0;T\u0007b\r\nc\td\u0000\u007f\u0085\u009b\u202ee\u2066\u200b\ufeff\ud800f\udc00'),
    'a\\x1b]0;T\\x07b\\r\\nc\\td\\x00\\x7f\\x85\\x9b\\u{202E}e\\u{2066}\\u{200B}\\u{FEFF}\\u{D800}f\\u{DC00}',
  );
});

test('clean text, backslashes, non-ASCII letters and surrogate pairs are left exactly as they are', () => {
  for (const s of [
    '',
    'C:\\Windows\\x64\\cl.exe',
    'Grüße, Ωμέγα, 日本語',
    'emoji \ud83d\ude00 ok',
    '\\u{1b}',
  ])
    assert.equal(displayLine(s), s);
});

test('a block keeps newlines and tabs, turns CRLF into one newline and escapes a lone CR', () => {
  assert.equal(displayBlock('one\r\n\ttwo\rthree\n\u001b[2J'), 'one\n\ttwo\\rthree\n\\x1b[2J');
});

test('JSON for a terminal writes C1, DEL and bidi marks as \\u escapes and parses to the same value', () => {
  const value = { text: 'x\u009b31m\u202eevil\u007f\u200b', ok: 'C:\\Temp\\ä' };
  const shown = displayJson(JSON.stringify(value));
  assert.doesNotMatch(shown, /[\u007f-\u009f\u202a-\u202e\u200b]/);
  assert.match(shown, /\\u009b31m\\u202eevil\\u007f\\u200b/);
  assert.deepEqual(JSON.parse(shown), value);
});
