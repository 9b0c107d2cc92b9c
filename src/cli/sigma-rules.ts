/**
 * The Sigma rules a run uses: rule files or directories (`--rule`), packs of the rule library
 * (`--pack`), or by default every pack (the builtin one plus those `tae rules add` indexed).
 * Rules that do not load are warned about, one line each; none loading at all is an input error.
 * The triage choice (rule-filter.ts) is applied here, once, for every command; the YAML parse
 * comes from the on-disk cache (rule-cache.ts) unless `cache` is false.
 */
import { createHash } from 'node:crypto';
import { debugLine, TaeError } from '../errors/index.js';
import { openRuleLibrary, readRuleInput, statRuleInput, walkFiles } from '../rules/index.js';
import {
  compiledDocuments,
  compileRuleSet,
  type LoadResult,
  loadParsedRules,
  type PlaceholderValues,
  type PortableSigma,
  portableSigma,
  type RuleSet,
} from '../sigma/index.js';
import { plural, ruleLibraryDir, warn } from './common.js';
import { parseCached, type RuleText, ruleCacheDir } from './rule-cache.js';
import { chooseRules, type RuleChoice } from './rule-filter.js';

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
  /** After a run: keeps what the rule set learnt (literal anchors and scanners) for the next run. */
  finish(): void;
}

const MAX_RULE_FILES = 100_000;
const MAX_RULE_BYTES = 8 << 20;

/** Every .yml/.yaml under the given paths, sorted per directory; symlinks and dot-files skipped. */
function ruleFilesUnder(paths: readonly string[]): string[] {
  const out: string[] = [];
  const add = (path: string, st = statRuleInput(path, 'rule', true)) => {
    if (out.length >= MAX_RULE_FILES)
      throw new TaeError('TOO_LARGE', `more than ${MAX_RULE_FILES} rule files`);
    if (st.size > MAX_RULE_BYTES) warn(`${path}: skipped, larger than ${MAX_RULE_BYTES >> 20} MiB`);
    else out.push(path);
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

function merge(parts: readonly LoadResult[]): LoadResult {
  return {
    rules: parts.flatMap((p) => p.rules),
    correlations: parts.flatMap((p) => p.correlations),
    filters: parts.flatMap((p) => p.filters),
    diagnostics: parts.flatMap((p) => p.diagnostics),
  };
}

async function fromLibrary(
  choice: SigmaChoice,
): Promise<{ sources: RuleText[]; placeholders: PlaceholderValues }> {
  const library = await openRuleLibrary({ dataDir: ruleLibraryDir(choice.data) });
  try {
    const packs = choice.packs !== undefined && choice.packs.length > 0 ? { packs: choice.packs } : {};
    const { sources, placeholders } = library.sigmaSources(packs);
    return { sources: sources.map(({ source, text }) => ({ source, text })), placeholders };
  } catch (e) {
    if (e instanceof TaeError && e.context.option === 'packs')
      throw new TaeError(
        'INVALID_ARGUMENT',
        `no rule pack named ${String(e.context.got)} (see tae rules list)`,
        { cause: e },
      );
    throw e;
  } finally {
    library.close();
  }
}

export async function loadSigmaRules(choice: SigmaChoice): Promise<SigmaRules> {
  const files = choice.ruleFiles ?? [];
  const texts: RuleText[] = ruleFilesUnder(files).map((f) => ({ source: f, text: readRuleInput(f, 'rule') }));
  const fileCount = texts.length;
  let placeholders: PlaceholderValues = {};
  if (files.length === 0 || (choice.packs?.length ?? 0) > 0) {
    const library = await fromLibrary(choice);
    texts.push(...library.sources);
    placeholders = library.placeholders;
  }
  const t0 = performance.now();
  const cache = parseCached(texts, choice.cache ?? ruleCacheDir());
  const t1 = performance.now();
  // What a cached run may defer depends on the placeholders each text was built with.
  const salt = createHash('sha256')
    .update(JSON.stringify([fileCount, placeholders]))
    .digest('hex');
  const trusted = cache.trusted(salt);
  // Rule files take no placeholders (as before); library texts take the library's.
  const perText = cache.parsed.map((p, i) =>
    loadParsedRules(p, texts[i]!.source, {
      ...(i < fileCount ? {} : { placeholders }),
      ...(trusted === undefined ? {} : { trusted: trusted[i]! }),
    }),
  );
  const all = merge(perText);
  const loaded = choice.choice === undefined ? all : chooseRules(all, choice.choice);
  const left = all.rules.length + all.correlations.length - loaded.rules.length - loaded.correlations.length;
  // Community packs carry rules for other products (linux, aws…): not worth a warning each.
  if (files.length > 0)
    for (const d of all.diagnostics) warn(`${d.source}: ${d.title ? `${d.title}: ` : ''}${d.message}`);
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
  const t2 = performance.now();
  // A variant's anchors depend on its rule text, placeholders and the filters merged into it.
  // (Scanners depend only on their literals, so any salt's would do.)
  const anchorSalt = createHash('sha256')
    .update(JSON.stringify([salt, loaded.filters.map((f) => [f.source, f.document])]))
    .digest('hex');
  const learnt = cache.learnt(anchorSalt);
  const ruleSet = compileRuleSet({
    rules: loaded.rules,
    filters: loaded.filters,
    options: { knownAnchors: learnt.anchors, knownScanners: learnt.scanners },
  });
  const sources = texts.map((t) => t.source);
  const clean = compiledDocuments(sources, all, loaded.rules, ruleSet, trusted);
  cache.remember(salt, clean);
  const ms = (a: number, b: number) => `${Math.round(b - a)} ms`;
  debugLine(`sigma rules: parse ${ms(t0, t1)}, build ${ms(t1, t2)}, rule set ${ms(t2, performance.now())}`);
  const label = `${plural(loaded.rules.length, 'rule')}${loaded.correlations.length ? `, ${plural(loaded.correlations.length, 'correlation')}` : ''}${left > 0 ? ` (${left} left out by the rule filters)` : ''}`;
  // Made on first use: only a run that decodes on the pool sends the rules to workers.
  let portable: PortableSigma | undefined;
  return {
    loaded,
    ruleSet,
    label,
    finish: () =>
      cache.rememberLearnt(anchorSalt, {
        anchors: ruleSet.takenAnchors(),
        scanners: ruleSet.takenScanners(),
      }),
    get portable() {
      portable ??= portableSigma(
        texts.map((t, i) => ({ ...t, placeholders: i >= fileCount })),
        placeholders,
        all,
        loaded,
        clean,
      );
      return portable;
    },
  };
}
