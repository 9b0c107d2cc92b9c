/**
 * Which documents are known to compile without error, for `trusted` loads (load.ts) elsewhere:
 * a later run of the CLI from its rule cache, or a decode worker loading the same texts.
 */
import type { LoadResult } from './load.js';
import type { SigmaRule } from './model.js';
import type { RuleSet } from './ruleset/index.js';

/**
 * Per source (in the order given), the documents trusted before or built in `built` and, for
 * rules, mapped by `ruleSet` without a compile error; logsource verdicts compile nothing, so
 * they do not count against a rule. Undefined when two texts share a source name (a document
 * could not be told apart).
 */
export function compiledDocuments(
  sources: readonly string[],
  built: LoadResult,
  mapped: readonly SigmaRule[],
  ruleSet: RuleSet,
  trusted?: readonly ReadonlySet<number>[],
): number[][] | undefined {
  const index = new Map(sources.map((s, i) => [s, i]));
  if (index.size !== sources.length) return undefined;
  const docs = sources.map((_, i) => new Set(trusted?.[i] ?? []));
  const where = (d: { readonly source: string; readonly document?: number }) =>
    `${d.document ?? -1}\0${d.source}`;
  const failed = new Set(ruleSet.diagnostics.filter((d) => !d.code.startsWith('logsource.')).map(where));
  const wasMapped = new Set(mapped);
  for (const r of built.rules)
    if (wasMapped.has(r) && !failed.has(where(r))) docs[index.get(r.source) ?? -1]?.add(r.document);
  for (const f of built.filters) docs[index.get(f.source) ?? -1]?.add(f.document);
  return docs.map((d) => [...d].sort((a, b) => a - b));
}
