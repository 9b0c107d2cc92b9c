/**
 * `tae rules`: the rule library from the command line. `add` imports a directory or zip
 * pack, `list` shows packs (or rules), `remove` drops a pack, `get` prints rules as the
 * retrieval endpoints answer them. The index lives in --data (or --data-dir), else $TAE_HOME, else the
 * per-user data directory ($XDG_DATA_HOME or ~/.local/share, then threat-analysis-engine).
 */
import { Argument, type Command, Option } from 'commander';
import { isTaeError, TaeError } from '../errors/index.js';
import { openRuleLibrary, RULE_KINDS, type RuleKind, type RuleLibrary } from '../rules/index.js';
import { dataOption, defaultDataDir } from './common.js';
import { inDataDir } from './no-space.js';
import { outJson } from './terminal.js';

/** Where `tae serve` and others find the default directory (defined with the shared options). */
export { defaultDataDir } from './common.js';

interface DataDirFlag {
  data?: string;
  dataDir?: string;
}

/** `--data` as the other commands spell it; `--data-dir` kept as this command's first spelling. */
const dataDirOption = () => new Option('--data-dir <dir>', 'the same as --data').hideHelp();

async function withLibrary<T>(flags: DataDirFlag, use: (library: RuleLibrary) => Promise<T> | T): Promise<T> {
  const dataDir = flags.data ?? flags.dataDir ?? defaultDataDir();
  // The library's index is a database in the data directory, written on first use too.
  const library = await openRuleLibrary({ dataDir }).catch((e: unknown) => {
    throw inDataDir(e, dataDir);
  });
  try {
    return await use(library);
  } catch (e) {
    throw inDataDir(e, dataDir);
  } finally {
    library.close();
  }
}

export function rulesCommand(program: Command): void {
  const rules = program.command('rules').description('import, list and read Sigma and YARA rule packs');

  rules
    .command('add')
    .description(
      'index a directory or zip of .yml/.yaml Sigma and .yar/.yara YARA rules (re-adding updates it)',
    )
    .argument('<pack>', 'directory or zip archive')
    .option('--name <name>', 'pack name (default: the directory or zip name)')
    .addOption(dataOption())
    .addOption(dataDirOption())
    .action(async (pack: string, flags: DataDirFlag & { name?: string }) =>
      withLibrary(flags, async (library) => {
        outJson(await library.addPack(pack, flags.name === undefined ? {} : { name: flags.name }));
      }),
    );

  rules
    .command('list')
    .description('print the packs, or with --rules the indexed rules, as JSON')
    .option('--rules', 'list rules instead of packs')
    .addOption(new Option('--kind <kind>', 'only rules of this kind').choices([...RULE_KINDS]))
    .option('--pack <name>', 'only rules of this pack')
    .addOption(dataOption())
    .addOption(dataDirOption())
    .action(async (flags: DataDirFlag & { rules?: boolean; kind?: RuleKind; pack?: string }) =>
      withLibrary(flags, (library) => {
        if (flags.rules || flags.kind !== undefined || flags.pack !== undefined)
          outJson(
            library.list({
              ...(flags.kind ? { kind: flags.kind } : {}),
              ...(flags.pack ? { pack: flags.pack } : {}),
            }),
          );
        else outJson({ packs: library.packs(), diagnostics: library.diagnostics });
      }),
    );

  rules
    .command('remove')
    .description('drop a user pack from the index')
    .argument('<name>', 'pack name')
    .addOption(dataOption())
    .addOption(dataDirOption())
    .action(async (name: string, flags: DataDirFlag) =>
      withLibrary(flags, (library) => {
        if (!library.removePack(name))
          throw new TaeError('NOT_FOUND', `no rule pack named ${name}`, { context: { pack: name } });
      }),
    );

  rules
    .command('get')
    .description('print rules by exact name as { "results": { name: [lines] } }')
    .addArgument(new Argument('<kind>', 'rule kind').choices([...RULE_KINDS]))
    .argument('<names...>', 'rule names (file stems, case-sensitive)')
    .addOption(dataOption())
    .addOption(dataDirOption())
    .action(async (kind: RuleKind, names: string[], flags: DataDirFlag) =>
      withLibrary(flags, (library) => {
        try {
          outJson(library.get(kind, names));
        } catch (e) {
          // The endpoint's message, plus which names, which the command line can afford to say.
          if (isTaeError(e) && e.code === 'NOT_FOUND')
            throw new TaeError('NOT_FOUND', `${e.message}: ${e.context.missing}`, {
              context: e.context,
              cause: e,
            });
          throw e;
        }
      }),
    );
}
