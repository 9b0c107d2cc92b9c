/**
 * Break opportunities in long report values: `<wbr>` after separators inside long tokens and
 * every 20 characters of a long separator-free run, never inside an escape or a surrogate pair;
 * short text is escaped exactly as before, and removing the `<wbr>`s gives the escaped value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clip } from '../src/analysis/index.js';
import { esc } from '../src/report/html.js';
import { escClipWrap, escWrap } from '../src/report/wrap.js';

const unwrapped = (html: string) => html.replaceAll('<wbr>', '');

test('a long path gets a break opportunity after each separator, short words none', () => {
  assert.equal(
    escWrap('run C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe -enc'),
    'run C:\\<wbr>Windows\\<wbr>System32\\<wbr>WindowsPowerShell\\<wbr>v1.<wbr>0\\<wbr>powershell.<wbr>exe -enc',
  );
  assert.equal(escWrap('services.exe WS-FINANCE-07'), 'services.exe WS-FINANCE-07');
});

test('a long bare run is cut every 20 characters; escapes and surrogate pairs stay whole', () => {
  const hash = '9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08';
  assert.equal(escWrap(hash).split('<wbr>').length, 4);
  const hostile = `<script>${'😀'.repeat(30)}&"'</script>/${'a'.repeat(30)}`;
  const html = escWrap(hostile);
  assert.equal(unwrapped(html), esc(hostile));
  assert.ok(!html.includes('\ufffd'), 'no surrogate pair split');
  assert.ok(!/&[a-z#0-9]*<wbr>/.test(html), 'no <wbr> inside an entity');
  assert.ok(!html.includes('<script'));
});

test('escClipWrap clips before it adds break opportunities', () => {
  const value = `${'x/'.repeat(100)}end`;
  const html = escClipWrap(value, 50);
  assert.equal(unwrapped(html), esc(clip(value, 50)));
  assert.ok(html.includes('<wbr>'));
});
