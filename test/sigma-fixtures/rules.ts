/** Test helpers: a detection section in, a loaded rule (or its rejection) out. */
import assert from 'node:assert/strict';
import {
  type DiagnosticCode,
  eventFromObject,
  type LoadOptions,
  type LoadResult,
  loadRules,
  type SigmaRule,
} from '../../src/sigma/index.js';

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((l) => (l.trim() === '' ? l : by + l))
    .join('\n');

/** A complete rule document around the given `detection:` body (YAML, unindented). */
export function ruleText(detection: string, title = 'test rule'): string {
  return `title: ${title}\nid: 00000000-0000-0000-0000-000000000001\nlogsource:\n  product: test\ndetection:\n${indent(detection, '  ')}\n`;
}

export function loadDetection(detection: string, options?: LoadOptions): LoadResult {
  return loadRules(ruleText(detection), 'test.yml', options);
}

export function compile(detection: string, options?: LoadOptions): SigmaRule {
  const r = loadDetection(detection, options);
  assert.deepEqual(r.diagnostics, [], 'the rule should load');
  assert.equal(r.rules.length, 1);
  return r.rules[0]!;
}

/** The code the rule is rejected with (the test fails if it loads). */
export function rejection(detection: string, options?: LoadOptions): DiagnosticCode {
  const r = loadDetection(detection, options);
  assert.equal(r.rules.length, 0, 'the rule should be rejected');
  assert.equal(r.diagnostics.length, 1);
  return r.diagnostics[0]!.code;
}

export function matches(rule: SigmaRule, event: Record<string, unknown>): boolean {
  return rule.matches(eventFromObject(event));
}
