/**
 * Acceptance 1: every row of the error table (which mirrors the spec's "Messages by endpoint")
 * that the engine can produce is provoked through the public Engine methods, and the status,
 * exact message and body format are checked. `transport` rows (an HTTP front's concern) are
 * reported as not applicable. Over 400 lines because it is one table: the scenarios of every
 * row, side by side.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openSqlite } from '../native/sqlite.js';
import {
  type Auth,
  ENDPOINTS,
  type Endpoint,
  Engine,
  ERROR_ROWS,
  endpointError,
  errorResponse,
  isErrorRowId,
} from '../src/service/index.js';
import { SPEC_FILE } from './helpers/corpus.js';
import { rejection } from './helpers/engine-test.js';

const KEY = 'owner key: correct horse battery';
const OTHER_KEY = 'other key: tr0ub4dor&3 tr0ub4dor';
const ids = (n: number) => Array.from({ length: n }, () => randomUUID());

const DETAIL_FIELD_ERROR =
  'filter[0].field must be one of event_id, record_id, timestamp, provider, computer, sigma_matches, yara_matches or details.<name> (letters, digits, _ . : - [ ] and spaces, at most 128)';

interface Fixture {
  e: Engine;
  owner: Auth;
  other: Auth;
  unknown: Auth;
  pubSmall: string;
  pubBig: string;
  priv: string;
  otherPriv: string;
  privJob: string;
  /** A Completed public parse job whose runner wrote no event index. */
  doneJob: string;
  /** A public parse job whose runner runs until the engine closes. */
  runningJob: string;
  /** A public parse job (with an owner) cancelled while it ran: Failed. */
  failedJob: string;
  /** A Sigma file job. */
  sigmaJob: string;
}

interface Scenario {
  readonly name: string;
  readonly call: (f: Fixture) => Promise<unknown>;
  /** Placeholder values of the expected message. */
  readonly vars?: Record<string, string>;
}

const s = (name: string, call: Scenario['call'], vars?: Record<string, string>): Scenario =>
  vars === undefined ? { name, call } : { name, call, vars };

function fileJobScenarios(
  m: 'createParseJob' | 'createSigmaFileJob' | 'createYaraFileJob',
): Record<string, Scenario[]> {
  const extra = m === 'createParseJob' ? { run_sigma_rules: false } : { operation: 'run_community_rules' };
  const call = (f: Fixture, body: Record<string, unknown>, auth: Auth) =>
    (f.e[m] as (b: unknown, a: Auth) => Promise<unknown>).call(f.e, { ...extra, ...body }, auth);
  const tooLarge: Scenario[] =
    m === 'createYaraFileJob'
      ? [s('one 1,500-byte file over a 1,000-byte limit', (f) => call(f, { file_ids: [f.pubBig] }, {}))]
      : [
          s('1,500 + 600 bytes over a 2,000-byte limit', (f) =>
            call(f, { file_ids: [f.pubBig, f.pubSmall] }, {}),
          ),
        ];
  const rows: Record<string, Scenario[]> = {
    noFileIds: [
      s('an empty file_ids array', (f) => call(f, { file_ids: [] }, f.owner)),
      s('no file_ids field', (f) => call(f, {}, {})),
    ],
    tooManyFileIds: [s('101 ids', (f) => call(f, { file_ids: ids(101) }, {}))],
    tooLarge,
    downloadFailed: [
      s('an id no file has', (f) => call(f, { file_ids: ids(1) }, f.owner)),
      s("another owner's private file", (f) => call(f, { file_ids: [f.otherPriv] }, f.owner)),
      s('a private file, no token', (f) => call(f, { file_ids: [f.priv] }, {})),
      s('an id that is not a UUID', (f) => call(f, { file_ids: ['../etc/passwd'] }, {})),
    ],
    badRequest: [
      m === 'createParseJob'
        ? s(
            'run_sigma_rules is a string',
            (f) => call(f, { file_ids: [f.pubSmall], run_sigma_rules: 'yes' }, {}),
            {
              details: 'run_sigma_rules must be a boolean',
            },
          )
        : s('an unknown operation', (f) => call(f, { file_ids: [f.pubSmall], operation: 'run_all' }, {}), {
            details: 'operation must be run_rule or run_community_rules',
          }),
    ],
    unauthorized: [s('an unissued token', (f) => call(f, { file_ids: [f.pubSmall] }, f.unknown))],
    keyRequired: [
      s('own private file, no key', (f) => call(f, { file_ids: [f.priv] }, { token: f.owner.token })),
    ],
    keyWrong: [
      s('own private file, wrong key', (f) =>
        call(f, { file_ids: [f.priv] }, { ...f.owner, encKey: OTHER_KEY }),
      ),
      s('own private file, a key too short to be one', (f) =>
        call(f, { file_ids: [f.priv] }, { ...f.owner, encKey: 'short' }),
      ),
    ],
  };
  if (m !== 'createParseJob') {
    rows.ruleRequired = [
      s('run_rule without rule', (f) => call(f, { file_ids: [f.pubSmall], operation: 'run_rule' }, {})),
      s('run_rule with a non-Base64 rule', (f) =>
        call(f, { file_ids: [f.pubSmall], operation: 'run_rule', rule: '%%% not base64 %%%' }, {}),
      ),
    ];
  }
  return rows;
}

