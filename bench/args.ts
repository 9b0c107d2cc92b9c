/**
 * The command line of every bench script, read here once: node's parseArgs, plus `--help`
 * (`-h`) printing the script's usage (exit 0), and for anything parseArgs refuses (an unknown
 * option, a missing value, a stray argument) or a script finds wrong (`refuse`, `numberArg`)
 * one line on stderr and exit 2, instead of parseArgs's error with its stack.
 */
import { basename } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

const script = basename(process.argv[1] ?? 'bench');

/** Exits 2 with `<script>: <message> (--help for usage)`. */
export function refuse(message: string): never {
  process.stderr.write(`${script}: ${message} (--help for usage)\n`);
  process.exit(2);
}

/**
 * The parsed command line, as `parseArgs(config)` returns it (strict: unknown options are
 * refused). `usage` is printed as is for `--help`.
 */
export function benchArgs<const T extends ParseArgsConfig>(
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  const help = { type: 'boolean', short: 'h' } as const;
  let parsed: ReturnType<typeof parseArgs<ParseArgsConfig>>;
  try {
    parsed = parseArgs({ ...config, options: { ...config.options, help } });
  } catch (e) {
    if (!String((e as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')) throw e;
    // parseArgs's message goes on with advice about `--`; its first sentence says what is wrong.
    refuse((e as Error).message.split(/\.\s/)[0]!);
  }
  if (parsed.values.help === true) {
    process.stdout.write(`${usage.trim()}\n`);
    process.exit(0);
  }
  return parsed as ReturnType<typeof parseArgs<T>>;
}

/** `text` as a number of at least `min` (an integer with `integer`), else a usage error naming `flag`. */
export function numberArg(
  flag: string,
  text: string | undefined,
  { min = 0, integer = false }: { readonly min?: number; readonly integer?: boolean } = {},
): number {
  const n = Number(text);
  if (
    text === undefined ||
    text.trim() === '' ||
    !Number.isFinite(n) ||
    n < min ||
    (integer && !Number.isInteger(n))
  )
    refuse(
      `${flag} must be ${integer ? 'an integer' : 'a number'}${min > -Infinity ? ` of at least ${min}` : ''}, not ${JSON.stringify(text)}`,
    );
  return n;
}
