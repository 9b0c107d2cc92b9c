/**
 * `tae lookup [search] [-m event_id|file_name] [--filter FIELD:OPERATOR:VALUE…]`: the bundled
 * reference data (Windows event ids, native file names), as the lookup endpoint answers it.
 */
import { type Command, Option } from 'commander';
import { isTaeError, TaeError } from '../errors/index.js';
import {
  FILTER_OPERATORS,
  LOOKUP_MODULES,
  type LookupFilter,
  type LookupRequest,
  lookup,
} from '../lookup/index.js';
import { collect, intFlag, usage } from './common.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { writeRecords } from './output.js';
import { column } from './records.js';

interface LookupFlags extends FormatFlags {
  module: string;
  filter?: string[];
  page?: string;
  show?: string;
}

export function lookupCommand(program: Command): void {
  const command = program
    .command('lookup')
    .description('look up Windows event ids or native file names in the bundled reference data')
    .argument('[search]', 'text matched in every column (an event id matches the Event ID column)', '')
    .addOption(
      new Option('-m, --module <module>', 'what to look up').choices([...LOOKUP_MODULES]).default('event_id'),
    )
    .option(
      '--filter <filter>',
      `FIELD:OPERATOR:VALUE, operator one of ${FILTER_OPERATORS.join(', ')} (repeatable)`,
      collect,
    )
    .option('--page <n>', 'page, 1 to 10', '1')
    .option('--show <n>', 'rows per page, 1 to 100', '10');
  formatOptions(command, { timesketch: false }).action(async (search: string, flags: LookupFlags) => {
    const filter = (flags.filter ?? []).map(parseFilter);
    const request = {
      search,
      module: flags.module,
      ...(filter.length ? { filter } : {}),
      page: intFlag('--page', flags.page, 1, 10),
      show: intFlag('--show', flags.show, 1, 100),
    };
    let result: Awaited<ReturnType<typeof lookup>>;
    try {
      result = await lookup(request as LookupRequest); // checked inside, as every endpoint body is
    } catch (e) {
      // "Validation failed" is the endpoint's whole message; the command line can say which field.
      if (isTaeError(e) && e.code === 'VALIDATION_FAILED')
        throw new TaeError(
          'INVALID_ARGUMENT',
          `${e.message}: ${String(e.context.field ?? '')} ${String(e.context.reason ?? '')}`.trim(),
          { cause: e },
        );
      throw e;
    }
    const columns = result.columns.map((c) => column(c.toLowerCase().replace(/[^a-z0-9]+/g, '_'), c));
    const rows = result.rows.map((r) => Object.fromEntries(columns.map((c, i) => [c.key, r[i] ?? ''])));
    await writeRecords({ columns, rows, empty: 'No matching rows.' }, formatOf(flags));
  });
}

function parseFilter(text: string): LookupFilter {
  const m = /^([^:]+):([a-z_]+):(.*)$/s.exec(text);
  if (!m || !(FILTER_OPERATORS as readonly string[]).includes(m[2]!))
    throw usage(
      `--filter must be FIELD:OPERATOR:VALUE with OPERATOR one of ${FILTER_OPERATORS.join(', ')} (got ${JSON.stringify(text)})`,
    );
  return { field: m[1]!, operator: m[2] as LookupFilter['operator'], value: m[3]! };
}
