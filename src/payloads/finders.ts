/**
 * Where base64 hides in a text, one small finder per form. Each returns the base64 it found;
 * whether that decodes to something is the unwrapper's business. Regular expressions here are
 * linear: every one starts at a fixed token and scans one character class.
 */
import type { PayloadKind } from './types.js';

export interface Candidate {
  /** `encoded-command` must decode to text (PowerShell reads it as UTF-16LE); `base64` may be bytes. */
  readonly kind: Extract<PayloadKind, 'encoded-command' | 'base64'>;
  readonly base64: string;
  /** Taken only if it decodes to text: PowerShell reads an encoded command as UTF-16LE, and a text of
   * nothing but base64 characters (`AAAA…`) is base64 of base64 only when it decodes to text. */
  readonly mustBeText: boolean;
  /** Where it starts in the text (finders skip spans an earlier finder took). */
  readonly at: number;
  readonly end: number;
}

export interface FinderContext {
  readonly minChars: number;
  readonly minLiteralChars: number;
  /** 0 for an event field; a decoded text is deeper. */
  readonly depth: number;
  /** Candidates one finder returns at most (the event's payload budget bounds the work anyway). */
  readonly max: number;
}

export type CandidateFinder = (text: string, context: FinderContext) => Candidate[];

/** Every abbreviation PowerShell accepts for -EncodedCommand (`-e` … `-encodedcommand`), and `-ec`. */
const ENCODED_COMMAND_NAMES = [
  'ec',
  ...Array.from({ length: 'encodedcommand'.length }, (_, i) => 'encodedcommand'.slice(0, i + 1)),
];

/** `-`, `/` and the dashes Windows' command line parser also takes (en dash, em dash, horizontal bar). */
const ENCODED_COMMAND = new RegExp(
  `(?:^|[\\s"'])[-/\\u2013\\u2014\\u2015](?:${ENCODED_COMMAND_NAMES.sort((a, b) => b.length - a.length).join('|')})(?:\\s+|:)["']?([A-Za-z0-9+/_=-]+)`,
  'gi',
);

const FROM_BASE64 = /FromBase64String\s*\(\s*\(?\s*(['"])([A-Za-z0-9+/_=\-\s]*)\1/gi;

const LITERAL = /(['"])([A-Za-z0-9+/=\r\n]+)\1/g;

const WHOLE = /^\s*([A-Za-z0-9+/_=\-\r\n]+)\s*$/;

const matches = (
  re: RegExp,
  text: string,
  group: number,
  kind: Candidate['kind'],
  min: number,
  max: number,
) => {
  const out: Candidate[] = [];
  for (const m of text.matchAll(re)) {
    if (out.length >= max) break;
    const b64 = m[group]!;
    if (b64.replace(/\s+/g, '').length < min) continue;
    out.push({
      kind,
      base64: b64,
      mustBeText: kind === 'encoded-command',
      at: m.index,
      end: m.index + m[0].length,
    });
  }
  return out;
};

/** Finders in the order they run: a span taken by one is not offered to the next. */
export const CANDIDATE_FINDERS: Readonly<Record<string, CandidateFinder>> = {
  encodedCommand: (text, c) => matches(ENCODED_COMMAND, text, 1, 'encoded-command', c.minChars, c.max),
  fromBase64String: (text, c) => matches(FROM_BASE64, text, 2, 'base64', c.minChars, c.max),
  /** Long quoted base64 (a variable later given to FromBase64String), in decoded or script text. */
  literal: (text, c) => matches(LITERAL, text, 2, 'base64', c.minLiteralChars, c.max),
  /** A decoded text that is itself nothing but base64: base64 of base64. */
  whole: (text, c) => {
    if (c.depth === 0 || text.length < c.minChars * 2) return [];
    const m = WHOLE.exec(text);
    return m === null ? [] : [{ kind: 'base64', base64: m[1]!, mustBeText: true, at: 0, end: text.length }];
  },
};

/** Every finder's candidates, without overlaps (earlier finders win), in text order. */
export function findCandidates(text: string, context: FinderContext): Candidate[] {
  const taken: Candidate[] = [];
  for (const find of Object.values(CANDIDATE_FINDERS))
    for (const c of find(text, context)) if (!taken.some((t) => c.at < t.end && t.at < c.end)) taken.push(c);
  return taken.sort((a, b) => a.at - b.at);
}
