/** The lookup function: search semantics, the six operators on every column, paging bounds, errors. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isTaeError } from '../src/errors/index.js';
import {
  COLUMNS,
  createLookupDataset,
  EVENT_ID_COLUMNS,
  FILE_NAME_COLUMNS,
  type FILTER_OPERATORS,
  type LookupModule,
  type LookupRequest,
  lookupSync,
} from '../src/lookup/index.js';

/** A small dataset we control, so every expectation is computed by hand. */
const EVENTS = [
  [
    '4624',
    'Windows 10+',
    '2',
    'Microsoft-Windows-Security-Auditing',
    'An account logged on',
    'TargetUserName|LogonType',
    'Security',
    'Logon',
    '',
    't',
  ],
  [
    '4625',
    'Windows Vista+',
    '0',
    'Microsoft-Windows-Security-Auditing',
    'An account failed to log on',
    'TargetUserName|Status',
    'Security',
    'Logon',
    '',
    't',
  ],
  [
    '14624',
    'Windows 7+',
    '0',
    'Example-Provider',
    'Nothing about accounts',
    'Alpha',
    'Example',
    'Other',
    'x',
    't',
  ],
  [
    '1',
    'Windows 7+',
    '5',
    'Microsoft-Windows-Sysmon',
    'Process creation',
    'Image|CommandLine',
    'Sysmon',
    'ProcessCreate',
    'schema 4.90',
    't',
  ],
];
const FILES = [
  [
    'cmd.exe',
    'C:\\Windows\\System32\\cmd.exe',
    'Windows Command Processor',
    'Microsoft® Windows® Operating System',
    'Microsoft Corporation',
    'C:\\Windows\\system32\\cmd.exe',
  ],
  [
    'cmdkey.exe',
    'C:\\Windows\\System32\\cmdkey.exe',
    'Credential Manager Command Line Utility',
    'Microsoft® Windows® Operating System',
    'Microsoft Corporation',
    '',
  ],
  [
    'notepad.exe',
    'C:\\Windows\\notepad.exe',
    'Notepad',
    'Microsoft® Windows® Operating System',
    'Microsoft Corporation',
    'Untitled - Notepad',
  ],
];
const dataset = createLookupDataset({ includeBuiltin: false, eventId: EVENTS, fileName: FILES });
/** Bodies as the endpoint receives them: any shape, checked at run time. */
const run = (body: Record<string, unknown>) => lookupSync(body as unknown as LookupRequest, { dataset });
const ids = (body: Record<string, unknown>) => run(body).rows.map((r) => r[0]);

function rejects(body: unknown, status: number, message: string, field?: string): void {
  assert.throws(
    () => lookupSync(body as LookupRequest, { dataset }),
    (e: unknown) => {
      assert.ok(isTaeError(e));
      assert.equal(e.status, status);
      assert.equal(e.message, message);
      assert.equal(e.bodyFormat, 'text');
      if (field !== undefined) assert.equal(e.context.field, field);
      return true;
    },
  );
}

describe('lookup output', () => {
  test('returns exactly { columns, rows } with the module columns, Event ID first', () => {
    const out = run({ search: '4625', module: 'event_id' });
    assert.deepEqual(Object.keys(out), ['columns', 'rows']);
    assert.deepEqual(out.columns, [...EVENT_ID_COLUMNS]);
    assert.equal(out.columns[0], 'Event ID');
    assert.deepEqual(out.rows, [EVENTS[1]]);
    assert.deepEqual(run({ search: 'notepad', module: 'file_name' }).columns, [...FILE_NAME_COLUMNS]);
  });

  test('returned rows are copies: mutating them does not change the dataset', () => {
    const first = run({ search: '4624', module: 'event_id' });
    (first.rows[0] as string[])[4] = 'changed';
    assert.equal(run({ search: '4624', module: 'event_id' }).rows[0]?.[4], 'An account logged on');
  });
});

