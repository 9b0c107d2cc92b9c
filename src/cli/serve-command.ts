/**
 * `tae serve`: the HTTP twin on loopback. Prints the URL on one line once listening, then with
 * `--issue-token LEVEL` `token <uuid> <level>` on a second (the one way to a token on a
 * `--memory` server: no route issues tokens). SIGINT or SIGTERM stops accepting, lets answers
 * in flight finish, closes the engine (running jobs go back to Pending for the next start) and
 * exits 0. A second signal cuts open connections.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { TaeError } from '../errors/index.js';
import { serve } from '../http/index.js';
import { Engine, SUBSCRIPTION_LEVELS, type SubscriptionLevel } from '../service/index.js';
import { defaultDataDir } from './rules-command.js';

interface ServeFlags {
  port: number;
  host: string;
  data?: string;
  memory?: boolean;
  brand: string;
  issueToken?: SubscriptionLevel;
}

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

async function runServe(flags: ServeFlags): Promise<void> {
  const engine = await Engine.open({
    ...(flags.memory ? { memory: true } : { dataDir: flags.data ?? defaultDataDir() }),
    onInternalError: (e, id) => process.stderr.write(`tae serve: error ${id}: ${(e as Error)?.stack ?? e}\n`),
  });
  try {
    const issued = flags.issueToken ? await engine.createToken({ level: flags.issueToken }) : null;
    const server = await serve({
      engine,
      port: flags.port,
      host: flags.host,
      brand: flags.brand,
      onInternalError: (e, id) =>
        process.stderr.write(`tae serve: error ${id}: ${(e as Error)?.stack ?? e}\n`),
      onClientAbort: (r) =>
        process.stderr.write(`tae serve: client closed the connection mid-request: ${r.method} ${r.path}\n`),
    });
    process.stdout.write(`${server.url}\n`);
    if (issued !== null) process.stdout.write(`token ${issued.token} ${issued.level}\n`);
    await nextSignal();
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
