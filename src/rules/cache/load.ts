/**
 * Sigma rules loaded through the rule cache, as the CLI (`--rule`, `--pack`) and the engine's
 * jobs load them: the parse from the cache (entry.ts), the documents it vouches for built
 * deferred, then, once the caller has chosen which rules run, the rule set with what earlier
 * runs learnt, and what compiled recorded for the next run.
 */
import { createHash } from 'node:crypto';
import { debugLine } from '../../errors/index.js';
import {
  compiledDocuments,
  compileRuleSet,
  type LoadResult,
  loadParsedRules,
  type PlaceholderValues,
  type PortableSigma,
  portableSigma,
  type RuleSet,
} from '../../sigma/index.js';
import { parseCached } from './cached-parse.js';
import type { TextPart } from './parts.js';

export interface CachedRulesInput {
  /** Rule files (`kind: 'files'`, which take no placeholders) first, then library texts. */
  readonly parts: readonly TextPart[];
  readonly placeholders: PlaceholderValues;
  /** The cache's directory, or false for none. */
  readonly cache: string | false;
  readonly maxBytes?: number;
  /** Keep each rule's YAML document as its `raw` (default true; see sigma's BuildOptions.keepYaml). */
  readonly keepYaml?: boolean;
}

export interface CompiledRules {
  readonly ruleSet: RuleSet;
  /** The same rules for decode workers, which then match where they decode (made on first read). */
  readonly portable: PortableSigma;
  /** After a run: keeps what the rule set learnt (literal anchors and scanners) for the next run. */
  finish(): void;
}

export interface BuiltRules {
  /** Every document of every text, in order. */
  readonly all: LoadResult;
  /** Whether the cache vouched for the documents (they were built deferred), as on a warm run. */
  readonly vouched: boolean;
  /** The rule set of `loaded`: `all`, or some of its rules (in order) and its filters. */
  compile(loaded: LoadResult): CompiledRules;
}

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

function merge(parts: readonly LoadResult[]): LoadResult {
  const all: LoadResult = { rules: [], correlations: [], filters: [], diagnostics: [] };
  // Pushed one by one: flatMap over 3,141 small arrays took 17 ms of a warm load.
  for (const p of parts) {
    for (const r of p.rules) all.rules.push(r);
    for (const c of p.correlations) all.correlations.push(c);
    for (const f of p.filters) all.filters.push(f);
    for (const d of p.diagnostics) all.diagnostics.push(d);
  }
  return all;
}

export function buildCachedRules(input: CachedRulesInput): BuiltRules {
  const { placeholders } = input;
  const t0 = performance.now();
  const cache = parseCached(input.parts, input.cache, input.maxBytes);
  const t1 = performance.now();
  const fileCount = input.parts.reduce((n, p) => n + (p.kind === 'files' ? p.sources.length : 0), 0);
  // What a cached run may defer depends on the placeholders each text was built with.
  const salt = sha256([fileCount, placeholders]);
  const trusted = cache.trusted(salt);
  // Rule files take no placeholders (as before); library texts take the library's.
  const all = merge(
    cache.takeParsed().map((p, i) =>
      loadParsedRules(p, cache.sources[i]!, {
        ...(i < fileCount ? {} : { placeholders }),
        ...(trusted === undefined ? {} : { trusted: trusted[i]! }),
        ...(input.keepYaml === false ? { keepYaml: false } : {}),
      }),
    ),
  );
  const t2 = performance.now();
  return {
    all,
    vouched: trusted !== undefined,
    compile(loaded) {
      const t3 = performance.now();
      // A variant's anchors depend on its rule text, placeholders and the filters merged into it.
      // (Scanners depend only on their literals, so any salt's would do.)
      const anchorSalt = sha256([salt, loaded.filters.map((f) => [f.source, f.document])]);
      const learnt = cache.learnt(anchorSalt);
      let ruleSet: RuleSet | undefined;
      const ruleSetNow = () =>
        (ruleSet ??= compileRuleSet({
          rules: loaded.rules,
          filters: loaded.filters,
          options: { knownAnchors: learnt.anchors, knownScanners: learnt.scanners },
        }));
      // Vouched for, the documents that compile are those the cache named (these very texts and
      // placeholders), so the rule set is made when first read: a parse job's thread, whose
      // workers match, never reads it (SigmaHQ's: 4.7 MB of its heap).
      const clean =
        trusted !== undefined
          ? trusted.map((docs) => [...docs].sort((a, b) => a - b))
          : compiledDocuments(cache.sources, all, loaded.rules, ruleSetNow(), trusted);
      cache.remember(salt, clean);
      const ms = (a: number, b: number) => `${Math.round(b - a)} ms`;
      debugLine(
        `sigma rules: parse ${ms(t0, t1)}, build ${ms(t1, t2)}, rule set ${ms(t3, performance.now())}`,
      );
      let portable: PortableSigma | undefined;
      return {
        get ruleSet() {
          return ruleSetNow();
        },
        get portable() {
          // Without anchors: a worker computes those of the plans its events reach. Given every
          // variant's, the 1 GB private job with the SigmaHQ set peaked 13-20 MiB higher (the
          // job thread held the cache's, each worker all of them) for no CPU it could measure.
          portable ??= portableSigma(
            { sources: cache.sources, parsed: cache.bytes(), placeholdersFrom: fileCount },
            placeholders,
            all,
            loaded,
            clean,
          );
          return portable;
        },
        finish: () => {
          // A rule set never made learnt nothing.
          if (ruleSet !== undefined)
            cache.rememberLearnt(anchorSalt, {
              anchors: ruleSet.takenAnchors(),
              scanners: ruleSet.takenScanners(),
            });
        },
      };
    },
  };
}
