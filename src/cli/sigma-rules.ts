/**
 * The Sigma rules a run uses: rule files or directories (`--rule`), packs of the rule library
 * (`--pack`), or by default every pack (the builtin one plus those `tae rules add` indexed).
 * Rules of named files that do not load are one line each and make the run's exit 3; none
 * loading at all stops it (an input error).
 * The triage choice (rule-filter.ts) is applied here, once, for every command; the YAML parse
 * comes from the on-disk cache (src/rules/cache/) unless `cache` is false.
 */
import type { Stats } from 'node:fs';
import { TaeError } from '../errors/index.js';
import {
  buildCachedRules,
  filesPart,
  MAX_CACHE_BYTES,
  openRuleLibrary,
  type RuleLibrary,
  statRuleInput,
  type TextPart,
  walkFiles,
} from '../rules/index.js';
import type { LoadResult, PlaceholderValues, PortableSigma, RuleSet } from '../sigma/index.js';
import { ruleLibraryDir, warn } from './common.js';
import { ruleCacheDir } from './rule-cache.js';
import { type RuleCounts, ruleCounts, ruleCountsLabel } from './rule-counts.js';
import { chooseRules, type RuleChoice } from './rule-filter.js';
import { errLine } from './terminal.js';

export interface SigmaChoice {
  /** Rule files or directories of .yml/.yaml files. */
  readonly ruleFiles?: readonly string[];
  /** Library packs by name. */
  readonly packs?: readonly string[];
  readonly data?: string;
  /** Which of the loaded rules run (default: every status but deprecated and unsupported). */
  readonly choice?: RuleChoice;
  /** The parse cache's directory, or false for none (default: ruleCacheDir()). */
  readonly cache?: string | false;
}

export interface SigmaRules {
  readonly loaded: LoadResult;
  readonly ruleSet: RuleSet;
  /** The same rules for decode workers, which then match where they decode (made on first read). */
  readonly portable: PortableSigma;
  /** How many rules and correlations run, for the summary (and how many the choice left out). */
  readonly label: string;
  readonly counts: RuleCounts;
  /**
   * Documents of the `--rule` files that did not load (each printed already): rules the user
   * named that cannot run make the run's exit 3, as an unreadable input does.
   */
  readonly notLoaded: number;
  /** After a run: keeps what the rule set learnt (literal anchors and scanners) for the next run. */
  finish(): void;
}

const MAX_RULE_FILES = 100_000;
const MAX_RULE_BYTES = 8 << 20;

/**
 * Every .yml/.yaml under the given paths with its stats, sorted per directory; symlinks and
 * dot-files skipped. The stats key a warm run's cache (src/rules/cache/stat-key.ts).
 */
function ruleFilesUnder(paths: readonly string[]): { path: string; stat: Stats }[] {
  const out: { path: string; stat: Stats }[] = [];
  const add = (path: string, stat = statRuleInput(path, 'rule', true)) => {
    if (out.length >= MAX_RULE_FILES)
      throw new TaeError('TOO_LARGE', `more than ${MAX_RULE_FILES} rule files`);
    if (stat.size > MAX_RULE_BYTES) warn(`${path}: skipped, larger than ${MAX_RULE_BYTES >> 20} MiB`);
    else out.push({ path, stat });
  };
  for (const p of paths) {
    const st = statRuleInput(p, 'rule', true);
    if (!st.isDirectory())
      add(p, st); // named on the command line: read whatever its name
    else
      for (const f of walkFiles(p, { maxDepth: 32, skipDotNames: true }))
        if (/\.ya?ml$/i.test(f.name)) add(f.path);
  }
  return out;
}

/** The library's texts of the chosen packs (all by default), with its placeholders. */
function fromLibrary(
  library: RuleLibrary,
  choice: SigmaChoice,
): { part: TextPart; placeholders: PlaceholderValues } {
  try {
    return library.sigmaPart(
      choice.packs !== undefined && choice.packs.length > 0 ? { packs: choice.packs } : {},
    );
  } catch (e) {
    if (e instanceof TaeError && e.context.option === 'packs')
      throw new TaeError(
        'INVALID_ARGUMENT',
        `no rule pack named ${String(e.context.got)} (see tae rules list)`,
        { cause: e },
      );
    throw e;
  }
}

export async function loadSigmaRules(choice: SigmaChoice): Promise<SigmaRules> {
  const cache = choice.cache ?? ruleCacheDir();
  const files = choice.ruleFiles ?? [];
  const statedAt = Date.now();
  const parts = [filesPart(ruleFilesUnder(files), statedAt, cache, MAX_CACHE_BYTES)];
  let placeholders: PlaceholderValues = {};
  let library: RuleLibrary | undefined;
  if (files.length === 0 || (choice.packs?.length ?? 0) > 0)
    library = await openRuleLibrary({ dataDir: ruleLibraryDir(choice.data) });
  let built: ReturnType<typeof buildCachedRules>;
  try {
    if (library !== undefined) {
      const fromPacks = fromLibrary(library, choice);
      parts.push(fromPacks.part);
      placeholders = fromPacks.placeholders;
    }
    built = buildCachedRules({ parts, placeholders, cache });
  } finally {
    library?.close(); // the texts are read, if the cache did not have them
  }
  const { all } = built;
  const loaded = choice.choice === undefined ? all : chooseRules(all, choice.choice);
  const left = all.rules.length + all.correlations.length - loaded.rules.length - loaded.correlations.length;
  // Community packs carry rules for other products (linux, aws…): not worth a line each. A rule
  // file the user named is: it was meant to run.
  const notLoaded = files.length > 0 ? all.diagnostics.length : 0;
  if (files.length > 0)
    for (const d of all.diagnostics)
      errLine(
        `tae: ${d.source}: ${d.title ? `${d.title}: ` : ''}${d.message} (rule not loaded)`.replace(
          /\s*\n\s*/g,
          ' ',
        ),
      );
  if (loaded.rules.length === 0 && loaded.correlations.length === 0) {
    const first = loaded.diagnostics[0];
    if (left > 0)
      throw new TaeError(
        'INVALID_ARGUMENT',
        `no Sigma rule left to run: the rule filters left out all ${left}`,
      );
    throw new TaeError(
      'INPUT_UNREADABLE',
      `no Sigma rule loaded${first ? `: ${first.source}: ${first.message}` : ''}`,
    );
  }
  const compiled = built.compile(loaded);
  const counts = ruleCounts(loaded, compiled.ruleSet, left);
  return {
    loaded,
    ruleSet: compiled.ruleSet,
    label: ruleCountsLabel(counts),
    counts,
    notLoaded,
    finish: compiled.finish,
    get portable() {
      return compiled.portable;
    },
  };
}