const b64 = (text: string) => Buffer.from(text).toString('base64');
const SIGMA_RULE = b64(
  'title: t\nlogsource: {product: windows}\ndetection:\n  s: {EventID: 1}\n  condition: s\n',
);

function dataScenarios(m: 'sigmaData' | 'yaraData'): Record<string, Scenario[]> {
  // Bodies as the endpoint receives them: any shape, checked at run time.
  const call = (f: Fixture, body: unknown, auth: Auth = {}) => f.e[m](body as never, auth);
  const data = m === 'sigmaData' ? b64('{"EventID": 1}') : b64('some bytes');
  const rule = m === 'sigmaData' ? SIGMA_RULE : b64('rule r { condition: true }');
  return {
    badData: [
      s('no test_data', (f) => call(f, { operation: 'run_rule', rule })),
      s('test_data that is not base64', (f) => call(f, { test_data: '%%%', operation: 'run_rule', rule })),
    ],
    badOperation: [s('an unknown operation', (f) => call(f, { test_data: data, operation: 'scan', rule }))],
    unauthorized: [
      s('an unissued token', (f) => call(f, { test_data: data, operation: 'run_rule', rule }, f.unknown)),
    ],
    ruleRequired: [s('run_rule without a rule', (f) => call(f, { test_data: data, operation: 'run_rule' }))],
  };
}

function ruleScenarios(m: 'sigmaRules' | 'yaraRules'): Record<string, Scenario[]> {
  return {
    badNames: [
      s('no names', (f) => f.e[m]({ rule_names: [] })),
      s('names that are not strings', (f) => f.e[m]({ rule_names: [1, 2] })),
    ],
    notFound: [s('a name no pack has', (f) => f.e[m]({ rule_names: ['no_such_rule_name'] }))],
    unauthorized: [s('an unissued token', (f) => f.e[m]({ rule_names: ['x'] }, f.unknown))],
  };
}

