/**
 * The Sigma rules a run uses: rule files or directories (`--rule`), packs of the rule library
 * (`--pack`), or by default every pack (the builtin one plus those `tae rules add` indexed).
 * Rules that do not load are warned about, one line each; none loading at all is an input error.
 */
import { readFileSync, type Stats, statSync } from 'node:fs';
import { TaeError } from '../errors/index.js';
import { openRuleLibrary, walkFiles } from '../rules/index.js';
import { compileRuleSet, type LoadResult, loadRules, type RuleSet } from '../sigma/index.js';
import { plural, ruleLibraryDir, warn } from './common.js';

export interface SigmaChoice {
  /** Rule files or directories of .yml/.yaml files. */
  readonly ruleFiles?: readonly string[];
  /** Library packs by name. */
  readonly packs?: readonly string[];
  readonly data?: string;
}

export interface SigmaRules {
  readonly loaded: LoadResult;
  readonly ruleSet: RuleSet;
  /** How many rules and correlations loaded, for the summary. */
  readonly label: string;
}

const MAX_RULE_FILES = 100_000;
const MAX_RULE_BYTES = 8 << 20;

/** Every .yml/.yaml under the given paths, sorted per directory; symlinks and dot-files skipped. */
function ruleFilesUnder(paths: readonly string[]): string[] {
  const out: string[] = [];
  const add = (path: string) => {
    const st = statRule(path);
    if (out.length >= MAX_RULE_FILES)
      throw new TaeError('TOO_LARGE', `more than ${MAX_RULE_FILES} rule files`);
    if (st.size > MAX_RULE_BYTES) warn(`${path}: skipped, larger than ${MAX_RULE_BYTES >> 20} MiB`);
    else out.push(path);
  };
  for (const p of paths) {
    if (!statRule(p).isDirectory())
      add(p); // named on the command line: read whatever its name
    else
      for (const f of walkFiles(p, { maxDepth: 32, skipDotNames: true }))
        if (/\.ya?ml$/i.test(f.name)) add(f.path);
  }
  return out;
}

function statRule(path: string): Stats {
  try {
    return statSync(path);
  } catch (e) {
    throw new TaeError(
      'INPUT_UNREADABLE',
      `cannot read rule ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
      { cause: e },
    );
  }
}

function merge(parts: readonly LoadResult[]): LoadResult {
  return {
    rules: parts.flatMap((p) => p.rules),
    correlations: parts.flatMap((p) => p.correlations),
    filters: parts.flatMap((p) => p.filters),
    diagnostics: parts.flatMap((p) => p.diagnostics),
  };
}

async function fromLibrary(choice: SigmaChoice): Promise<LoadResult> {
  const library = await openRuleLibrary({ dataDir: ruleLibraryDir(choice.data) });
  try {
    const packs = choice.packs !== undefined && choice.packs.length > 0 ? { packs: choice.packs } : {};
    return library.sigmaRules(packs);
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
  const parts: LoadResult[] =
    files.length > 0 ? ruleFilesUnder(files).map((f) => loadRules(readFileSync(f, 'utf8'), f)) : [];
  if (files.length === 0 || (choice.packs?.length ?? 0) > 0) parts.push(await fromLibrary(choice));
  const loaded = merge(parts);
  // Community packs carry rules for other products (linux, aws…): not worth a warning each.
  if (files.length > 0)
    for (const d of loaded.diagnostics) warn(`${d.source}: ${d.title ? `${d.title}: ` : ''}${d.message}`);
  if (loaded.rules.length === 0 && loaded.correlations.length === 0) {
    const first = loaded.diagnostics[0];
    throw new TaeError(
      'INPUT_UNREADABLE',
      `no Sigma rule loaded${first ? `: ${first.source}: ${first.message}` : ''}`,
    );
  }
  const ruleSet = compileRuleSet({ rules: loaded.rules, filters: loaded.filters });
  const label = `${plural(loaded.rules.length, 'rule')}${loaded.correlations.length ? `, ${plural(loaded.correlations.length, 'correlation')}` : ''}`;
  return { loaded, ruleSet, label };
}
