/** `tae parse <file…>`: decode EVTX files and print their records as JSONL, JSON or XML, or a summary. */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { EvtxEvent, ParsedRecord, RecordOutput } from '../evtx/index.js';
import { DecodePool, defaultThreads, parseEvtx } from '../parse/index.js';
import { INLINE_BELOW_BYTES } from '../pipeline/index.js';
import { DecodeReport } from './decode-report.js';
import { EXIT, type ExitCode, runExit } from './exit-codes.js';
import { expandInputs, inputsHelp } from './inputs.js';
import { Output } from './output.js';
import { RunProgress } from './progress.js';
import { renderSummary, Summary } from './summary.js';

type Format = 'jsonl' | 'json' | 'xml';

interface ParseFlags {
  format: Format;
  threads?: string;
  summary?: boolean;
  quiet?: boolean;
  precision: 'crate' | '100ns';
  validateChecksums?: boolean;
}

export function parseCommand(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command('parse')
    .description('decode EVTX files and print every record')
    .argument('<inputs...>', 'EVTX files, directories, - or @LIST')
    .addHelpText('after', inputsHelp('evtx'))
    .addOption(
      new Option('-f, --format <format>', 'record format').choices(['jsonl', 'json', 'xml']).default('jsonl'),
    )
    .option(
      '-t, --threads <n>',
      'worker threads for EVTX files of 8 MiB or more (default: the cores, at most 8, or 0 with --summary; 0: none)',
    )
    .option('--summary', 'print a summary instead of the records')
    .addOption(
      new Option('--precision <p>', 'JSON timestamps: crate (µs, like evtx_dump) or 100ns')
        .choices(['crate', '100ns'])
        .default('crate'),
    )
    .option('--validate-checksums', 'skip chunks whose checksums fail')
    .option('-q, --quiet', 'do not print diagnostics or progress to stderr')
    .action(async (files: string[], flags: ParseFlags) => {
      setExit(await runParse(files, flags));
    });
}

async function runParse(operands: string[], flags: ParseFlags): Promise<ExitCode> {
  const { files, unreadable } = await expandInputs(operands, 'evtx');
  if (files.length === 0) return EXIT.INPUT;
  // parseEvtx checks the number (its message names options.threads); the pool is shared. A
  // summary reads whole events, which cost more to send back from a worker than to decode here
  // (238 MiB: 2.3–2.5 s on this thread, 3.4–3.9 s with 2 workers): it stays here by default.
  const threads =
    flags.threads === undefined ? (flags.summary ? 0 : defaultThreads()) : Number(flags.threads);
  const pool =
    Number.isInteger(threads) && threads > 0 && threads <= 64 ? new DecodePool(threads) : undefined;
  try {
    return await parseFiles(files, flags, threads, pool, unreadable);
  } finally {
    await pool?.close();
  }
}

async function parseFiles(
  files: readonly string[],
  flags: ParseFlags,
  threads: number,
  pool: DecodePool | undefined,
  unreadable: number,
): Promise<ExitCode> {
  const out = new Output();
  const outputs: RecordOutput[] = flags.summary ? ['event'] : [flags.format === 'xml' ? 'xml' : 'json'];
  const summary = new Summary();
  const report = new DecodeReport({ warnings: true, quiet: flags.quiet === true });
  let first = true;
  let records = 0;
  const progress = new RunProgress({ command: 'parse', files, quiet: flags.quiet === true });
  if (!flags.summary && flags.format === 'json') await out.write('[');
  if (!flags.summary && flags.format === 'xml')
    await out.write('<?xml version="1.0" encoding="utf-8"?>\n<Events>\n');
  for (const [fileIndex, file] of files.entries()) {
    // Small files decode here, as in the other commands (a run of many of them started a pool each).
    const large =
      pool !== undefined && (statSync(file, { throwIfNoEntry: false })?.size ?? 0) >= INLINE_BELOW_BYTES;
    const parse = parseEvtx(file, {
      threads: pool === undefined ? threads : 0,
      ...(large ? { pool } : {}),
      outputs,
      timePrecision: flags.precision,
      validateChecksums: flags.validateChecksums === true,
      label: basename(file),
      batchText: !flags.summary && flags.format !== 'json',
      recycleText: true,
    });
    for await (const chunk of parse.chunks()) {
      records += chunk.recordCount;
      // The file header, then 64 KiB a chunk (stats.bytes is counted when the file is done).
      progress.update({ fileIndex, bytesInFile: 4096 + parse.stats.chunks * 65536, records });
      if (chunk.text !== undefined) {
        await out.write(chunk.text);
        continue;
      }
      for (const r of chunk.records) {
        if (flags.summary) summary.add(r.event as EvtxEvent);
        else {
          await out.write(formatRecord(r, flags.format, first));
          first = false;
        }
      }
    }
    summary.addFile(file, parse.stats, parse.diagnostics);
    report.add(parse.diagnostics, file);
  }
  if (!flags.summary && flags.format === 'json') await out.write(first ? ']\n' : '\n]\n');
  if (!flags.summary && flags.format === 'xml') await out.write('</Events>\n');
  if (flags.summary) await out.writeText(renderSummary(summary));
  await out.flush();
  progress.finish({ records });
  return runExit({ unreadable, recordsLost: report.recordsLost });
}

function formatRecord(r: ParsedRecord, format: Format, first: boolean): string {
  switch (format) {
    case 'jsonl':
      return `${r.json}\n`;
    case 'json':
      return `${first ? '\n' : ',\n'}${r.json}`;
    case 'xml':
      return r.xml!.replace(/^<\?xml[^>]*>\n/, '');
    default:
      return format satisfies never;
  }
}