const SCENARIOS: Partial<Record<Endpoint, Record<string, Scenario[]>>> = {
  sigmaData: dataScenarios('sigmaData'),
  yaraData: dataScenarios('yaraData'),
  sigmaRules: ruleScenarios('sigmaRules'),
  yaraRules: ruleScenarios('yaraRules'),
  lookup: {
    unknownModule: [s('module "people"', (f) => f.e.lookup({ search: 'x', module: 'people' as 'event_id' }))],
    unauthorized: [
      s('an unissued token', (f) => f.e.lookup({ search: '4624', module: 'event_id' }, f.unknown)),
    ],
    invalid: [
      s('page 11', (f) => f.e.lookup({ search: '4624', module: 'event_id', page: 11 })),
      s('an unknown filter field', (f) =>
        f.e.lookup({
          search: '',
          module: 'file_name',
          filter: [{ field: 'Nope', operator: 'equals', value: 'a' }],
        }),
      ),
    ],
  },
  upload: {
    badMultipart: [
      s('no files', (f) => f.e.upload({ files: [] }), { details: 'no files in field "files"' }),
      s('a file without content', (f) => f.e.upload({ files: [{ name: 'a', data: 'text' as never }] }), {
        details: 'file "a" has no content',
      }),
    ],
    keyRequired: [
      s('a token without key', (f) => f.e.upload({ files: [file(1)] }, { token: f.owner.token })),
    ],
    badToken: [
      s('a token that is not a UUID v4', (f) =>
        f.e.upload({ files: [file(1)] }, { token: 'abc', encKey: KEY }),
      ),
    ],
    badKey: [
      s('a key shorter than 16 characters', (f) =>
        f.e.upload({ files: [file(1)] }, { ...f.owner, encKey: 'short' }),
      ),
      s('a key other than the one the token is bound to', (f) =>
        f.e.upload({ files: [file(1)] }, { ...f.owner, encKey: OTHER_KEY }),
      ),
    ],
    unauthorized: [s('an unissued token', (f) => f.e.upload({ files: [file(1)] }, f.unknown))],
    timeout: [
      s('a stream that stalls past the upload time limit', (f) => f.e.upload({ files: [stalled()] })),
    ],
    tooLarge: [
      s('3,001 bytes over a 3,000-byte limit', (f) => f.e.upload({ files: [file(3001)] }), { name: 'f' }),
    ],
  },
  createParseJob: fileJobScenarios('createParseJob'),
  createSigmaFileJob: fileJobScenarios('createSigmaFileJob'),
  createYaraFileJob: fileJobScenarios('createYaraFileJob'),
  getJob: {
    unauthorized: [s('an unissued token', (f) => f.e.getJob({ job_id: f.privJob }, f.unknown))],
    keyRequired: [
      s('own private job, no key', (f) => f.e.getJob({ job_id: f.privJob }, { token: f.owner.token })),
    ],
    keyWrong: [
      s('own private job, wrong key', (f) =>
        f.e.getJob({ job_id: f.privJob }, { ...f.owner, encKey: OTHER_KEY }),
      ),
    ],
    notFound: [
      s('an id no job has', (f) => f.e.getJob({ job_id: '00000000-0000-4000-8000-000000000000' }, f.owner), {
        job_id: '00000000-0000-4000-8000-000000000000',
      }),
      s('not a UUID', (f) => f.e.getJob({ job_id: 'nope' }, {}), { job_id: 'nope' }),
    ],
  },
  listJobs: {
    unauthorized: [
      s('no token', (f) => f.e.listJobs()),
      s('an unissued token', (f) => f.e.listJobs(f.unknown)),
    ],
  },
  listFiles: {
    unauthorized: [
      s('no token', (f) => f.e.listFiles()),
      s('an unissued token', (f) => f.e.listFiles(f.unknown)),
    ],
  },
  deleteJobs: {
    badId: [
      s('no ids', (f) => f.e.deleteJobs({ ids: [] }, f.owner)),
      s('a non-UUID id', (f) => f.e.deleteJobs({ ids: ['1'] }, f.owner)),
    ],
    tooManyIds: [s('101 ids', (f) => f.e.deleteJobs({ ids: ids(101) }, f.owner))],
    unauthorized: [s('no token', (f) => f.e.deleteJobs({ ids: [f.privJob] }))],
    notFound: [
      s('an id no job has', (f) => f.e.deleteJobs({ ids: ids(1) }, f.owner)),
      s("another owner's job", (f) => f.e.deleteJobs({ ids: [f.privJob] }, f.other)),
    ],
  },
  deleteFiles: {
    badId: [
      s('no ids', (f) => f.e.deleteFiles({ ids: [] }, f.owner)),
      s('a non-UUID id', (f) => f.e.deleteFiles({ ids: ['1'] }, f.owner)),
    ],
    tooManyIds: [s('101 ids', (f) => f.e.deleteFiles({ ids: ids(101) }, f.owner))],
    unauthorized: [s('an unissued token', (f) => f.e.deleteFiles({ ids: [f.priv] }, f.unknown))],
    notFound: [
      s('an id no file has', (f) => f.e.deleteFiles({ ids: ids(1) }, f.owner)),
      s("another owner's file, with one's own", (f) =>
        f.e.deleteFiles({ ids: [f.priv, f.otherPriv] }, f.owner),
      ),
      s('a public file (owned by no one)', (f) => f.e.deleteFiles({ ids: [f.pubSmall] }, f.owner)),
    ],
  },
  search: searchScenarios(),
  cancelJob: {
    badId: [s('not a UUID', (f) => f.e.cancelJob({ job_id: 'x' }, f.owner))],
    unauthorized: [s('no token', (f) => f.e.cancelJob({ job_id: f.privJob }))],
    keyRequired: [
      s('own private job, no key', (f) => f.e.cancelJob({ job_id: f.privJob }, { token: f.owner.token })),
    ],
    keyWrong: [
      s('own private job, wrong key', (f) =>
        f.e.cancelJob({ job_id: f.privJob }, { ...f.owner, encKey: OTHER_KEY }),
      ),
    ],
    notFound: [s("another owner's job", (f) => f.e.cancelJob({ job_id: f.privJob }, f.other))],
  },
};

