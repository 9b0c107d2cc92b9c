/** The shared corpus's SigmaHQ rules: every active rule, loaded with the test placeholders. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadRules, type PlaceholderValues, type SigmaRule } from '../../src/sigma/index.js';
import { CORPUS, hasCorpus } from './corpus.js';

export const SIGMA_DIR = join(CORPUS, 'sigma');
export const SKIP_NO_SIGMA = hasCorpus && existsSync(SIGMA_DIR) ? false : `corpus not found at ${CORPUS}`;

export const testPlaceholders = (): PlaceholderValues =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'sigma-fixtures', 'placeholders.json'), 'utf8'),
  ) as PlaceholderValues;

/** Rules under `rules*` outside deprecated/unsupported folders, minus deprecated/unsupported status. */
export function activeSigmaRules(placeholders = testPlaceholders()): SigmaRule[] {
  const out: SigmaRule[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) {
        if (!/deprecated|unsupported/i.test(f)) walk(p);
      } else if (/\.ya?ml$/.test(f))
        out.push(
          ...loadRules(readFileSync(p, 'utf8'), p.slice(SIGMA_DIR.length + 1), { placeholders }).rules,
        );
    }
  };
  for (const d of readdirSync(SIGMA_DIR).sort()) if (d.startsWith('rules')) walk(join(SIGMA_DIR, d));
  return out.filter((r) => r.status !== 'deprecated' && r.status !== 'unsupported');
}
