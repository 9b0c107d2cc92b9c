/**
 * The rule library: packs of Sigma and YARA files indexed into SQLite, rule text by exact
 * name, and the rule sets community runs take. Without a data directory the index lives in
 * memory; the builtin pack is indexed on first use either way.
 */
import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { SqliteDatabase } from '../../native/sqlite.js';
import { invalidOption, TaeError } from '../errors/index.js';
import { loadRules, mapRule, type PlaceholderValues } from '../sigma/index.js';
import { BUILTIN_PACK, builtinPackDir } from './builtin.js';
import { libraryPart, type TextPart } from './cache/parts.js';
import { indexPack } from './index-pack.js';
import { ruleLines } from './lines.js';
import { bodyFormatOf, NOT_FOUND_MESSAGE, requestedNames, retrievalNames } from './names.js';
import { type Settings, settingsOf } from './options.js';
import { statRuleInput } from './rule-file.js';
import type { PackScan } from './scan.js';
import { scanDirectory } from './scan-directory.js';
import { scanZip } from './scan-zip.js';
import { openIndex } from './schema.js';
import {
  type SigmaRuleSet,
  type SigmaSourceText,
  sigmaContents,
  sigmaRuleSet,
  sigmaSources,
  type YaraSourceSet,
  yaraSourceSet,
} from './selection.js';
import { RuleStore, summaryOf } from './store.js';
import {
  type AddPackOptions,
  type PackDiagnostic,
  type PackDiagnosticCode,
  type PackFormat,
  type PackReport,
  RULE_KINDS,
  type RuleKind,
  type RuleLibraryOptions,
  type RuleSelection,
  type RuleSummary,
  type RuleVariant,
} from './types.js';
import { checkYaraRows } from './yara-check.js';

/** The retrieval endpoints' success body: the requested names → their lines. */
export interface RuleLinesResult {
  readonly results: Readonly<Record<string, readonly string[]>>;
}

/** Diagnostics that mean the file was not indexed (the others leave it retrievable). */
const SKIP_CODES: ReadonlySet<PackDiagnosticCode> = new Set([
  'file.too_large',
  'file.not_utf8',
  'file.symlink',
  'file.unreadable',
  'file.duplicate',
  'file.encrypted',
  'name.invalid',
  'sigma.not_a_rule',
]);
const PACK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function kindOf(kind: unknown): RuleKind {
  if (!RULE_KINDS.includes(kind as RuleKind))
    throw invalidOption('kind', `one of ${RULE_KINDS.join(', ')}`, kind);
  return kind as RuleKind;
}

export async function openRuleLibrary(options: RuleLibraryOptions = {}): Promise<RuleLibrary> {
  const settings = settingsOf(options);
  const library = new RuleLibrary(openIndex(settings.dataDir), settings);
  try {
    for (const pack of settings.packs) await library.addPack(pack);
  } catch (e) {
    library.close();
    throw e;
  }
  return library;
}

export class RuleLibrary {
  private readonly store: RuleStore;
  private builtinIndexed = false;
  private readonly libraryProblems: PackDiagnostic[] = [];

  /** Use openRuleLibrary. */
  constructor(
    db: SqliteDatabase,
    private readonly settings: Settings,
  ) {
    this.store = new RuleStore(db);
    this.store.backfillNames((r) => retrievalNames(r.kind, r.name, r.text));
  }

  /** Absolute data directory of the persistent index, or undefined when it is in memory. */
  get dataDir(): string | undefined {
    return this.settings.dataDir;
  }

  packs() {
    this.ensureBuiltin();
    return this.store.packs();
  }

  /** Everything that went wrong in any pack, YARA compile failures included once a checker judged them. */
  get diagnostics(): PackDiagnostic[] {
    this.ensureBuiltin();
    return [...this.libraryProblems, ...this.store.diagnostics(this.settings.yaraChecker?.id)];
  }

