/**
 * `tae sigma [--rule FILE…] [--pack NAME…] <inputs…>`: Sigma rules over EVTX, JSON or XML files.
 * The human table lists matched rules with counts; --json, --jsonl, --csv and --timesketch list
 * every match in time order across the inputs (rule title, id, level, the event's record id,
 * time, computer, channel, file, MITRE tactics and techniques, evidence).
 */
import type { Command } from 'commander';
import { evidenceLine, levelRank, type SigmaLevel } from '../sigma/index.js';
import { collect, dataOption, failOnOption, plural, THREADS_HELP, threadsFlag } from './common.js';
import { DecodeReport } from './decode-report.js';
import type { Detections } from './detections.js';
import { MatchStream } from './detections.js';
import { EXIT, type ExitCode, runExit } from './exit-codes.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { expandInputs, inputsHelp } from './inputs.js';
import { mitreCell } from './mitre.js';
import { writeRecords } from './output.js';
import { RunProgress } from './progress.js';
import { column, isoTime, type RecordSet } from './records.js';
import { eventWindowOf, ruleChoiceOf, type TriageFlags, triageOptions } from './rule-filter.js';
import { printRuleProfile, ruleProfile } from './rule-profile.js';
import { loadSigmaRules } from './sigma-rules.js';
import { runSigmaOver } from './sigma-run.js';
import { errLine } from './terminal.js';

interface SigmaFlags extends FormatFlags, TriageFlags {
  cache?: boolean;
  rule?: string[];
  pack?: string[];
  data?: string;
  threads?: string;
  failOn?: SigmaLevel;
  quiet?: boolean;
}

export function sigmaCommand(program: Command, setExit: (code: ExitCode) => void): void {
  const command = program
    .command('sigma')
    .description('run Sigma rules over EVTX, JSON or event XML files')
    .argument(
      '<inputs...>',
      'EVTX files, JSON (objects, arrays, lines) or event-log XML; directories, - or @LIST',
    )
    .addHelpText(
      'after',
      `${inputsHelp('evtx')}\nJSON and XML inputs are read when named (directories give EVTX files only).`,
    )
    .option('--rule <file>', 'a Sigma rule file or directory (repeatable)', collect)
    .option(
      '--pack <name>',
      'a rule pack of the library (repeatable; default without --rule: every pack)',
      collect,
    )
    .addOption(dataOption())
    .option('-t, --threads <n>', THREADS_HELP)
    .addOption(failOnOption())
    .option('-q, --quiet', 'no progress on stderr (errors are still printed)')
    .option('--no-cache', 'parse the rules again instead of using the rule cache');
  triageOptions(command);
  formatOptions(command, { timesketch: true }).action(async (inputs: string[], flags: SigmaFlags) => {
    setExit(await runSigmaCommand(inputs, flags));
  });
}

function ruleRecords(d: Detections, events: number): RecordSet {
  return {
    columns: [
      column('level', 'Level'),
      column('matches', 'Matches'),
      column('first_seen', 'First Seen'),
      column('last_seen', 'Last Seen'),
      column('rule_id', 'Rule ID'),
      column('rule_title', 'Rule'),
      column('mitre', 'MITRE'),
      column('details', 'Details (first match)'),
    ],
    rows: d.rules().map((h) => ({
      level: h.rule.level ?? null,
      matches: h.count,
      first_seen: isoTime(h.first),
      last_seen: isoTime(h.last),
      rule_id: h.rule.id ?? null,
      rule_title: h.rule.title,
      mitre: mitreCell(h.rule.tags),
      details: h.sample[0]?.evidence === undefined ? null : evidenceLine(h.sample[0].evidence),
    })),
    empty: `No Sigma rule matched (${plural(events, 'event')} read).`,
  };
}

async function runSigmaCommand(operands: string[], flags: SigmaFlags): Promise<ExitCode> {
  const format = formatOf(flags);
  const threads = threadsFlag(flags.threads);
  const window = eventWindowOf(flags);
  const { files: inputs, unreadable } = await expandInputs(operands, 'evtx');
  if (inputs.length === 0) return EXIT.INPUT;
  const rules = await loadSigmaRules({
    choice: ruleChoiceOf(flags),
    ...(flags.cache === false ? { cache: false } : {}),
    ...(flags.rule ? { ruleFiles: flags.rule } : {}),
    ...(flags.pack ? { packs: flags.pack } : {}),
    ...(flags.data ? { data: flags.data } : {}),
  });
  const progress = new RunProgress({ command: 'sigma', files: inputs, quiet: flags.quiet === true });
  const position = new Map(inputs.map((f, i) => [f, i]));
  // Listings are written as matches are found; the table (counts per rule) at the end.
  const stream = format === 'table' ? undefined : new MatchStream(format);
  let result: Awaited<ReturnType<typeof runSigmaOver>>;
  try {
    result = await runSigmaOver({
      inputs,
      rules,
      threads,
      window,
      // The table shows each rule's count and first match: keeping the matches themselves held
      // the main thread's heap at hundreds of MiB on a large log (434,422 matches of the four
      // 238 MiB bench files) and its collector busy.
      ...(stream === undefined ? { maxKept: 0, maxSample: 1 } : { stream, maxSample: 0 }),
      onProgress: (input, events) =>
        progress.update({ fileIndex: position.get(input) ?? 0, records: events }),
    });
  } catch (e) {
    progress.stop();
    stream?.close();
    throw e;
  }
  progress.finish({ records: result.events });
  rules.finish();
  for (const f of result.failures) errLine(`tae: ${f.message}`);
  for (const d of result.correlationDiagnostics) errLine(`tae: warning: Sigma correlation: ${d.message}`);
  if (flags.profileRules) printRuleProfile(ruleProfile(rules.ruleSet));
  const decoded = new DecodeReport();
  decoded.add(result.diagnostics);
  if (result.failures.length === inputs.length) return EXIT.INPUT;
  if (stream === undefined) await writeRecords(ruleRecords(result.detections, result.events), format);
  else await stream.end();
  return runExit({
    unreadable: unreadable + result.failures.length + rules.notLoaded,
    recordsLost: decoded.recordsLost,
    findings: flags.failOn !== undefined && result.detections.maxLevel() >= levelRank(flags.failOn),
  });
}
