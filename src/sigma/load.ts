/**
 * `loadRules`: file text in, typed documents and diagnostics out. It never throws for one
 * bad rule; each document fails alone, with the first reason found.
 */
import { buildDocument } from './compile.js';
import { type RuleDiagnostic, RuleError } from './diagnostics.js';
import type { SigmaCorrelation, SigmaFilter, SigmaRule } from './model.js';
import type { PlaceholderValues } from './modifiers/index.js';
import { DEFAULT_MAX_CHARS, isYamlMap, parseYaml, splitDocuments, type YamlValue } from './yaml.js';

export interface LoadOptions {
  /** Values for `|expand` placeholders, by name without the `%`s. */
  readonly placeholders?: PlaceholderValues;
  /** Largest rule text accepted, in characters (default 1 MiB). */
  readonly maxChars?: number;
  /**
   * Documents (by index) an earlier load of this very text, by this engine version and with
   * these placeholders, built and compiled without error (a rule cache vouches for it): their
   * matchers are compiled on first use instead of now, so a large rule set starts at once
   * and rules no event reaches are never compiled.
   */
  readonly trusted?: ReadonlySet<number>;
}

/**
 * `loadParsedRules`'s options inside the package. `lean`: rules that are only matched and named
 * by their position (the pool's workers, sigma/portable.ts) keep of a trusted document only
 * what matching and that naming read; see compile.ts `BuildOptions.lean`.
 */
export interface ParsedLoadOptions extends LoadOptions {
  readonly lean?: boolean;
  /** See compile.ts `BuildOptions.keepYaml` (default true). */
  readonly keepYaml?: boolean;
}

export interface LoadResult {
  readonly rules: SigmaRule[];
  readonly correlations: SigmaCorrelation[];
  readonly filters: SigmaFilter[];
  readonly diagnostics: RuleDiagnostic[];
}

function identity(doc: YamlValue): { ruleId?: string; title?: string } {
  if (!isYamlMap(doc)) return {};
  const id = doc.get('id');
  const title = doc.get('title');
  return {
    ...(typeof id === 'string' ? { ruleId: id } : {}),
    ...(typeof title === 'string' ? { title } : {}),
  };
}

/** The documents of a file, each either parsed or the reason it could not be. */
function documentsOf(
  text: string,
  source: string,
  maxChars: number,
  diagnostics: RuleDiagnostic[],
): YamlValue[] {
  const whole = parseYaml(text, maxChars);
  if (whole.ok) return [...whole.documents];
  const parts = whole.code === 'yaml.syntax' ? splitDocuments(text) : [];
  if (parts.length <= 1) {
    diagnostics.push({ source, code: whole.code, message: whole.message });
    return [];
  }
  // One broken document should not hide its neighbours: parse them one by one.
  const out: YamlValue[] = [];
  parts.forEach((part, i) => {
    const one = parseYaml(part, maxChars);
    if (one.ok) out.push(...one.documents);
    else {
      diagnostics.push({ source, document: i, code: one.code, message: one.message });
      out.push(null);
    }
  });
  return out;
}

/**
 * A rule file's YAML documents (`null` for one that did not parse) and the parse diagnostics:
 * the costly half of loading and plain data, so a caller may keep it (the CLI caches it on disk).
 */
export interface ParsedRuleText {
  readonly documents: readonly YamlValue[];
  readonly diagnostics: readonly RuleDiagnostic[];
}

export function parseRuleText(text: string, source: string, maxChars = DEFAULT_MAX_CHARS): ParsedRuleText {
  const diagnostics: RuleDiagnostic[] = [];
  const documents = documentsOf(text, source, maxChars, diagnostics);
  return { documents, diagnostics };
}

export function loadRules(text: string, source: string, options: LoadOptions = {}): LoadResult {
  return loadParsedRules(parseRuleText(text, source, options.maxChars), source, options);
}

/** `loadRules` from parsed documents: builds the typed documents (and their closures). */
export function loadParsedRules(
  parsed: ParsedRuleText,
  source: string,
  options: ParsedLoadOptions = {},
): LoadResult {
  const result: LoadResult = {
    rules: [],
    correlations: [],
    filters: [],
    diagnostics: [...parsed.diagnostics],
  };
  const placeholders = options.placeholders ?? {};
  const documents = parsed.documents;
  documents.forEach((doc, document) => {
    if (doc === null) return;
    if (!isYamlMap(doc)) {
      result.diagnostics.push({
        source,
        document,
        code: 'rule.not_mapping',
        message: 'a rule must be a YAML map',
      });
      return;
    }
    try {
      const trusted = options.trusted?.has(document) === true;
      const built = buildDocument(doc, source, document, {
        placeholders,
        deferred: trusted,
        // Only a document known to build whole: built lean it must load alike (same positions).
        ...(options.lean === true && trusted ? { lean: true } : {}),
        ...(options.keepYaml === false ? { keepYaml: false } : {}),
      });
      switch (built.kind) {
        case 'rule':
          result.rules.push(built);
          break;
        case 'correlation':
          result.correlations.push(built);
          break;
        case 'filter':
          result.filters.push(built);
          break;
      }
    } catch (e) {
      // Anything but a RuleError is our bug; it is still reported against this rule alone.
      const [code, message] =
        e instanceof RuleError ? [e.code, e.message] : (['internal', String(e)] as const);
      result.diagnostics.push({ source, document, ...identity(doc), code, message });
    }
  });
  return result;
}