  /**
   * Indexes a directory or zip pack, or re-indexes it when it was added before from the same
   * path: unchanged files are not re-read into the index, and an unchanged pack is a no-op.
   */
  async addPack(path: string, options: AddPackOptions = {}): Promise<PackReport> {
    if (typeof path !== 'string' || path === '') throw invalidOption('path', 'a directory or zip path', path);
    if (options.name !== undefined && (!PACK_NAME.test(options.name) || options.name === BUILTIN_PACK))
      throw invalidOption('name', `letters, digits, '.', '_' or '-' (not '${BUILTIN_PACK}')`, options.name);
    let source: string;
    try {
      source = realpathSync(resolve(path));
    } catch (e) {
      throw new TaeError('INPUT_UNREADABLE', `rule pack not found: ${path}`, { context: { path }, cause: e });
    }
    // Anything else would be opened as a zip: a FIFO's open never returns.
    const isDirectory = statRuleInput(path, 'rule pack', true).isDirectory();
    const builtinDir = builtinPackDir();
    if (builtinDir !== undefined && source === realpathSync(builtinDir))
      throw invalidOption('path', 'a user pack, not the builtin pack', path);
    const format: PackFormat = isDirectory ? 'directory' : 'zip';
    const scan = isDirectory
      ? scanDirectory(source, this.settings.limits)
      : await scanZip(source, this.settings.limits);
    return this.apply(source, format, scan, options.name);
  }

  /** Drops a user pack and its rules; false when no pack has that name. */
  removePack(name: string): boolean {
    if (name === BUILTIN_PACK)
      throw invalidOption('name', 'a user pack (open with builtin: false to drop the builtin pack)', name);
    const row = this.store.packBy('name', name);
    if (row === undefined) return false;
    this.store.deletePack(row.id);
    return true;
  }

  /**
   * POST /analysis/{sigma,yara}/rules: the lines of each requested name, the name any result
   * shows (names.ts): a file stem, or a YARA rule identifier (the lines of its file). A name
   * held by several files answers with the first in precedence order (a file of that stem
   * before files declaring a rule of that name, then pack position, then path); `variants`
   * lists them all. Throws the endpoint's 400 or 404 with its exact message.
   */
  get(kind: RuleKind, names: readonly string[]): RuleLinesResult {
    kindOf(kind);
    const wanted = requestedNames(kind, names);
    this.ensureBuiltin();
    const first = new Map<string, string>();
    for (const row of this.store.rulesWithText(kind, { names: wanted }))
      if (!first.has(row.matched!)) first.set(row.matched!, row.text);
    const missing = wanted.filter((n) => !first.has(n));
    if (missing.length > 0)
      throw new TaeError('NOT_FOUND', NOT_FOUND_MESSAGE, {
        status: 404,
        bodyFormat: bodyFormatOf(kind),
        context: { kind, missing: missing.slice(0, 20).join(', ') },
      });
    return { results: Object.fromEntries(wanted.map((n) => [n, ruleLines(first.get(n)!)])) };
  }

  /**
   * Every file carrying the name, in precedence order.
   * SEAM (Sigma): derived versions of a rule per log source (the sigma module's mapRule and
   * renderYaml) are to be appended here, after the indexed files they derive from.
   */
  /**
   * Every file with this name, each followed (for Sigma) by its derived versions: the rule
   * rewritten for each Windows log source it maps to, e.g. a Sysmon and a Security 4688 one.
   * @internal
   */
  variants(kind: RuleKind, name: string): RuleVariant[] {
    this.ensureBuiltin();
    const rows = this.store.rulesWithText(kindOf(kind), { names: requestedNames(kind, [name]) });
    return rows.flatMap((r) => {
      const file: RuleVariant = { ...summaryOf(r), lines: ruleLines(r.text) };
      if (kind !== 'sigma') return [file];
      const derived = loadRules(r.text, r.path, { placeholders: this.settings.placeholders }).rules.flatMap(
        (rule) => {
          const mapping = mapRule(rule, { placeholders: this.settings.placeholders });
          return mapping.ok ? mapping.variants : [];
        },
      );
      return [file, ...derived.map((v) => ({ ...summaryOf(r), lines: v.renderYaml(), logsource: v.name }))];
    });
  }

  list(filter: { readonly kind?: RuleKind; readonly pack?: string } = {}): RuleSummary[] {
    if (filter.kind !== undefined) kindOf(filter.kind);
    this.ensureBuiltin();
    return this.store.summaries(filter);
  }

  /**
   * Loaded Sigma documents of every selected file (all variants, not only the first per name).
   * @internal
   */
  sigmaRules(selection: RuleSelection = {}): SigmaRuleSet {
    this.ensureBuiltin();
    return sigmaRuleSet(this.store, selection, this.settings.placeholders);
  }