describe('search semantics', () => {
  test('a numeric event_id search matches the Event ID partially, exact match first, then prefix, then substring', () => {
    assert.deepEqual(ids({ search: '4624', module: 'event_id' }), ['4624', '14624']);
    assert.deepEqual(ids({ search: '462', module: 'event_id' }), ['4624', '4625', '14624']);
    assert.deepEqual(ids({ search: '1', module: 'event_id' }), ['1', '14624']);
  });

  test('a numeric event_id search does not match digits in other columns', () => {
    // "2" appears in the Version column of 4624 but only Event IDs are matched for numbers
    assert.deepEqual(ids({ search: '2', module: 'event_id' }), ['4624', '4625', '14624']);
  });

  test('a text search matches any field, case-insensitively', () => {
    assert.deepEqual(ids({ search: 'COMMANDLINE', module: 'event_id' }), ['1']);
    assert.deepEqual(ids({ search: 'log on', module: 'event_id' }), ['4625']);
    assert.deepEqual(ids({ search: 'untitled - NOTEPAD', module: 'file_name' }), ['notepad.exe']);
  });

  test('file_name search ranks the exact file name before prefix and substring hits', () => {
    assert.deepEqual(ids({ search: 'cmd', module: 'file_name' }), ['cmd.exe', 'cmdkey.exe']);
    assert.deepEqual(ids({ search: 'cmdkey.exe', module: 'file_name' }), ['cmdkey.exe']);
    assert.deepEqual(ids({ search: 'command', module: 'file_name' }), ['cmd.exe', 'cmdkey.exe']);
  });

  test('an empty search with a filter returns every row the filter keeps', () => {
    assert.deepEqual(
      ids({
        search: '',
        module: 'event_id',
        filter: [{ field: 'Channel', operator: 'equals', value: 'security' }],
      }),
      ['4624', '4625'],
    );
  });

  test('surrounding spaces in the search are ignored', () => {
    assert.deepEqual(ids({ search: '  4625 ', module: 'event_id' }), ['4625']);
  });
});

describe('filters', () => {
  const cases: Record<(typeof FILTER_OPERATORS)[number], [string, string[]]> = {
    equals: ['security', ['4624', '4625']],
    not_equals: ['security', ['14624', '1']],
    contains: ['ecu', ['4624', '4625']],
    does_not_contain: ['ecu', ['14624', '1']],
    starts_with: ['sys', ['1']],
    ends_with: ['ple', ['14624']],
  };
  for (const [operator, [value, expected]] of Object.entries(cases)) {
    test(`operator ${operator} compares whole cells case-insensitively`, () => {
      assert.deepEqual(
        ids({
          search: '',
          module: 'event_id',
          filter: [{ field: 'Channel', operator, value: value.toUpperCase() }],
        }),
        expected,
      );
    });
  }

  for (const module of ['event_id', 'file_name'] as LookupModule[]) {
    const rows = module === 'event_id' ? EVENTS : FILES;
    COLUMNS[module].forEach((field, col) => {
      test(`${module} accepts filter field "${field}" and filters on that column`, () => {
        const value = rows[0]?.[col] ?? '';
        const expected = rows
          .filter((r) => (r[col] ?? '').toLowerCase() === value.toLowerCase())
          .map((r) => r[0]);
        const got = ids({ search: '', module, filter: [{ field, operator: 'equals', value }] });
        assert.deepEqual([...got].sort(), [...expected].sort());
      });
    });
  }

  test('the field name EventID is accepted as an alias of Event ID', () => {
    assert.deepEqual(
      ids({
        search: '',
        module: 'event_id',
        filter: [{ field: 'EventID', operator: 'equals', value: '4625' }],
      }),
      ['4625'],
    );
  });

  test('several filters combine with AND, and apply together with the search', () => {
    const filter = [
      { field: 'Provider', operator: 'starts_with', value: 'microsoft' },
      { field: 'Data Fields', operator: 'contains', value: 'targetusername' },
    ];
    assert.deepEqual(ids({ search: '', module: 'event_id', filter }), ['4624', '4625']);
    assert.deepEqual(ids({ search: 'failed', module: 'event_id', filter }), ['4625']);
  });
});

