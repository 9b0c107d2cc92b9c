/**
 * `tae payloads <files…> [--format text|jsonl] [-o DIR] [--yara [--pack NAME…|--rule FILE…]]`:
 * the code the events carry (script blocks reassembled, encoded commands and compressed stages
 * decoded, service images, task XML, WMI consumers, Defender paths), each distinct payload once
 * with its records; with `--yara`, the rules that match each. Unreadable inputs and scans that
 * fail are reported after the others (exit 3); lost records exit 5.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { isTaeError } from '../errors/index.js';
import { defaultThreads, parseEvtx } from '../parse/index.js';
import { createPayloadExtractor, type PayloadDiagnostic, PayloadSet } from '../payloads/index.js';
import { scanPayloads, YaraEngine, type YaraRuleMatch } from '../yara/index.js';
import { collect, dataOption, intFlag, plural, warn } from './common.js';
import { DecodeReport } from './decode-report.js';
import { EXIT, runExit } from './exit-codes.js';
import { expandInputs, inputsHelp } from './inputs.js';
import { Output } from './output.js';
import { writeOutputFile } from './output-file.js';
import { jsonLine, payloadFileName, type ShownPayload, textBlock } from './payloads-output.js';
import { errLine } from './terminal.js';
import { compileYaraFlags } from './yara-command.js';

interface PayloadsFlags {
  format: 'text' | 'jsonl';
  out?: string;
  yara?: boolean;
  rule?: string[];
  pack?: string[];
  data?: string;
  threads?: string;
  timeout?: string;
  quiet?: boolean;
}

export function payloadsCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('payloads')
    .description(
      'extract the payloads events carry (script blocks, encoded commands, …), optionally scanned with YARA',
    )
    .argument('<inputs...>', 'EVTX files, directories, - or @LIST')
    .addHelpText('after', inputsHelp('evtx'))
    .addOption(
      new Option('-f, --format <format>', 'output format').choices(['text', 'jsonl']).default('text'),
    )
    .option(
      '-o, --out <dir>',
      'write each payload to a file in DIR (generated names) and print only the index',
    )
    .option('--yara', 'scan every payload with YARA-X rules (default: every pack)')
    .option('--rule <file>', 'a YARA rule file, with --yara (repeatable)', collect)
    .option('--pack <name>', 'a rule pack of the library, with --yara (repeatable)', collect)
    .addOption(dataOption())
    .option('-t, --threads <n>', 'YARA scan threads (default: the cores, at most 8)')
    .option('--timeout <seconds>', 'per-payload YARA scan timeout (default 30)')
    .option('-q, --quiet', 'do not print payload diagnostics to stderr')
    .action(async (files: string[], flags: PayloadsFlags) => {
      setExit(await runPayloads(files, flags));
    });
}

const diagnosticLine = (d: PayloadDiagnostic): string => {
  const r = d.records?.[0];
  const where = r ? `${r.file ?? 'input'}: ${r.channel}#${r.recordId}` : 'input';
  return `${where}: ${d.code}: ${d.message}`;
};

async function runPayloads(operands: string[], flags: PayloadsFlags): Promise<number> {
  if (!flags.yara && (flags.rule?.length || flags.pack?.length))
    warn('--rule and --pack take effect with --yara');
  // The engine's own default (2) suits a service beside other work; a command has the machine.
  const threads = intFlag('--threads', flags.threads, 1, 64) ?? defaultThreads();
  const timeout = intFlag('--timeout', flags.timeout, 1, 3600);
  const expanded = await expandInputs(operands, 'evtx');
  const files = expanded.files;
  if (files.length === 0) return EXIT.INPUT;
  const extractor = createPayloadExtractor();
  const set = new PayloadSet();
  const report = new DecodeReport();
  let unreadable = expanded.unreadable;
  for (const file of files) {
    try {
      const parse = parseEvtx(file, { label: file });
      for await (const r of parse)
        if (r.event !== undefined) for (const p of extractor.add(r.event, file)) set.add(p);
      report.add(parse.diagnostics, file);
    } catch (e) {
      if (!isTaeError(e)) throw e;
      unreadable++;
      errLine(`tae: ${e.message.includes(file) ? e.message : `${file}: ${e.message}`}`);
    }
  }
  for (const p of extractor.finish()) set.add(p);
  if (flags.quiet !== true) {
    for (const d of extractor.diagnostics) warn(diagnosticLine(d));
    if (extractor.droppedDiagnostics > 0)
      warn(`${plural(extractor.droppedDiagnostics, 'more payload diagnostic')} not shown`);
    if (set.dropped > 0)
      warn(`${plural(set.dropped, 'payload')} not kept: the payloads held reached their byte bound`);
  }
  const payloads = set.payloads;
  let matches: (readonly YaraRuleMatch[] | null)[] = payloads.map(() => null);
  if (flags.yara) {
    const engine = new YaraEngine({
      threads,
      ...(timeout !== undefined ? { scanTimeoutMs: timeout * 1000 } : {}),
    });
    try {
      const compiled = await compileYaraFlags(engine, flags);
      const scan = await scanPayloads(payloads, { compiled, engine });
      if (scan.kind !== 'scanned') throw new Error('precompiled rules cannot fail to compile');
      matches = scan.results.map((r, i) => {
        switch (r.outcome.kind) {
          case 'matched':
            return r.outcome.matches;
          case 'timeout':
          case 'failed':
            unreadable++;
            errLine(
              `tae: payload ${i + 1}: ${r.outcome.kind === 'timeout' ? `scan timed out after ${Math.ceil(r.outcome.timeoutMs / 1000)} s` : r.outcome.message.replace(/\s*\n\s*/g, ' ')}`,
            );
            return null;
          default:
            return r.outcome satisfies never;
        }
      });
    } finally {
      await engine.close();
    }
  }
  const shown: ShownPayload[] = payloads.map((payload, i) => ({
    index: i + 1,
    payload,
    matches: matches[i]!,
    file: flags.out === undefined ? null : payloadFileName(i + 1, payload.kind, payload.text === undefined),
  }));
  const out = new Output();
  if (flags.out !== undefined) {
    mkdirSync(flags.out, { recursive: true });
    for (const s of shown) writeOutputFile(join(flags.out, s.file!), [s.payload.text ?? s.payload.bytes]);
    writeOutputFile(join(flags.out, 'index.jsonl'), [shown.map(jsonLine).join('')]);
  }
  // textBlock shows the payload's own text through the one sanitiser already.
  for (const s of shown) await out.write(flags.format === 'jsonl' ? jsonLine(s) : textBlock(s));
  if (flags.format === 'text' && shown.length === 0)
    await out.write(`No payloads found (${plural(files.length, 'file')}).\n`);
  await out.flush();
  return runExit({ unreadable, recordsLost: report.recordsLost });
}
