/**
 * Bringing one pack's index in line with a scan of its files: unchanged fingerprint, no
 * writes; otherwise one transaction that re-reads only files whose hash changed, drops
 * files that went away and replaces their diagnostics.
 */
import type { PlaceholderValues } from '../sigma/index.js';
import { extractSigma, extractYara } from './extract.js';
import { decodeRuleText } from './lines.js';
import { isRuleName } from './names.js';
import { fingerprintOf, type PackScan, type ScanProblem, sortScan } from './scan.js';
import type { PackRow, RuleStore } from './store.js';
import type { PackFormat } from './types.js';

export interface PackTarget {
  readonly name: string;
  readonly format: PackFormat;
  readonly source: string;
  readonly position: number;
  readonly existing: PackRow | undefined;
}

export interface IndexOutcome {
  readonly packId: number;
  readonly unchanged: boolean;
  readonly added: number;
  readonly updated: number;
  readonly removed: number;
}

export function indexPack(
  store: RuleStore,
  target: PackTarget,
  rawScan: PackScan,
  placeholders: PlaceholderValues,
): IndexOutcome {
  const scan = sortScan(rawScan);
  const { fingerprint, hashes } = fingerprintOf(scan);
  const { existing } = target;
  const now = new Date().toISOString();
  if (existing !== undefined && existing.fingerprint === fingerprint)
    return { packId: existing.id, unchanged: true, added: 0, updated: 0, removed: 0 };

  return store.db.transaction((): IndexOutcome => {
    const packId = existing?.id ?? store.createPack({ ...target, fingerprint, indexed_at: now });
    const before = new Map(store.filesOf(packId).map((f) => [f.path, f]));
    const kept = new Set<string>();
    const problems: ScanProblem[] = [...scan.problems];
    let added = 0;
    let updated = 0;
    for (const file of scan.files) {
      const hash = hashes.get(file.path)!;
      const old = before.get(file.path);
      if (old?.hash === hash) {
        kept.add(file.path);
        continue;
      }
      const text = isRuleName(file.name) ? decodeRuleText(file.bytes) : undefined;
      const outcome =
        text === undefined
          ? undefined
          : file.kind === 'sigma'
            ? extractSigma(file, hash, text, placeholders)
            : extractYara(file, hash, text);
      if (outcome?.kind !== 'indexed') {
        problems.push(
          outcome?.problem ??
            (isRuleName(file.name)
              ? { path: file.path, code: 'file.not_utf8', message: 'not valid UTF-8 text' }
              : {
                  path: file.path,
                  code: 'name.invalid',
                  message: `${JSON.stringify(file.name)} is not a rule name`,
                }),
        );
        continue;
      }
      store.putContent(hash, text!);
      if (old === undefined) {
        store.insertRule(packId, outcome.fields);
        added++;
      } else {
        store.updateRule(old.id, outcome.fields);
        kept.add(file.path);
        updated++;
      }
      problems.push(...outcome.problems);
    }
    let removed = 0;
    for (const [path, old] of before)
      if (!kept.has(path)) {
        store.deleteRule(old.id);
        removed++;
      }
    // Diagnostics of files left as they were stay; every other path's are replaced.
    const unchangedPaths = [...kept].filter((p) => before.get(p)?.hash === hashes.get(p));
    store.clearDiagnosticsExcept(packId, unchangedPaths);
    for (const p of problems) store.addDiagnostic(packId, p.path, p.code, p.message);
    store.markIndexed(packId, fingerprint, now);
    store.pruneContents();
    return { packId, unchanged: false, added, updated, removed };
  })();
}