describe('paging', () => {
  const all = {
    search: '',
    module: 'event_id',
    filter: [{ field: 'Event ID', operator: 'not_equals', value: 'x' }],
  };
  test('show limits the page size and page selects the slice', () => {
    assert.deepEqual(ids({ ...all, show: 2 }), ['4624', '4625']);
    assert.deepEqual(ids({ ...all, show: 2, page: 2 }), ['14624', '1']);
    assert.deepEqual(ids({ ...all, show: 3, page: 2 }), ['1']);
  });
  test('defaults are page 1 and show 10', () => {
    assert.equal(ids(all).length, 4);
  });
  test('the bounds 1 and 10 for page, 1 and 100 for show are accepted', () => {
    for (const [page, show] of [
      [1, 1],
      [10, 1],
      [1, 100],
      [10, 100],
    ])
      assert.ok(Array.isArray(run({ ...all, page, show }).rows));
  });
  test('a page past the last result returns the columns and no rows', () => {
    const out = run({ ...all, page: 10, show: 100 });
    assert.deepEqual(out, { columns: [...EVENT_ID_COLUMNS], rows: [] });
  });
  for (const [field, value] of [
    ['page', 0],
    ['page', 11],
    ['page', 1.5],
    ['page', '2'],
    ['show', 0],
    ['show', 101],
    ['show', -1],
    ['show', true],
  ] as const) {
    test(`${field} = ${JSON.stringify(value)} fails with 422 Validation failed`, () => {
      rejects({ ...all, [field]: value }, 422, 'Validation failed', field);
    });
  }
  test('null page and show mean the defaults', () => {
    assert.equal(ids({ ...all, page: null, show: null }).length, 4);
  });
});

describe('errors', () => {
  test('an unknown module string fails with 400 Unknown lookup module', () => {
    rejects({ search: 'x', module: 'registry' }, 400, 'Unknown lookup module', 'module');
    rejects({ search: 'x', module: 'EVENT_ID' }, 400, 'Unknown lookup module', 'module');
  });
  test('a missing or non-string module fails with 422', () => {
    rejects({ search: 'x' }, 422, 'Validation failed', 'module');
    rejects({ search: 'x', module: 1 }, 422, 'Validation failed', 'module');
  });
  test('a body that is not an object fails with 422', () => {
    for (const body of [null, 'x', 42, []]) rejects(body, 422, 'Validation failed', 'body');
  });
  test('search must be a string; empty only with filters', () => {
    rejects({ module: 'event_id' }, 422, 'Validation failed', 'search');
    rejects({ search: 4624, module: 'event_id' }, 422, 'Validation failed', 'search');
    rejects({ search: '', module: 'event_id' }, 422, 'Validation failed', 'search');
    rejects({ search: '   ', module: 'event_id', filter: [] }, 422, 'Validation failed', 'search');
  });
  test('overlong or control-character search text fails with 422', () => {
    rejects({ search: 'a'.repeat(1001), module: 'file_name' }, 422, 'Validation failed', 'search');
    rejects({ search: 'a\tb', module: 'file_name' }, 422, 'Validation failed', 'search');
  });
  test('malformed filters fail with 422 naming the bad part', () => {
    const base = { search: '', module: 'event_id' };
    rejects({ ...base, filter: {} }, 422, 'Validation failed', 'filter');
    rejects({ ...base, filter: ['x'] }, 422, 'Validation failed', 'filter[0]');
    rejects(
      { ...base, filter: [{ field: 'Nope', operator: 'equals', value: 'x' }] },
      422,
      'Validation failed',
      'filter[0].field',
    );
    rejects(
      { ...base, filter: [{ field: 'File Name', operator: 'equals', value: 'x' }] },
      422,
      'Validation failed',
      'filter[0].field',
    );
    rejects(
      { ...base, filter: [{ field: 'Provider', operator: 'like', value: 'x' }] },
      422,
      'Validation failed',
      'filter[0].operator',
    );
    rejects(
      { ...base, filter: [{ field: 'Provider', operator: 'equals', value: 3 }] },
      422,
      'Validation failed',
      'filter[0].value',
    );
    const many = Array.from({ length: 26 }, () => ({ field: 'Provider', operator: 'contains', value: 'm' }));
    rejects({ ...base, filter: many }, 422, 'Validation failed', 'filter');
  });
  test('a bad options.dataset is refused naming the option', () => {
    assert.throws(
      () => lookupSync({ search: 'x', module: 'event_id' }, { dataset: {} as never }),
      /options\.dataset/,
    );
  });
});
