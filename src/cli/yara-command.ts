/**
 * `tae yara [--rule FILE…] [--pack NAME…] <inputs…>`: YARA-X rules over files (directories,
 * `-` and `@LIST` expanded by inputs.ts: every regular file). Custom rule files must all compile (a compiler error is an input
 * error with the compiler's headline and position); pack files that do not compile are skipped
 * with a warning each. Every scan has a timeout; a file that times out or cannot be read is an
 * input error reported after the others were scanned.
 */

import type { Command } from 'commander';
import { TaeError } from '../errors/index.js';
import { defaultThreads } from '../parse/index.js';
import { openRuleLibrary, readRuleInput } from '../rules/index.js';
import {
  type CompiledRuleSet,
  PACK_EXTERNAL_VARIABLES,
  type ScanOutcome,
  YaraEngine,
} from '../yara/index.js';
import { collect, dataOption, intFlag, ruleLibraryDir, warn } from './common.js';
import { EXIT, type ExitCode, runExit } from './exit-codes.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { expandInputs, inputsHelp } from './inputs.js';
import { writeRecords } from './output.js';
import { RunProgress } from './progress.js';
import { column, pathColumn, type Row } from './records.js';
import { yaraCacheDir } from './rule-cache.js';
import { errLine } from './terminal.js';

interface YaraFlags extends FormatFlags {
  rule?: string[];
  pack?: string[];
  data?: string;
  threads?: string;
  timeout?: string;
  failOnMatch?: boolean;
  cache?: boolean;
  quiet?: boolean;
}

/** External variables signature-base and other packs declare (as the engine's community runs). */
const PACK_VARIABLES = PACK_EXTERNAL_VARIABLES;

export function yaraCommand(program: Command, setExit: (code: ExitCode) => void): void {
  const command = program
    .command('yara')
    .description('scan files with YARA-X rules')
    .argument('<inputs...>', 'files or directories to scan, - or @LIST')
    .addHelpText('after', inputsHelp('any'))
    .option('--rule <file>', 'a YARA rule file (repeatable)', collect)
    .option(
      '--pack <name>',
      'a rule pack of the library (repeatable; default without --rule: every pack)',
      collect,
    )
    .addOption(dataOption())
    .option('-t, --threads <n>', 'scan threads (default: the cores, at most 8)')
    .option('--timeout <seconds>', 'per-file scan timeout (default 30)')
    .option('--fail-on-match', 'exit 1 when any rule matched')
    .option('-q, --quiet', 'no progress on stderr (errors are still printed)')
    .option('--no-cache', 'compile the rules again instead of using the compiled-rules cache');
  formatOptions(command, { timesketch: false }).action(async (files: string[], flags: YaraFlags) => {
    setExit(await runYaraCommand(files, flags));
  });
}

/** The rules of `--rule` files (all must compile) or else of `--pack`s (every pack by default). */
export async function compileYaraFlags(
  engine: YaraEngine,
  flags: Pick<YaraFlags, 'rule' | 'pack' | 'data'>,
): Promise<CompiledRuleSet> {
  const custom = (flags.rule?.length ?? 0) > 0;
  let sources: { source: string; namespace: string; origin: string }[];
  if (custom)
    sources = flags.rule!.map((f) => ({ source: readRuleInput(f, 'rule'), namespace: f, origin: f }));
  else {
    const library = await openRuleLibrary({ dataDir: ruleLibraryDir(flags.data) });
    try {
      const set = library.yaraSources(flags.pack?.length ? { packs: flags.pack } : {});
      sources = set.sources.map((s) => ({
        source: s.text,
        namespace: `${s.pack}:${s.path}`,
        origin: `${s.pack}:${s.path}`,
      }));
    } finally {
      library.close();
    }
  }
  const outcome = await engine.compile({
    sources,
    ...(custom ? {} : { variables: PACK_VARIABLES, invalidSources: 'skip' as const }),
  });
  if (outcome.kind === 'failed') {
    const e = outcome.errors[0];
    const where = e?.origin
      ? `${e.origin}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: `
      : '';
    throw new TaeError(
      'INPUT_UNREADABLE',
      `YARA rules do not compile: ${where}${e?.title ?? 'unknown error'}`,
    );
  }
  for (const s of outcome.rules.skipped) warn(`${s.origin ?? 'rule'}: skipped, does not compile: ${s.title}`);
  return outcome.rules;
}

const metaText = (v: unknown) => (v === undefined || v === null ? null : String(v));

async function runYaraCommand(paths: string[], flags: YaraFlags): Promise<ExitCode> {
  const format = formatOf(flags);
  // The engine's own default (2) suits a service beside other work; a command has the machine.
  const threads = intFlag('--threads', flags.threads, 1, 64) ?? defaultThreads();
  const timeout = intFlag('--timeout', flags.timeout, 1, 3600);
  const { files, unreadable } = await expandInputs(paths, 'any');
  if (files.length === 0) return EXIT.INPUT;
  const cacheDir = flags.cache === false ? undefined : yaraCacheDir();
  const engine = new YaraEngine({
    threads,
    ...(timeout !== undefined ? { scanTimeoutMs: timeout * 1000 } : {}),
    ...(cacheDir !== undefined ? { cacheDir } : {}),
  });
  try {
    const rules = await compileYaraFlags(engine, flags);
    const outcomes: ScanOutcome[] = new Array(files.length);
    const progress = new RunProgress({ command: 'yara', files, quiet: flags.quiet === true });
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < files.length; i = next++) {
        outcomes[i] = await engine.scan({
          rules,
          target: { path: files[i]!, maxBytes: Number.MAX_SAFE_INTEGER },
        });
        progress.fileFinished(i);
      }
    };
    try {
      await Promise.all(Array.from({ length: 2 * engine.options.threads }, worker));
    } catch (e) {
      progress.stop();
      throw e;
    }
    progress.finish();
    const rows: Row[] = [];
    let failed = 0;
    for (const [i, o] of outcomes.entries()) {
      const file = files[i]!;
      if (o.kind === 'timeout')
        errLine(`tae: ${file}: scan timed out after ${Math.ceil(o.timeoutMs / 1000)} s`);
      if (o.kind === 'failed') errLine(`tae: ${file}: ${o.message.replace(/\s*\n\s*/g, ' ')}`);
      if (o.kind !== 'matched') {
        failed++;
        continue;
      }
      for (const m of o.matches)
        rows.push({
          file,
          rule: m.rule,
          namespace: m.namespace,
          tags: m.tags.join(', '),
          patterns: m.patterns.length,
          author: metaText(m.meta.author),
          description: metaText(m.meta.description),
        });
    }
    const columns = [
      pathColumn('file', 'File'),
      column('rule', 'Rule'),
      column('namespace', 'Namespace'),
      column('tags', 'Tags'),
      column('patterns', 'Patterns'),
      column('author', 'Author'),
      column('description', 'Description'),
    ];
    await writeRecords(
      { columns, rows, empty: `No YARA rule matched (${files.length} files scanned).` },
      format,
    );
    return runExit({
      unreadable: unreadable + failed,
      recordsLost: false,
      findings: flags.failOnMatch === true && rows.length > 0,
    });
  } finally {
    await engine.close();
  }
}
