/**
 * Compile-checking YARA files through the injected checker, once per content and checker
 * id. A file the compiler rejects stays retrievable; community runs skip it and report the
 * compiler's message (see RuleLibrary.diagnostics).
 */
import type { RuleStore, RuleTextRow } from './store.js';
import type { YaraChecker } from './types.js';

/** Judges the rows the checker has not seen; returns the rows with their verdicts filled in. */
export function checkYaraRows(
  store: RuleStore,
  checker: YaraChecker,
  rows: readonly RuleTextRow[],
): RuleTextRow[] {
  const verdicts = new Map<string, string | null>();
  const judge = store.db.transaction((pending: readonly RuleTextRow[]) => {
    for (const row of pending) {
      if (verdicts.has(row.hash)) continue;
      let error: string | null;
      try {
        const check = checker.check(row.text);
        error = check.ok ? null : check.message;
      } catch (e) {
        // A checker that throws is reported like a compile failure: never a silent skip.
        error = `the YARA checker failed: ${(e as Error).message}`;
      }
      verdicts.set(row.hash, error);
      store.setYaraVerdict(row.hash, checker.id, error);
    }
  });
  judge(rows.filter((r) => r.yara_checker !== checker.id));
  return rows.map((r) =>
    verdicts.has(r.hash) ? { ...r, yara_checker: checker.id, yara_error: verdicts.get(r.hash) ?? null } : r,
  );
}
