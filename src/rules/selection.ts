/** Rules for community runs: every variant of the selected packs and names, loaded or as YARA sources. */

import { invalidOption, TaeError } from '../errors/index.js';
import { type LoadResult, loadRules, type PlaceholderValues } from '../sigma/index.js';
import { isRuleName, NOT_FOUND_MESSAGE } from './names.js';
import type { RuleStore, RuleTextRow } from './store.js';
import type {
  PackDiagnostic,
  RuleKind,
  RuleOrigin,
  RuleSelection,
  YaraChecker,
  YaraRuleSource,
} from './types.js';
import { checkYaraRows } from './yara-check.js';

export interface SigmaRuleSet extends LoadResult {
  /** Each loaded document's `source` (`<pack>:<path>`) → the file it came from. */
  readonly origins: ReadonlyMap<string, RuleOrigin>;
}

export interface YaraSourceSet {
  /** Files to compile together, in precedence order; files the checker rejected are left out. */
  readonly sources: readonly YaraRuleSource[];
  /** One `yara.compile` diagnostic per file left out, with the compiler's message. */
  readonly diagnostics: readonly PackDiagnostic[];
  /** False when no checker is wired: nothing was compile-checked or left out. */
  readonly checked: boolean;
}

export const sourceLabel = (row: { pack: string; path: string }) => `${row.pack}:${row.path}`;

function selectedRows(
  store: RuleStore,
  kind: RuleKind,
  selection: RuleSelection,
  withText = true,
): RuleTextRow[] {
  const { packs, names } = selection;
  if (packs !== undefined) {
    if (!Array.isArray(packs)) throw invalidOption('packs', 'an array of pack names', packs);
    const known = new Set(store.packs().map((p) => p.name));
    const unknown = packs.find((p) => !known.has(p));
    if (unknown !== undefined) throw invalidOption('packs', 'names of indexed packs', unknown);
  }
  if (names !== undefined && (!Array.isArray(names) || !names.every(isRuleName)))
    throw invalidOption('names', 'an array of rule names', names);
  const rows = store.rulesWithText(kind, selection, withText);
  if (names === undefined) return rows;
  const found = new Set(rows.map((r) => r.matched));
  const missing = names.filter((n) => !found.has(n));
  if (missing.length > 0)
    throw new TaeError('NOT_FOUND', NOT_FOUND_MESSAGE, {
      context: { kind, missing: missing.slice(0, 20).join(', ') },
    });
  // A file answers every name it carries once: keep it once.
  const once = new Map<string, RuleTextRow>();
  for (const r of rows) if (!once.has(sourceLabel(r))) once.set(sourceLabel(r), r);
  return [...once.values()];
}

/** One Sigma file's text under its source label (`<pack>:<path>`), loadable anywhere (a worker too). */
export interface SigmaSourceText {
  readonly source: string;
  readonly text: string;
  readonly origin: RuleOrigin;
}

export function sigmaSources(store: RuleStore, selection: RuleSelection): SigmaSourceText[] {
  return selectedRows(store, 'sigma', selection).map((row) => ({
    source: sourceLabel(row),
    text: row.text,
    origin: { kind: 'sigma', name: row.name, pack: row.pack, path: row.path },
  }));
}

/** Each selected Sigma file's source label and content hash (SHA-256 of its bytes); texts only `withText`. */
export function sigmaContents(
  store: RuleStore,
  selection: RuleSelection,
  withText: boolean,
): { readonly source: string; readonly hash: string; readonly text: string }[] {
  return selectedRows(store, 'sigma', selection, withText).map((row) => ({
    source: sourceLabel(row),
    hash: row.hash,
    text: row.text,
  }));
}

/** The texts loaded, in order, into one rule set. */
export function loadSigmaSources(
  sources: readonly SigmaSourceText[],
  placeholders: PlaceholderValues,
): SigmaRuleSet {
  const out: SigmaRuleSet = { rules: [], correlations: [], filters: [], diagnostics: [], origins: new Map() };
  const origins = out.origins as Map<string, RuleOrigin>;
  for (const { source, text, origin } of sources) {
    const loaded = loadRules(text, source, { placeholders });
    out.rules.push(...loaded.rules);
    out.correlations.push(...loaded.correlations);
    out.filters.push(...loaded.filters);
    out.diagnostics.push(...loaded.diagnostics);
    origins.set(source, origin);
  }
  return out;
}

export const sigmaRuleSet = (
  store: RuleStore,
  selection: RuleSelection,
  placeholders: PlaceholderValues,
): SigmaRuleSet => loadSigmaSources(sigmaSources(store, selection), placeholders);

export function yaraSourceSet(
  store: RuleStore,
  selection: RuleSelection,
  checker: YaraChecker | undefined,
): YaraSourceSet {
  let rows = selectedRows(store, 'yara', selection);
  if (checker !== undefined) rows = checkYaraRows(store, checker, rows);
  const sources: YaraRuleSource[] = [];
  const diagnostics: PackDiagnostic[] = [];
  for (const row of rows) {
    if (checker !== undefined && row.yara_error !== null)
      diagnostics.push({ pack: row.pack, path: row.path, code: 'yara.compile', message: row.yara_error });
    else sources.push({ kind: 'yara', name: row.name, pack: row.pack, path: row.path, text: row.text });
  }
  return { sources, diagnostics, checked: checker !== undefined };
}
