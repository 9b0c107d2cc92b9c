/**
 * Index metadata from rule text. Sigma: our own loader, so a rule that indexes is one we
 * parsed, and a rule that does not load is still retrievable but carries a diagnostic.
 * YARA: linear scans for the rule names (yara-names.ts), the first `description` and
 * `author`, and the tags of all rules; the compiler's verdict is the checker's business, not this file's.
 */
import { loadRules, type PlaceholderValues, type RuleMeta } from '../sigma/index.js';
import { retrievalNames } from './names.js';
import type { CandidateFile, ScanProblem } from './scan.js';
import type { RuleFields } from './store.js';
import { yaraRuleIdentifiers } from './yara-names.js';

export type Extracted =
  | { readonly kind: 'indexed'; readonly fields: RuleFields; readonly problems: readonly ScanProblem[] }
  | { readonly kind: 'skipped'; readonly problem: ScanProblem };

/** Tags kept per file, and characters per metadata value: index rows stay small whatever the input. */
const MAX_TAGS = 64;
const MAX_META_CHARS = 4096;

const clip = (s: string | undefined): string | null =>
  s === undefined ? null : s.length > MAX_META_CHARS ? `${s.slice(0, MAX_META_CHARS)}…` : s;

function fieldsOf(file: CandidateFile, hash: string, text: string, meta: Partial<RuleMeta>): RuleFields {
  return {
    kind: file.kind,
    name: file.name,
    names: retrievalNames(file.kind, file.name, text),
    path: file.path,
    hash,
    title: clip(meta.title),
    description: clip(meta.description),
    author: clip(meta.author),
    tags: JSON.stringify((meta.tags ?? []).slice(0, MAX_TAGS).map((t) => clip(t))),
    level: clip(meta.level),
    status: clip(meta.status),
    rule_id: clip(meta.id),
  };
}

const SIGMA_BODY = /^(?:detection|correlation|filter)[ \t]*:/m;

export function extractSigma(
  file: CandidateFile,
  hash: string,
  text: string,
  placeholders: PlaceholderValues,
): Extracted {
  // Configuration files share the extension (a backend's `title: THOR` mapping): a rule has one of these keys.
  if (!SIGMA_BODY.test(text))
    return {
      kind: 'skipped',
      problem: {
        path: file.path,
        code: 'sigma.not_a_rule',
        message: 'no top-level detection, correlation or filter key',
      },
    };
  const loaded = loadRules(text, file.path, { placeholders });
  const documents = [...loaded.rules, ...loaded.correlations, ...loaded.filters];
  const first = documents.sort((a, b) => a.document - b.document)[0];
  const problems = loaded.diagnostics.map((d) => ({
    path: file.path,
    code: 'sigma.load' as const,
    message: `${d.document === undefined ? '' : `document ${d.document}: `}${d.code}: ${d.message}`,
  }));
  if (first !== undefined) return { kind: 'indexed', fields: fieldsOf(file, hash, text, first), problems };
  const named = loaded.diagnostics.find((d) => d.title !== undefined);
  if (named === undefined) {
    const why = loaded.diagnostics[0];
    return {
      kind: 'skipped',
      problem: {
        path: file.path,
        code: 'sigma.not_a_rule',
        message: `no Sigma document with a title${why === undefined ? '' : ` (${why.code}: ${why.message})`}`,
      },
    };
  }
  return {
    kind: 'indexed',
    fields: fieldsOf(file, hash, text, {
      ...(named.title === undefined ? {} : { title: named.title }),
      ...(named.ruleId === undefined ? {} : { id: named.ruleId }),
    }),
    problems,
  };
}

const RULE_HEAD =
  /^[ \t]*(?:(?:private|global)[ \t]+)*rule[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::([^{\r\n]*))?/gm;
const META_TEXT = (key: string) =>
  new RegExp(`^[ \\t]*${key}[ \\t]*=[ \\t]*"((?:[^"\\\\\\r\\n]|\\\\.)*)"`, 'm');

function unescapeYara(s: string): string {
  return s.replace(/\\(["\\])/g, '$1');
}

export function extractYara(file: CandidateFile, hash: string, text: string): Extracted {
  // The first rule the compiler sees (one commented out is none).
  const title: string | undefined = yaraRuleIdentifiers(text)[0];
  const tags = new Set<string>();
  for (const m of text.matchAll(RULE_HEAD)) {
    for (const t of (m[2] ?? '').split(/[ \t]+/))
      if (/^[A-Za-z0-9_]+$/.test(t) && tags.size < MAX_TAGS) tags.add(t);
  }
  const description = META_TEXT('description').exec(text)?.[1];
  const author = META_TEXT('author').exec(text)?.[1];
  const meta: Partial<RuleMeta> = {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description: unescapeYara(description) }),
    ...(author === undefined ? {} : { author: unescapeYara(author) }),
    tags: [...tags],
  };
  return { kind: 'indexed', fields: fieldsOf(file, hash, text, meta), problems: [] };
}
