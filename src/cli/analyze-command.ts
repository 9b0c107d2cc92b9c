/**
 * `tae analyze <files…>`: the full EVTX parse job in this process (no data directory), a short
 * summary on stdout, progress on stderr when it is a terminal, the job's results as JSON
 * (`--out`) and the self-contained HTML report (`--html`). Exit 1 with `--fail-on LEVEL` when a
 * Sigma match or key event is at or above LEVEL, 3 when a file could not be read, 5 when
 * records were lost (the precedence is exit-codes.ts's). With `--yara`, the payloads events
 * carry are scanned with YARA rules: the packs' (or `--pack`'s), or the `--rule` files ending
 * in .yar or .yara (other `--rule` files stay Sigma rules).
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { TaeError } from '../errors/index.js';
import { buildReport } from '../report/index.js';
import { levelRank, type SigmaLevel } from '../sigma/index.js';
import { type CompiledRuleSet, YaraEngine } from '../yara/index.js';
import { findingRecords, keyEvents, reportRules, resultsDocument, summaryText } from './analyze-output.js';
import { type AnalyzeProgress, type AnalyzeResult, analyzeFiles } from './analyze-run.js';
import { collect, dataOption, failOnOption, THREADS_HELP, threadsFlag } from './common.js';
import { DecodeReport } from './decode-report.js';
import { EXIT, type ExitCode, runExit } from './exit-codes.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { expandInputs, inputsHelp } from './inputs.js';
import { writeJsonFile } from './json-output.js';
import { Output, writeRecords } from './output.js';
import { writeOutputFile } from './output-file.js';
import { Progress, RunProgress } from './progress.js';
import { yaraCacheDir } from './rule-cache.js';
import { eventWindowOf, ruleChoiceOf, type TriageFlags, triageOptions } from './rule-filter.js';
import { printRuleProfile, ruleProfile } from './rule-profile.js';
import { loadSigmaRules, type SigmaRules } from './sigma-rules.js';
import { errLine } from './terminal.js';
import { compileYaraFlags } from './yara-command.js';

interface AnalyzeFlags extends FormatFlags, TriageFlags {
  cache?: boolean;
  sigma?: boolean;
  yara?: boolean;
  rule?: string[];
  pack?: string[];
  data?: string;
  threads?: string;
  out?: string;
  html?: string;
  title?: string;
  failOn?: SigmaLevel;
  quiet?: boolean;
}

export function analyzeCommand(program: Command, setExit: (code: ExitCode) => void): void {
  const command = program
    .command('analyze')
    .description('run the full EVTX analysis (a parse job, in this process) and summarise it')
    .argument('<inputs...>', 'EVTX files, directories, - or @LIST')
    .addHelpText('after', inputsHelp('evtx'))
    .option('--sigma', 'run the community Sigma rules (builtin pack and packs added with tae rules add)')
    .option(
      '--yara',
      'scan the payloads events carry (script blocks, decoded commands, …) with YARA rules (default: every pack)',
    )
    .option(
      '--rule <file>',
      'run this Sigma rule file or directory instead (repeatable); a .yar/.yara file is a YARA rule, with --yara',
      collect,
    )
    .option(
      '--pack <name>',
      'run the Sigma (and with --yara, YARA) rules of this pack instead (repeatable)',
      collect,
    )
    .addOption(dataOption())
    .option('-t, --threads <n>', THREADS_HELP)
    .option('-o, --out <file>', 'write the results (insights, Sigma matches with their rules) as JSON')
    .option('--html <file>', 'write the self-contained HTML report')
    .option('--title <text>', 'report title')
    .addOption(failOnOption())
    .option('-q, --quiet', 'print nothing on stdout (files are still written)')
    .option(
      '--no-cache',
      'parse the Sigma (and compile the YARA) rules again instead of using the rule cache',
    );
  triageOptions(command);
  formatOptions(command, { timesketch: true }).action(async (files: string[], flags: AnalyzeFlags) => {
    setExit(await runAnalyze(files, flags));
  });
}

/** SOURCE_DATE_EPOCH (seconds) pins the report's time, for reproducible reports. */
function reportTime(): number {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return epoch !== undefined && /^\d+$/.test(epoch) ? Number(epoch) * 1000 : Date.now();
}

