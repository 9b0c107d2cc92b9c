/**
 * Rule names, rule kinds by extension, and the request check of the retrieval endpoints. A
 * name is what results show: a Sigma rule's file stem (`ruleStem`, which the Sigma
 * results use too) and a YARA rule's identifier (the compiler's, found by
 * `yaraRuleIdentifiers`); a YARA file also answers to its stem.
 */
import { TaeError } from '../errors/index.js';
import { ruleStem } from '../sigma/index.js';
import type { RuleKind } from './types.js';
import { yaraRuleIdentifiers } from './yara-names.js';

/** Longest name accepted, and most names in one request (the spec leaves both open). */
export const MAX_NAME_CHARS = 256;
export const MAX_NAMES_PER_REQUEST = 1000;

export const INVALID_NAMES_MESSAGE = 'Invalid rule names provided';
export const NOT_FOUND_MESSAGE = 'One or more rules not found';

// A name is a file stem: no path separators, no control characters.
const NAME = /^[^/\\\u0000-\u001f\u007f]+$/;

export function isRuleName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= MAX_NAME_CHARS && NAME.test(name) && name.trim() !== '';
}

const EXTENSIONS: ReadonlyArray<readonly [string, RuleKind]> = [
  ['.yml', 'sigma'],
  ['.yaml', 'sigma'],
  ['.yar', 'yara'],
  ['.yara', 'yara'],
];

/** The kind and stem of a rule file from its base name, or undefined for other files. */
export function ruleFileOf(baseName: string): { kind: RuleKind; name: string } | undefined {
  const lower = baseName.toLowerCase();
  for (const [ext, kind] of EXTENSIONS)
    if (lower.endsWith(ext) && lower.length > ext.length)
      return { kind, name: kind === 'sigma' ? ruleStem(baseName) : baseName.slice(0, -ext.length) };
  return undefined;
}

/** Every name a rule file is retrieved by: its stem, then (YARA) each rule it declares. */
export function retrievalNames(kind: RuleKind, stem: string, text: string): string[] {
  if (kind === 'sigma') return [stem];
  return [...new Set([stem, ...yaraRuleIdentifiers(text)])];
}

/** The spec's error body: plain text for Sigma, JSON for YARA. */
export const bodyFormatOf = (kind: RuleKind) => (kind === 'sigma' ? 'text' : 'json');

/** The request's names, deduplicated in order, or the 400 the endpoints answer. */
export function requestedNames(kind: RuleKind, names: unknown): string[] {
  const invalid = (reason: string) =>
    new TaeError('INVALID_ARGUMENT', INVALID_NAMES_MESSAGE, {
      status: 400,
      bodyFormat: bodyFormatOf(kind),
      context: { kind, reason },
    });
  if (!Array.isArray(names)) throw invalid('rule_names must be an array of strings');
  if (names.length === 0) throw invalid('rule_names is empty');
  if (names.length > MAX_NAMES_PER_REQUEST) throw invalid(`more than ${MAX_NAMES_PER_REQUEST} names`);
  for (const n of names as unknown[])
    if (!isRuleName(n)) throw invalid(`not a rule name: ${JSON.stringify(n)?.slice(0, 80)}`);
  return [...new Set(names as string[])];
}
