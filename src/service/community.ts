/**
 * The community rules every interface shares: the rule library (builtin pack plus the packs a
 * user added), its Sigma rules compiled once into a rule set, and its YARA rules compiled once
 * by YARA-X (files that do not compile are skipped and reported, never silently). Everything
 * is opened on first use, so an engine that never runs rules never reads them. The Sigma parse
 * comes from the rule cache in the library's data directory (src/rules/cache/), as the CLI's does.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { TaeError } from '../errors/index.js';
import {
  buildCachedRules,
  openRuleLibrary,
  type RuleLibrary,
  type RuleLibraryOptions,
} from '../rules/index.js';
import {
  dataMatcher,
  type LoadResult,
  type PortableSigma,
  type RuleSet,
  type SigmaMatcher,
} from '../sigma/index.js';
import {
  type CompiledRuleSet,
  defaultYaraEngine,
  PACK_EXTERNAL_VARIABLES,
  type YaraEngine,
} from '../yara/index.js';
import type { CommunitySigmaTexts } from './data-pool.js';

/** The rule cache's directory inside a data directory (beside rule-library.sqlite). */
export const RULE_CACHE_DIR = 'rule-cache';

export interface CommunitySigma {
  readonly loaded: LoadResult;
  readonly ruleSet: RuleSet;
  /** The same rules for the pool's workers (they match where they decode). */
  readonly portable: PortableSigma;
  /** For supplied data, where events may lack a channel (see `dataMatcher`). */
  readonly dataMatcher: SigmaMatcher;
}

export class Community {
  private library: Promise<RuleLibrary> | undefined;
  private sigmaRules: CommunitySigma | undefined;
  private yaraRules: Promise<CompiledRuleSet> | undefined;
  private sigmaShared: CommunitySigmaTexts | undefined;
  /** Bumped by `refresh`, so workers holding older rules reload them. */
  private generation = 0;
  private readonly instance = randomUUID();

  constructor(
    private readonly libraryOptions: RuleLibraryOptions,
    private readonly yaraEngine: () => YaraEngine = defaultYaraEngine,
  ) {}

  rules(): Promise<RuleLibrary> {
    this.library ??= openRuleLibrary(this.libraryOptions).catch((e: unknown) => {
      this.library = undefined; // a later call tries again (the index may have been repaired)
      throw e;
    });
    return this.library;
  }

  async sigma(): Promise<CommunitySigma> {
    if (this.sigmaRules === undefined) {
      const library = await this.rules();
      const { part, placeholders } = library.sigmaPart();
      // The rule cache lives beside the library (a library in memory has none): a warm load
      // parses nothing and defers compiling what compiled before, and so do the workers.
      const cache = library.dataDir === undefined ? false : join(library.dataDir, RULE_CACHE_DIR);
      // Without their YAML: a job never renders a community rule (its variants' text is the CLI's).
      const load = () => buildCachedRules({ parts: [part], placeholders, cache, keepYaml: false });
      let built = load();
      let compiled = built.compile(built.all);
      if (!built.vouched && cache !== false) {
        // A cold cache built and compiled every rule now, to learn which compile, and recorded
        // that: built again, the rules are deferred as on every later run. The 1 GB private job
        // with the SigmaHQ set peaked about 60 MiB higher on its first run than on the next.
        built = load();
        compiled = built.compile(built.all);
      }
      const loaded = built.all;
      const rules = compiled;
      let matcher: SigmaMatcher | undefined;
      // Each made when first read: a parse job whose workers match never reads the rule set here.
      this.sigmaRules = {
        loaded,
        get ruleSet() {
          return rules.ruleSet;
        },
        // Made when a file first goes to the pool: a job of small files decodes inline.
        get portable() {
          return rules.portable;
        },
        get dataMatcher() {
          matcher ??= dataMatcher(loaded.rules, rules.ruleSet);
          return matcher;
        },
      };
    }
    return this.sigmaRules;
  }

  /** The Sigma texts for data-endpoint workers, encoded once per version (see data-pool.ts). */
  async sigmaTexts(): Promise<CommunitySigmaTexts> {
    const version = `${this.instance}:${this.generation}`;
    if (this.sigmaShared?.version !== version) {
      const bytes = Buffer.from(JSON.stringify((await this.rules()).sigmaSources()), 'utf8');
      const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
      shared.set(bytes);
      this.sigmaShared = { version, shared };
    }
    return this.sigmaShared;
  }

  yara(): Promise<CompiledRuleSet> {
    this.yaraRules ??= this.compileYara().catch((e: unknown) => {
      this.yaraRules = undefined;
      throw e;
    });
    return this.yaraRules;
  }

  /** Forgets the compiled rules, so the next run sees packs added since. */
  refresh(): void {
    this.sigmaRules = undefined;
    this.yaraRules = undefined;
    this.sigmaShared = undefined;
    this.generation++;
  }

  async close(): Promise<void> {
    const library = this.library;
    this.library = undefined;
    if (library !== undefined) (await library.catch(() => undefined))?.close();
  }

  private async compileYara(): Promise<CompiledRuleSet> {
    const { sources } = (await this.rules()).yaraSources();
    const outcome = await this.yaraEngine().compile({
      sources: sources.map((s) => ({
        source: s.text,
        namespace: `${s.pack}:${s.path}`,
        origin: `${s.pack}:${s.path}`,
      })),
      variables: { ...PACK_EXTERNAL_VARIABLES },
      invalidSources: 'skip',
    });
    if (outcome.kind === 'failed')
      throw new TaeError(
        'INTERNAL',
        `the community YARA rules do not compile: ${outcome.errors[0]?.text ?? ''}`,
      );
    return outcome.rules;
  }
}
