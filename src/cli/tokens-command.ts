/** `tae tokens create [--level LEVEL]`: issue an API token on the engine in the data directory. */
import { type Command, Option } from 'commander';
import { SUBSCRIPTION_LEVELS, type SubscriptionLevel } from '../service/index.js';
import { type EngineFlags, engineOptions, withEngine } from './engine-flags.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { writeRecords } from './output.js';
import { column } from './records.js';

export function tokensCommand(program: Command): void {
  const tokens = program.command('tokens').description('API tokens of the engine in the data directory');
  const create = tokens
    .command('create')
    .description('issue a token (only its SHA-256 is stored: keep the printed token)')
    .addOption(
      new Option('--level <level>', 'subscription level (queue priority)')
        .choices(Object.keys(SUBSCRIPTION_LEVELS))
        .default('free'),
    );
  engineOptions(create, false);
  formatOptions(create, { timesketch: false }).action(
    async (flags: EngineFlags & FormatFlags & { level: SubscriptionLevel }) => {
      const format = formatOf(flags);
      const issued = await withEngine(flags, (engine) => engine.createToken({ level: flags.level }));
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