async function runAnalyze(operands: string[], flags: AnalyzeFlags): Promise<ExitCode> {
  const format = formatOf(flags);
  const threads = threadsFlag(flags.threads);
  const { files, unreadable } = await expandInputs(operands, 'evtx');
  if (files.length === 0) return EXIT.INPUT;
  const yaraRules = (flags.rule ?? []).filter(isYaraRuleFile);
  const sigmaRules = (flags.rule ?? []).filter((f) => !isYaraRuleFile(f));
  if (yaraRules.length > 0 && flags.yara !== true)
    throw new TaeError(
      'INVALID_ARGUMENT',
      `${yaraRules[0]} is a YARA rule: add --yara to scan payloads with it`,
    );
  // --sigma runs the community packs and a Sigma --rule file runs instead of them: taking one
  // silently would leave the user believing the other ran too.
  if (flags.sigma === true && sigmaRules.length > 0)
    throw new TaeError(
      'INVALID_ARGUMENT',
      `--sigma (the community rules) and --rule ${sigmaRules[0]} (Sigma rules run instead of them) cannot be combined: give one, or add the file as a pack (tae rules add) and pass --pack`,
    );
  const wantsSigma = flags.sigma === true || sigmaRules.length > 0 || (flags.pack?.length ?? 0) > 0;
  const window = eventWindowOf(flags);
  const choice = ruleChoiceOf(flags);
  const status = new Progress(process.stderr, flags.quiet !== true && process.stderr.isTTY === true);
  let sigma: SigmaRules | undefined;
  if (wantsSigma) {
    status.update('analyze: loading Sigma rules…', true);
    sigma = await loadSigmaRules({
      choice,
      ...(flags.cache === false ? { cache: false } : {}),
      ...(sigmaRules.length > 0 ? { ruleFiles: sigmaRules } : {}),
      ...(flags.pack ? { packs: flags.pack } : {}),
      ...(flags.data ? { data: flags.data } : {}),
    });
  }
  let yara: { rules: CompiledRuleSet; engine: YaraEngine } | undefined;
  if (flags.yara === true) {
    status.update('analyze: compiling YARA rules…', true);
    const cacheDir = flags.cache === false ? undefined : yaraCacheDir(); // as `tae yara` does
    const engine = new YaraEngine(cacheDir === undefined ? {} : { cacheDir });
    try {
      yara = { engine, rules: await compileYaraFlags(engine, { ...flags, rule: yaraRules }) };
    } catch (e) {
      await engine.close();
      throw e;
    }
  }
  status.done();
  const progress = new RunProgress({ command: 'analyze', files, quiet: flags.quiet === true });
  const onProgress = (p: AnalyzeProgress) =>
    progress.update({ fileIndex: p.fileIndex, bytesInFile: p.bytes, records: p.records });
  let result: AnalyzeResult;
  try {
    result = await analyzeFiles({
      files,
      threads,
      window,
      onProgress,
      ...(sigma ? { sigma } : {}),
      ...(yara ? { yara } : {}),
    });
  } catch (e) {
    progress.stop();
    throw e;
  } finally {
    await yara?.engine.close();
  }
  progress.finish({ records: result.records });
  sigma?.finish();
  for (const f of result.failures) errLine(`tae: ${f.message}`);
  for (const d of result.correlationDiagnostics) errLine(`tae: warning: Sigma correlation: ${d.message}`);
  const decoded = new DecodeReport();
  decoded.add(result.diagnostics);
  if (result.failures.length === files.length) return EXIT.INPUT;
  const profile = flags.profileRules && sigma !== undefined ? ruleProfile(sigma.ruleSet) : undefined;
  if (profile !== undefined) printRuleProfile(profile);
  const written: string[] = [];
  if (flags.out !== undefined) {
    const document = resultsDocument(result, files, sigma);
    const withProfile = profile === undefined ? document : { ...document, rule_profile: profile };
    writeJsonFile(flags.out, withProfile);
    written.push(flags.out);
  }
  if (flags.html !== undefined) {
    const html = await buildReport({
      // Many files: the count and the first two names, so the title stays a title.
      title:
        flags.title ??
        `Threat analysis: ${
          files.length <= 3
            ? files.map((f) => basename(f)).join(', ')
            : `${files.length} files (${files
                .slice(0, 2)
                .map((f) => basename(f))
                .join(', ')}, …)`
        }`,
      generatedAt: reportTime(),
      insights: result.insights,
      sigmaRules: reportRules(result.detections),
      sigmaRan: sigma !== undefined,
      files,
    });
    writeOutputFile(flags.html, [html]);
    written.push(flags.html);
  }
  if (!flags.quiet) {
    const out = new Output();
    if (format === 'table') await out.writeText(summaryText(result, files, sigma, written));
    else await writeRecords(findingRecords(result.insights, result.detections), format, out);
    await out.flush();
  }
  return runExit({
    unreadable: unreadable + result.failures.length + (sigma?.notLoaded ?? 0),
    recordsLost: decoded.recordsLost,
    findings: flags.failOn !== undefined && maxFindingRank(result) >= levelRank(flags.failOn),
  });
}

function maxFindingRank(result: AnalyzeResult): number {
  const keyEventMax = Math.max(-1, ...keyEvents(result.insights).map((e) => levelRank(e.importance)));
  return Math.max(result.detections.maxLevel(), keyEventMax);
}

const isYaraRuleFile = (f: string): boolean => /\.(yar|yara)$/i.test(f);
