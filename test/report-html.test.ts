/**
 * The HTML report as text: pinned for the example story; self-contained (one hashed style,
 * one hashed script, a CSP of default-src 'none', no attribute that could fetch anything);
 * hostile event and rule text escaped everywhere, the Graphviz SVG reduced to shapes and text.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { PAYLOADS } from '../fixtures/hostile-events.js';
import { isTaeError } from '../src/errors/index.js';
import { buildReport, sanitizeSvg } from '../src/report/index.js';
import { matchesGolden } from './helpers/golden.js';
import {
  exampleReportInput,
  hostileReportInput,
  REPORT_TIME,
  terminalReportInput,
} from './helpers/report-inputs.js';

const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** Every attribute of every tag outside the inline script and style. */
function attributes(html: string): [string, string][] {
  const markup = html.replace(/<script>[\s\S]*?<\/script>|<style>[\s\S]*?<\/style>/g, '');
  const out: [string, string][] = [];
  for (const tag of markup.matchAll(/<[a-zA-Z][^>]*>/g))
    for (const a of tag[0].matchAll(/\s([^\s=/>]+)\s*=\s*"([^"]*)"/g)) out.push([a[1]!.toLowerCase(), a[2]!]);
  return out;
}

/** The page's data blocks: inert JSON the script reads (timeline, detections, rules, graph). */
const DATA_BLOCK = /<script type="application\/json" id="[a-z-]+">[^<]*<\/script>/g;

