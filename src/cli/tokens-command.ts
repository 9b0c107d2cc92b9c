/**
 * `tae tokens create [--level LEVEL]`: issue an API token on the engine in the data directory,
 * also while a `tae serve` holds it (the token row is added beside the running engine, which
 * accepts it at once). For `tae serve --memory`, use `tae serve --issue-token LEVEL`.
 */
import { type Command, Option } from 'commander';
import { issueToken, SUBSCRIPTION_LEVELS, type SubscriptionLevel } from '../service/index.js';
import { defaultDataDir } from './common.js';
import { type EngineFlags, engineOptions } from './engine-flags.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { inDataDir } from './no-space.js';
import { writeRecords } from './output.js';
import { column } from './records.js';

export function tokensCommand(program: Command): void {
  const tokens = program.command('tokens').description('API tokens of the engine in the data directory');
  const create = tokens
    .command('create')
    .description('issue a token, also beside a running tae serve (only its SHA-256 is stored: keep it)')
    .addOption(
      new Option('--level <level>', 'subscription level (queue priority)')
        .choices(Object.keys(SUBSCRIPTION_LEVELS))
        .default('free'),
    );
  engineOptions(create, false);
  formatOptions(create, { timesketch: false }).action(
    async (flags: EngineFlags & FormatFlags & { level: SubscriptionLevel }) => {
      const format = formatOf(flags);
      const dataDir = flags.data ?? defaultDataDir();
      const issued = await issueToken(dataDir, { level: flags.level }).catch((e: unknown) => {
        throw inDataDir(e, dataDir);
      });
      await writeRecords(
        {
          columns: [column('token', 'Token'), column('level', 'Level')],
          rows: [{ token: issued.token, level: issued.level }],
        },
        format,
      );
    },
  );
}