function searchScenarios(): Record<string, Scenario[]> {
  const call = (f: Fixture, body: Record<string, unknown>, auth: Auth = {}) =>
    f.e.search({ job_id: f.doneJob, search: '', browse_events: true, ...body }, auth);
  const filter = (field: string, operator = 'equals') => ({ filter: [{ field, operator, value: 'x' }] });
  return {
    jobNotFound: [
      s('a completed parse job without an event index', (f) => call(f, {})),
      s('a Sigma file job', (f) => call(f, { job_id: f.sigmaJob })),
    ],
    notCompleted: [
      s('a job still Processing', (f) => call(f, { job_id: f.runningJob })),
      s('a Failed (cancelled) job', (f) => call(f, { job_id: f.failedJob, browse_events: false })),
    ],
    badTimeRange: [
      s('start_time after end_time', (f) => call(f, { start_time: 2000, end_time: 1000 })),
      s('a negative start_time', (f) => call(f, { start_time: -1 })),
      s('a fractional end_time', (f) => call(f, { end_time: 1.5 })),
      s('an end_time that is a string', (f) => call(f, { end_time: '2024-01-01' })),
    ],
    badRequest: [
      s('page 11', (f) => call(f, { page: 11 }), { details: 'page must be an integer from 1 to 10' }),
      s('page 0', (f) => call(f, { page: 0 }), { details: 'page must be an integer from 1 to 10' }),
      s('show 101', (f) => call(f, { show: 101 }), { details: 'show must be an integer from 1 to 100' }),
      s('no browse_events', (f) => call(f, { browse_events: undefined }), {
        details: 'browse_events must be a boolean',
      }),
      s('search is not a string', (f) => call(f, { search: 42 }), { details: 'search must be a string' }),
      s('an unknown operator', (f) => call(f, filter('provider', 'matches')), {
        details:
          'filter[0].operator must be one of equals, not_equals, contains, does_not_contain, starts_with, ends_with',
      }),
      s('an unknown field', (f) => call(f, filter('level')), { details: DETAIL_FIELD_ERROR }),
      s('a details name with a quote', (f) => call(f, filter('details.a"b')), {
        details: DETAIL_FIELD_ERROR,
      }),
      s('a details name too long', (f) => call(f, filter(`details.${'a'.repeat(129)}`)), {
        details: DETAIL_FIELD_ERROR,
      }),
    ],
    unauthorized: [s('an unissued token', (f) => call(f, {}, f.unknown))],
    keyRequired: [
      s('own private job, no key', (f) => call(f, { job_id: f.privJob }, { token: f.owner.token })),
    ],
    keyWrong: [
      s('own private job, wrong key', (f) =>
        call(f, { job_id: f.privJob }, { ...f.owner, encKey: OTHER_KEY }),
      ),
    ],
    notFound: [
      s('an id no job has', (f) => call(f, { job_id: randomUUID() })),
      s('not a UUID', (f) => call(f, { job_id: 'nope' })),
      s("another owner's private job", (f) => call(f, { job_id: f.privJob }, f.other)),
    ],
  };
}

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
}