  /**
   * The texts `sigmaRules` loads and the placeholders it loads them with, to load elsewhere (a
   * worker).
   * @internal
   */
  sigmaSources(selection: RuleSelection = {}): {
    readonly sources: SigmaSourceText[];
    readonly placeholders: PlaceholderValues;
  } {
    this.ensureBuiltin();
    return { sources: sigmaSources(this.store, selection), placeholders: this.settings.placeholders };
  }

  /**
   * The selected Sigma texts as the rule cache takes them (cache/parts.ts): keyed by their
   * content hashes, their texts read only when the cache has no entry for them.
   * @internal
   */
  sigmaPart(selection: RuleSelection = {}): {
    readonly part: TextPart;
    readonly placeholders: PlaceholderValues;
  } {
    this.ensureBuiltin();
    const hashes = sigmaContents(this.store, selection, false);
    const part = libraryPart(hashes, () => sigmaContents(this.store, selection, true));
    return { part, placeholders: this.settings.placeholders };
  }

  /**
   * YARA sources of every selected file; with a checker wired, files that do not compile are
   * left out and reported.
   * @internal
   */
  yaraSources(selection: RuleSelection = {}): YaraSourceSet {
    this.ensureBuiltin();
    return yaraSourceSet(this.store, selection, this.settings.yaraChecker);
  }

  close(): void {
    if (this.store.db.open) this.store.db.close();
  }

  private apply(source: string, format: PackFormat, scan: PackScan, wanted: string | undefined): PackReport {
    const existing =
      format === 'builtin' ? this.store.packBy('name', BUILTIN_PACK) : this.store.packBy('source', source);
    if (existing !== undefined && existing.source !== source) this.store.setPackSource(existing.id, source);
    const name = existing?.name ?? (format === 'builtin' ? BUILTIN_PACK : this.freshName(wanted, source));
    const position = format === 'builtin' ? 0 : (existing?.position ?? this.store.nextPosition());
    const outcome = indexPack(
      this.store,
      { name, format, source, position, existing },
      scan,
      this.settings.placeholders,
    );
    const checker = this.settings.yaraChecker;
    if (checker !== undefined)
      checkYaraRows(this.store, checker, this.store.rulesWithText('yara', { packs: [name] }));
    const pack = this.store.packs().find((p) => p.name === name)!;
    const diagnostics = this.store.diagnostics(checker?.id).filter((d) => d.pack === name);
    const skipped = new Set(diagnostics.filter((d) => SKIP_CODES.has(d.code)).map((d) => d.path)).size;
    const { unchanged, added, updated, removed } = outcome;
    return { pack, unchanged, added, updated, removed, skipped, diagnostics };
  }

  private freshName(wanted: string | undefined, source: string): string {
    if (wanted !== undefined) {
      if (this.store.packBy('name', wanted) !== undefined)
        throw invalidOption('name', 'a name no other pack uses', wanted);
      return wanted;
    }
    const stem = basename(source)
      .replace(/\.zip$/i, '')
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^[._-]+/, '');
    const base = (stem === '' || stem === BUILTIN_PACK ? 'pack' : stem).slice(0, 56);
    let name = base;
    for (let i = 2; this.store.packBy('name', name) !== undefined; i++) name = `${base}-${i}`;
    return name;
  }

  private ensureBuiltin(): void {
    if (this.builtinIndexed) return;
    const existing = this.store.packBy('name', BUILTIN_PACK);
    if (!this.settings.builtin) {
      if (existing !== undefined) this.store.deletePack(existing.id);
      this.builtinIndexed = true;
      return;
    }
    const dir = builtinPackDir();
    if (dir === undefined) {
      this.builtinIndexed = true;
      this.libraryProblems.push({
        pack: BUILTIN_PACK,
        code: 'pack.missing',
        message: 'src/rules/builtin is not in the installed package',
      });
      return;
    }
    // Marked only once indexed: a write that failed (a full disk) is tried again on next use,
    // rather than the library going on without its builtin rules.
    this.apply(dir, 'builtin', scanDirectory(dir, this.settings.limits), undefined);
    this.builtinIndexed = true;
  }
}
