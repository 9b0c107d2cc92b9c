/**
 * `tae serve`: the HTTP twin on loopback. Prints the URL on one line once listening; with
 * `--issue-token LEVEL`, `token <uuid> <level>` on the next (the one way to a token on a
 * `--memory` server: no route issues tokens); then the retention policy of public data with what
 * the sweep at start removed, and a line per later sweep that removed something. SIGINT or
 * SIGTERM stops accepting, lets answers in flight finish, closes the engine (running jobs go back
 * to Pending for the next start) and exits 0. A second signal cuts open connections.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { TaeError } from '../errors/index.js';
import { serve } from '../http/index.js';
import {
  Engine,
  type RetentionSweep,
  SUBSCRIPTION_LEVELS,
  type SubscriptionLevel,
} from '../service/index.js';
import { publicTtl, ttlText } from './engine-flags.js';
import { inDataDir } from './no-space.js';
import { defaultDataDir } from './rules-command.js';
import { errLine, outLine, printErr } from './terminal.js';

interface ServeFlags {
  port: number;
  host: string;
  data?: string;
  memory?: boolean;
  brand: string;
  issueToken?: SubscriptionLevel;
  publicTtl: number;
}

const removed = (s: RetentionSweep) =>
  `removed ${s.filesRemoved} public file${s.filesRemoved === 1 ? '' : 's'}, ` +
  `${s.jobsRemoved} public job${s.jobsRemoved === 1 ? '' : 's'}`;

function portNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('a port from 0 to 65535 is expected');
  return n;
}

const nextSignal = () =>
  new Promise<NodeJS.Signals>((resolve) => {
    const on = (s: NodeJS.Signals) => {
      process.off('SIGINT', on).off('SIGTERM', on);
      resolve(s);
    };
    process.on('SIGINT', on).on('SIGTERM', on);
  });

const NO_SPACE_LOG_EVERY_MS = 60_000;

/** One line when requests meet a full disk, then at most one a minute (with the count), not one a request. */
function noSpaceLog(dataDir: string | undefined): (r: { method: string; path: string }) => void {
  let last = 0;
  let since = 0;
  return (r) => {
    since++;
    const now = Date.now();
    if (now - last < NO_SPACE_LOG_EVERY_MS) return;
    const where = dataDir === undefined ? 'the temporary directory' : `the data directory ${dataDir}`;
    errLine(
      `tae serve: no space left on the disk of ${where}: ${since} request(s) answered 507, the last ${r.method} ${r.path}; free space (no restart needed)`,
    );
    last = now;
    since = 0;
  };
}

async function runServe(flags: ServeFlags): Promise<void> {
  let listening = false;
  const dataDir = flags.memory ? undefined : (flags.data ?? defaultDataDir());
  const engine = await Engine.open({
    ...(dataDir === undefined ? { memory: true } : { dataDir }),
    publicTtlMs: flags.publicTtl,
    onRetentionSweep: (sweep) => {
      if (listening && sweep.filesRemoved + sweep.jobsRemoved > 0) outLine(`retention: ${removed(sweep)}`);
    },
    onInternalError: (e, id) => printErr(`tae serve: error ${id}: ${(e as Error)?.stack ?? e}\n`),
  }).catch((e: unknown) => {
    throw dataDir === undefined ? e : inDataDir(e, dataDir);
  });
  try {
    const issued = flags.issueToken ? await engine.createToken({ level: flags.issueToken }) : null;
    const server = await serve({
      engine,
      port: flags.port,
      host: flags.host,
      brand: flags.brand,
      onInternalError: (e, id) => printErr(`tae serve: error ${id}: ${(e as Error)?.stack ?? e}\n`),
      onClientAbort: (r) =>
        errLine(`tae serve: client closed the connection mid-request: ${r.method} ${r.path}`),
      onNoSpace: noSpaceLog(dataDir),
    });
    // Handlers go in before the first line: a client that stops us as soon as it reads the URL
    // must meet our shutdown, not the default action of the signal.
    const stopped = nextSignal();
    outLine(server.url);
    if (issued !== null) outLine(`token ${issued.token} ${issued.level}`);
    const { publicTtlMs, sweepIntervalMs, lastSweep } = engine.retention;
    outLine(
      publicTtlMs === 0
        ? 'retention: public data (made without a token) is kept forever'
        : `retention: public data (made without a token) is deleted ${ttlText(publicTtlMs)} after upload ` +
            `or job completion, checked every ${ttlText(sweepIntervalMs)}; at start ` +
            `${lastSweep === null ? 'the sweep failed (error above)' : removed(lastSweep)}`,
    );
    listening = true;
    await stopped;
    const closed = server.close();
    await Promise.race([closed, nextSignal().then(() => server.close({ graceMs: 0 }))]);
    await closed;
  } finally {
    await engine.close();
  }
}

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTP interface (every endpoint of the service spec), on loopback by default')
    .option('--port <n>', 'TCP port; 0 picks a free one', portNumber, 8080)
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--data <dir>', 'data directory (default: $TAE_HOME, else the per-user data directory)')
    .option('--memory', 'keep everything in memory (nothing survives the process)')
    .addOption(
      new Option(
        '--public-ttl <duration>',
        'delete files and jobs made without a token this long after upload or job completion (e.g. 7d, 12h, 30m; 0 or off: keep forever)',
      )
        .env('TAE_PUBLIC_TTL')
        .argParser(publicTtl)
        .default(publicTtl('7d'), '7d'),
    )
    .option(
      '--brand <word>',
      'the word in the headers X-<word>-Api-Token and X-<word>-Api-Enc-Key',
      'Service',
    )
    .addOption(
      new Option('--issue-token <level>', 'issue a token at start and print it after the URL').choices(
        Object.keys(SUBSCRIPTION_LEVELS),
      ),
    )
    .action(async (flags: ServeFlags) => {
      if (flags.memory && flags.data !== undefined) {
        throw new TaeError('INVALID_ARGUMENT', '--memory and --data exclude each other');
      }
      await runServe(flags);
    });
}