async function settled(e: Engine, jobId: string, want: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await e.getJob({ job_id: jobId })).status === want) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${jobId} never became ${want}`);
}

function file(size: number) {
  return { name: 'f', data: new Uint8Array(size).fill(0x41) };
}

function stalled() {
  async function* data() {
    yield new Uint8Array(10);
    await new Promise(() => {}); // never resolves: the client stopped sending
  }
  return { name: 'slow', data: data() };
}

const fill = (message: string, vars: Record<string, string>) =>
  message.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? `{${k}}`);

async function setup(): Promise<Fixture> {
  const e = await Engine.open({
    memory: true,
    limits: {
      parseTotalBytes: 2000,
      sigmaTotalBytes: 2000,
      yaraTotalBytes: 1000,
      uploadFileBytes: 3000,
      uploadTimeoutMs: 300,
    },
    // A parse job with run_sigma_rules runs until cancelled or closed; one without ends at once.
    runners: {
      winevtx: (input, ctx) => (input.run_sigma_rules ? untilAborted(ctx.signal) : Promise.resolve([])),
    },
  });
  const owner = { token: (await e.createToken()).token, encKey: KEY };
  const other = { token: (await e.createToken()).token, encKey: OTHER_KEY };
  const up = async (size: number, auth: Auth) =>
    (await e.upload({ files: [file(size)] }, auth)).file_ids[0]![0];
  const f: Fixture = {
    e,
    owner,
    other,
    unknown: { token: randomUUID(), encKey: KEY },
    pubSmall: await up(600, {}),
    pubBig: await up(1500, {}),
    priv: await up(500, owner),
    otherPriv: await up(500, other),
    privJob: '',
    doneJob: '',
    runningJob: '',
    failedJob: '',
    sigmaJob: '',
  };
  f.privJob = (await e.createParseJob({ file_ids: [f.priv], run_sigma_rules: false }, owner)).id;
  f.doneJob = (await e.createParseJob({ file_ids: [f.pubSmall], run_sigma_rules: false })).id;
  f.runningJob = (await e.createParseJob({ file_ids: [f.pubSmall], run_sigma_rules: true })).id;
  const ownerNoKey = { token: owner.token };
  f.failedJob = (await e.createParseJob({ file_ids: [f.pubSmall], run_sigma_rules: true }, ownerNoKey)).id;
  await settled(e, f.failedJob, 'Processing');
  await e.cancelJob({ job_id: f.failedJob }, ownerNoKey);
  f.sigmaJob = (await e.createSigmaFileJob({ file_ids: [f.pubSmall], operation: 'run_community_rules' })).id;
  await settled(e, f.doneJob, 'Completed');
  await settled(e, f.runningJob, 'Processing');
  return f;
}

/** The table's rows with their typed ids. */
const ROWS = Object.keys(ERROR_ROWS)
  .filter(isErrorRowId)
  .map((id) => [id, ERROR_ROWS[id]!] as const);

describe('error table rows, provoked through the Engine', () => {
  let f: Fixture;
  before(async () => {
    f = await setup();
  });
  after(() => f.e.close());

  for (const [id, row] of ROWS) {
    const label = `${id}: ${row.status} "${row.message}" as ${ENDPOINTS[row.endpoint].bodyFormat}`;
    if (row.status === 500) continue; // provoked below, on a damaged database
    if (row.code === 'NO_SPACE') continue; // provoked on a full disk: test/store-full-disk.test.ts
    const slug = id.slice(row.endpoint.length + 1);
    const scenarios = SCENARIOS[row.endpoint]?.[slug] ?? [];
    if (row.origin === 'transport') {
      assert.equal(scenarios.length, 0, `${id} is a transport row: the engine never produces it`);
      test(label, { skip: 'transport row: an HTTP front answers it, not the engine' }, () => {});
      continue;
    }
    test(label, async () => {
      assert.ok(scenarios.length > 0, `no scenario provokes ${id}`);
      for (const sc of scenarios) {
        const err = await rejection(sc.call(f));
        const where = `${id} / ${sc.name}`;
        assert.equal(err.status, row.status, where);
        assert.equal(err.message, fill(row.message, sc.vars ?? {}), where);
        assert.equal(err.bodyFormat, ENDPOINTS[row.endpoint].bodyFormat, where);
        assert.equal(err.context.row, id, where);
      }
    });
  }
});

describe('500 rows: unexpected failures answer with an error id', () => {
  let dir: string;
  let e: Engine;
  let token: string;
  const seen: string[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tae-errors-'));
    e = await Engine.open({ dataDir: dir, onInternalError: (_, errorId) => seen.push(errorId) });
    token = (await e.createToken()).token;
    // Damage the database under the running engine: every file or job query now fails.
    const db = openSqlite(join(dir, 'engine.db'));
    db.exec('DROP TABLE job_results; DROP TABLE jobs; DROP TABLE files;');
    db.close();
    // And the rule library, opened on first use, finds garbage where its index should be.
    writeFileSync(join(dir, 'rule-library.sqlite'), 'not a database, '.repeat(512));
  });
  after(async () => {
    await e.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const auth = () => ({ token, encKey: KEY });
  const calls: Partial<Record<Endpoint, () => Promise<unknown>>> = {
    upload: () => e.upload({ files: [file(10)] }),
    createParseJob: () => e.createParseJob({ file_ids: ids(1), run_sigma_rules: false }),
    createSigmaFileJob: () => e.createSigmaFileJob({ file_ids: ids(1), operation: 'run_community_rules' }),
    createYaraFileJob: () => e.createYaraFileJob({ file_ids: ids(1), operation: 'run_community_rules' }),
    getJob: () => e.getJob({ job_id: randomUUID() }),
    listJobs: () => e.listJobs(auth()),
    listFiles: () => e.listFiles(auth()),
    deleteJobs: () => e.deleteJobs({ ids: ids(1) }, auth()),
    deleteFiles: () => e.deleteFiles({ ids: ids(1) }, auth()),
    cancelJob: () => e.cancelJob({ job_id: randomUUID() }, auth()),
    search: () => e.search({ job_id: randomUUID(), search: 'x', browse_events: true }),
    sigmaRules: () => e.sigmaRules({ rule_names: ['proc_creation_x'] }),
    yaraRules: () => e.yaraRules({ rule_names: ['x'] }),
  };
  for (const [id, row] of ROWS.filter(([, r]) => r.status === 500)) {
    test(`${id}: 500 as ${ENDPOINTS[row.endpoint].bodyFormat}, quoting a fresh error id`, async () => {
      const call = calls[row.endpoint];
      assert.ok(call, `no call provokes ${id}`);
      const err = await rejection(call());
      const errorId = String(err.context.error_id);
      assert.match(errorId, /^[0-9a-f-]{36}$/);
      assert.equal(err.status, 500);
      assert.equal(err.message, fill(row.message, { error_id: errorId }));
      assert.equal(err.bodyFormat, ENDPOINTS[row.endpoint].bodyFormat);
      assert.ok(seen.includes(errorId), 'onInternalError saw the same id');
    });
  }

  test('the upload that failed at its final commit left no content behind', () => {
    assert.deepEqual(readdirSync(join(dir, 'files')), []);
    assert.deepEqual(readdirSync(join(dir, 'tmp')), []);
  });
});

const SPEC = SPEC_FILE;

test('every quoted message of the spec table is a row of its endpoint with a listed status', {
  skip: existsSync(SPEC) ? false : 'spec not found',
}, () => {
  const text = readFileSync(SPEC, 'utf8');
  const section = text.slice(text.indexOf('Messages by endpoint:'), text.indexOf('In-band analysis errors'));
  const bySpecName = new Map<string, Endpoint>(
    Object.entries(ENDPOINTS).map(([k, v]) => [v.specName, k as Endpoint]),
  );
  let checked = 0;
  for (const line of section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Endpoint'))) {
    const [names, statuses, messages] = line
      .split('|')
      .slice(1, 4)
      .map((c) => c.trim()) as [string, string, string];
    const allowed = statuses.split(/[;,]\s*/).map(Number);
    for (const quoted of messages.matchAll(/`([^`]+)`/g)) {
      const message = quoted[1]!.replace('<details>', '{details}');
      for (const name of names.split(', ')) {
        const endpoint = bySpecName.get(name);
        assert.ok(endpoint, `unknown spec endpoint ${name}`);
        const match = Object.values(ERROR_ROWS).find(
          (r) => r.endpoint === endpoint && r.message === message && allowed.includes(r.status),
        );
        assert.ok(match, `${name} ${statuses} "${message}" has no row`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 30, `only ${checked} messages found`);
});

test('an error becomes its HTTP answer: JSON {error} or plain text, as its endpoint prescribes', () => {
  assert.deepEqual(errorResponse(endpointError('deleteFiles.notFound')), {
    status: 404,
    contentType: 'application/json',
    body: '{"error":"File not found"}',
  });
  assert.deepEqual(errorResponse(endpointError('deleteJobs.notFound')), {
    status: 404,
    contentType: 'text/plain; charset=utf-8',
    body: 'Job ID not found',
  });
});
