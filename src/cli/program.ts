/**
 * `tae`: the command line, loaded by main.ts once the Node version is known to be supported.
 * Exit codes: see exit-codes.ts (the README's table).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Command, CommanderError } from 'commander';
import { isNoSpace, isTaeError } from '../errors/index.js';
import { packageVersion } from '../version/index.js';
import { registerCommands } from './commands.js';
import { EXIT } from './exit-codes.js';
import { unnamedNoSpace } from './no-space.js';
import { controlErr, errLine, printErr } from './terminal.js';
import { hasYoungLimit, releaseWorkerYoungGeneration, YOUNG_LIMIT } from './young-generation.js';

/*
 * A command runs once, for seconds: most of a short run is V8 compiling hot functions, and
 * compiles with a smaller inlining budget finish sooner (-20% wall time decoding the 81 MB
 * bench file on one core, same warm speed; bench/run.ts). Set before any function is hot.
 */
setFlagsFromString('--max-inlined-bytecode-size-cumulative=150');
/*
 * V8 lets the old generation grow to up to 4× what survived the last full GC before the next
 * one. A parse job holds ~90 MB of analysis and in-flight events while it allocates fast: on a
 * 238 MiB file its peak RSS was 915 MiB at 4× and 615 MiB at 1.25×, in the same wall time
 * (bench/job.ts). V8 reads this at every GC, so setting it now takes effect.
 */
setFlagsFromString('--heap-growing-percent=25');
/*
 * V8 may decide, from what survived a few young collections, to allocate the objects of one
 * allocation site in the old generation from then on. In the decode workers of 6 of 10 1 GB
 * jobs, at random, one site was so decided and re-decided at every collection (379 times in
 * one worker): that worker promoted 650–730 MB instead of 160–180 and made 45–50 full
 * collections instead of 15–17, about 4 s more CPU. Without pretenuring, 7 of 7 jobs ran alike
 * (each worker 233–266 MB, 15–17 full collections; bench/job.ts --gc), and the 1 GB private job
 * used 56.2 s of CPU against 59.6 (4 alternated pairs).
 */
setFlagsFromString('--no-allocation-site-pretenuring');
/*
 * With so little room above the live heap, V8's own trigger starts the next incremental marking
 * as soon as the last one ends: on the 593-file hayabusa folder `tae analyze` ran 81 full GCs
 * in 3.4 s. Starting it at 70 % of the room (at once at 95 %) ran 31, in 2.4 s and 3.1 s of CPU
 * instead of 5.5, at the same peak RSS; the 100 MB job took 4 % less time (bench/job.ts).
 */
/*
 * One-shot analysing commands may collect their garbage when a job's analysis is done (see
 * jobs/memory.ts): V8 exposes `gc` only when asked, and only to a fresh context, so it is asked
 * for here and fetched from one. Not for a server: a full collection would pause its requests.
 */
if (['analyze', 'jobs'].includes(process.argv[2] ?? '')) {
  setFlagsFromString('--expose-gc');
  (globalThis as { gc?: unknown }).gc = runInNewContext('gc');
}
if (process.argv[2] !== 'serve') {
  // Not for a server: there the later start let the heap creep up by 10–25 MiB over 200 more
  // requests (test/http-robustness), where V8's own trigger keeps it flat.
  setFlagsFromString('--incremental-marking-soft-trigger=70');
  setFlagsFromString('--incremental-marking-hard-trigger=95');
}

/*
 * Commands that analyse or serve re-execute themselves once with the young generation's limit
 * (young-generation.ts; `process.execve`: the same process id, no parent left behind; not on
 * Windows, nor when TAE_NO_REEXEC=1 or the limit is already set), with at most two malloc
 * arenas unless MALLOC_ARENA_MAX is set. Worker threads then get the limit they ask for.
 */
const ANALYSING = new Set(['analyze', 'jobs', 'serve', 'sigma', 'search']);
if (
  ANALYSING.has(process.argv[2] ?? '') &&
  typeof process.execve === 'function' &&
  process.env.TAE_NO_REEXEC !== '1' &&
  !hasYoungLimit(process.execArgv)
)
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, YOUNG_LIMIT, ...process.argv.slice(1)],
    // glibc gives each thread that allocates its own arena and keeps what they free: after the
    // decode, index and completion threads of a 500 MB job, the job's CLI process peaked at
    // 461–532 MiB while printing its results; with two arenas at 441–471 MiB, in the same time.
    { MALLOC_ARENA_MAX: '2', ...process.env },
  );
if (hasYoungLimit(process.execArgv)) releaseWorkerYoungGeneration();

/** What to do about a locked data directory, after the store's message naming it and the pid. */
const LOCKED_HINT =
  'stop that process (e.g. its tae serve) or use another --data directory; tae tokens create works beside it';

async function main(argv: string[]): Promise<number> {
  const program = new Command()
    .name('tae')
    .description('threat-analysis-engine: offline analysis of Windows event logs')
    .version(`${packageVersion()} (node ${process.versions.node})`, '-V, --version', 'print the version')
    .option('--debug', 'print stack traces on errors')
    .exitOverride()
    .configureOutput({ writeErr: printErr });
  let exitCode: number = EXIT.OK;
  try {
    await registerCommands(program, argv.slice(2), (code) => {
      exitCode = code;
    });
    await program.parseAsync(argv);
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    if (process.stderr.isTTY) controlErr('\r\x1b[K'); // a progress line cut short
    const debug = program.opts().debug === true;
    if (isTaeError(e)) {
      errLine(`tae: ${e.message}${e.code === 'LOCKED' ? `; ${LOCKED_HINT}` : ''}`);
      if (debug) printErr(`${e.stack}\n`);
      if (e.code === 'LOCKED') return EXIT.LOCKED;
      if (isNoSpace(e)) return EXIT.NO_SPACE;
      if (e.code === 'INTERNAL') return EXIT.INTERNAL;
      return e.code === 'INVALID_ARGUMENT' ? EXIT.USAGE : EXIT.INPUT;
    }
    if (isNoSpace(e)) {
      errLine(`tae: ${unnamedNoSpace(e)}`);
      if (debug) printErr(`${(e as Error).stack}\n`);
      return EXIT.NO_SPACE;
    }
    errLine(`tae: internal error: ${(e as Error).message}`);
    if (debug) printErr(`${(e as Error).stack}\n`);
    return EXIT.INTERNAL;
  }
}

// A reader that stops early (`tae parse x | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(EXIT.OK);
  if (isNoSpace(e)) {
    errLine('tae: cannot write standard output: no space left on the disk');
    process.exit(EXIT.NO_SPACE);
  }
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT.INTERNAL;
  },
);