function assertSelfContained(html: string): void {
  const scripts = [...html.replace(DATA_BLOCK, '').matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)];
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)];
  assert.equal(scripts.length, 1, 'exactly one script besides the JSON data blocks');
  for (const block of html.matchAll(DATA_BLOCK))
    JSON.parse(block[0].replace(/^<script[^>]*>|<\/script>$/g, ''));
  assert.equal(styles.length, 1, 'exactly one style element');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.equal(
    csp,
    `default-src 'none'; style-src ${sha(styles[0]![1]!)}; script-src ${sha(scripts[0]![1]!)}; base-uri 'none'; form-action 'none'`,
  );
  for (const [name, value] of attributes(html)) {
    assert.ok(!name.startsWith('on'), `event handler attribute ${name}`);
    assert.notEqual(name, 'style', 'no inline style attributes (the CSP forbids them)');
    if (
      ['src', 'srcset', 'action', 'formaction', 'poster', 'xlink:href', 'data', 'background'].includes(name)
    )
      assert.fail(`fetching attribute ${name}="${value}"`);
    if (name === 'href') assert.match(value, /^#[a-z0-9-]+$/, `only in-page links, got ${value}`);
    assert.doesNotMatch(value, /url\s*\(|javascript:/i);
  }
}

test('the example report is pinned, self-contained, and holds every section with the graph drawn', async () => {
  const html = await buildReport(await exampleReportInput());
  matchesGolden('report-example.html', html);
  assertSelfContained(html);
  for (const id of [
    'summary',
    'sigma-detections',
    'overview',
    'key-event-timeline',
    'process-inference-graph',
    'process-analysis',
    'network-analysis',
    'authentication',
    'persistence',
  ])
    assert.match(html, new RegExp(`<section id="${id}">`), id);
  const svg = /<div class="graph" id="process-graph">(<svg[\s\S]*?<\/svg>)<\/div>/.exec(html)?.[1];
  assert.ok(svg, 'the process graph is inline SVG');
  assert.equal((svg.match(/class="node"/g) ?? []).length, 18);
  assert.match(svg, /powershell\.exe/);
  const timeline = JSON.parse(
    /<script type="application\/json" id="tl-data">([^<]*)<\/script>/.exec(html)![1]!,
  );
  assert.equal(timeline.rows.length, 18, 'one timeline row per key event');
  assert.deepEqual(timeline.hosts, ['WS-FINANCE-07.corp.example']);
  assert.match(html, /<table id="host-levels" class="levels">/);
  assert.match(html, /Generated 2024-05-01 10:00:00 UTC\./);
  assert.match(html, /10 matches of 9 rules\./);
});

test('hostile event and rule text is escaped everywhere: no markup, script, link or request survives', async () => {
  const input = await hostileReportInput();
  const html = await buildReport(input);
  assertSelfContained(html);
  for (const raw of [
    '<script>document.title',
    '<img',
    '<iframe',
    '<style>@import',
    '<b>HOSTILE',
    '<svg onload',
  ])
    assert.ok(!html.includes(raw), `raw ${raw} in the report`);
  assert.ok(
    html.includes('&lt;/text&gt;&lt;/svg&gt;&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;'),
  );
  assert.ok(html.includes('WS-&lt;b&gt;HOSTILE&lt;/b&gt;-01'));
  const rules = JSON.parse(
    /<script type="application\/json" id="rule-data">([^<]*)<\/script>/.exec(html)![1]!,
  );
  assert.ok(
    rules.some(
      (r: unknown[]) => JSON.stringify(r[9]) === JSON.stringify(input.sigmaRules!.at(-1)!.references),
    ),
    'references travel as data, shown as text (report-browser checks the panel)',
  );
  assert.ok(!/<!--/.test(html), 'no comments (a payload could close one)');
  const svg = /<div class="graph" id="process-graph">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  assert.match(svg, /^<svg /);
  for (const id of svg.matchAll(/\sid="([^"]*)"/g)) assert.match(id[1]!, /^pg-/);
  assert.equal(input.title, `Report ${PAYLOADS.script}`);
});

test('report text shows control characters, ESC sequences and bidi overrides as escapes, none raw', async () => {
  const html = await buildReport(await terminalReportInput());
  const raw = [...html].filter((c) =>
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(c),
  );
  assert.deepEqual(raw, []);
  assert.ok(html.includes('Report \\x1b]0;PWNED\\x07\\x1b[2J'), 'the title shows the escapes');
  assert.ok(html.includes('\\x9b31m\\x9d0;T\\x9c\\u{202E}evil\\u{202C}'), 'C1 and bidi shown in cells');
  const svg = /<div class="graph" id="process-graph">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  assert.match(svg, /\\u\{202E\}/, 'graph labels through the same sanitiser');
});

test('sanitizeSvg keeps shapes and text, drops links, images, scripts, handlers and external references', () => {
  const dirty =
    '<?xml version="1.0"?><!DOCTYPE svg><!-- c --><svg width="10pt" viewBox="0 0 1 1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
    '<g id="node1" class="node"><a xlink:href="http://127.0.0.1:9/a" target="_blank"><image href="http://127.0.0.1:9/i.png"/>' +
    '<script>alert(1)</script><text x="1" onclick="alert(2)" fill="url(http://127.0.0.1:9/#f)">a &lt; b</text></a>' +
    '<foreignObject><div>x</div></foreignObject><polygon fill="white" points="0,0 1,1"/></g></svg>';
  assert.equal(
    sanitizeSvg(dirty),
    '<svg width="10pt" viewBox="0 0 1 1" xmlns="http://www.w3.org/2000/svg"><g id="pg-node1" class="node">alert(1)<text x="1">a &lt; b</text>x<polygon fill="white" points="0,0 1,1"/></g></svg>',
  );
});

test('without Sigma the report has no Sigma section; a bad input is a coded error', async () => {
  const html = await buildReport({
    insights: [{ Error: { message: 'x.evtx: <bad>' } }],
    generatedAt: REPORT_TIME,
  });
  assert.ok(!html.includes('id="sigma-detections"'));
  assert.match(
    html,
    /<section id="problems"><h2>Problems<\/h2><p class="error">x\.evtx: &lt;bad&gt;<\/p><\/section>/,
  );
  await assert.rejects(
    buildReport({ insights: 'nope' } as never),
    (e) => isTaeError(e) && e.code === 'INVALID_ARGUMENT' && /insights/.test(e.message),
  );
});
