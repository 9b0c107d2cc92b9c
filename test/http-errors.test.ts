/**
 * Acceptance 1 over HTTP: every row of the error table, provoked through `serve()` on a free
 * loopback port with real requests (the scenarios follow test/service-errors.test.ts), checked
 * for status, Content-Type and the exact body bytes. Transport rows (413 on job bodies, 408 and
 * 413 on upload, 429 on YARA file jobs) are produced by the HTTP front itself. The 500 rows
 * are provoked on a damaged database and quote the error id the engine reported.
 * Over 400 lines because it is one table: the scenarios of every row, side by side.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openSqlite } from '../native/sqlite.js';
import { type RunningServer, serve } from '../src/http/index.js';
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

const KEY = 'owner key: correct horse battery';
const OTHER_KEY = 'other key: tr0ub4dor&3 tr0ub4dor';
const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** One HTTP request: JSON body, multipart files, a raw body, or a stalled raw upload. */
interface Req {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly auth?: Auth;
  readonly json?: unknown;
  readonly files?: readonly (readonly [string, number])[];
  /** Multipart parts under another field name. */
  readonly otherField?: boolean;
  readonly body?: string;
  readonly contentType?: string;
  /** Send headers and part of a multipart body, then nothing. */
  readonly stall?: boolean;
  /** Send to the server with a rate limit of one request per minute, twice. */
  readonly limited?: boolean;
}

interface Fixture {
  owner: Auth;
  other: Auth;
  unknown: Auth;
  pubSmall: string;
  pubBig: string;
  priv: string;
  otherPriv: string;
  privJob: string;
  /** A public parse job its runner holds in Processing until the engine closes. */
  heldJob: string;
  /** A public YARA file job: it has no event index to search. */
  yaraJob: string;
}

interface Scenario {
  readonly name: string;
  readonly req: (f: Fixture) => Req;
  readonly vars?: Record<string, string>;
}

const s = (name: string, req: Scenario['req'], vars?: Record<string, string>): Scenario =>
  vars === undefined ? { name, req } : { name, req, vars };
const post = (path: string, json: unknown, auth: Auth = {}): Req => ({ method: 'POST', path, json, auth });
const upload = (files: NonNullable<Req['files']>, auth: Auth = {}): Req => ({
  method: 'POST',
  path: '/upload',
  files,
  auth,
});

function fileJobScenarios(m: 'createParseJob' | 'createSigmaFileJob' | 'createYaraFileJob') {
  const path = ENDPOINTS[m].path;
  const extra = m === 'createParseJob' ? { run_sigma_rules: false } : { operation: 'run_community_rules' };
  const job = (body: Record<string, unknown>, auth: Auth = {}) => post(path, { ...extra, ...body }, auth);
  const rows: Record<string, Scenario[]> = {
    noFileIds: [
      s('an empty file_ids array', (f) => job({ file_ids: [] }, f.owner)),
      s('no file_ids field', () => job({})),
    ],
    tooManyFileIds: [s('101 ids', () => job({ file_ids: ids(101) }))],
    tooLarge: [
      m === 'createYaraFileJob'
        ? s('one 1,500-byte file over a 1,000-byte limit', (f) => job({ file_ids: [f.pubBig] }))
        : s('1,500 + 600 bytes over a 2,000-byte limit', (f) => job({ file_ids: [f.pubBig, f.pubSmall] })),
    ],
    downloadFailed: [
      s('an id no file has', (f) => job({ file_ids: ids(1) }, f.owner)),
      s("another owner's private file", (f) => job({ file_ids: [f.otherPriv] }, f.owner)),
      s('an id that is not a UUID', () => job({ file_ids: ['../etc/passwd'] })),
    ],
    badRequest: [
      m === 'createParseJob'
        ? s('run_sigma_rules is a string', (f) => job({ file_ids: [f.pubSmall], run_sigma_rules: 'yes' }), {
            details: 'run_sigma_rules must be a boolean',
          })
        : s('an unknown operation', (f) => job({ file_ids: [f.pubSmall], operation: 'run_all' }), {
            details: 'operation must be run_rule or run_community_rules',
          }),
      s(
        'a body that is not JSON',
        () => ({ method: 'POST', path, body: '{"file_ids": [', contentType: 'application/json' }),
        {
          details: 'malformed JSON body',
        },
      ),
      s(
        'a body sent as text/plain',
        () => ({ method: 'POST', path, body: '{}', contentType: 'text/plain' }),
        {
          details: 'Content-Type must be application/json',
        },
      ),
    ],
    unauthorized: [s('an unissued token', (f) => job({ file_ids: [f.pubSmall] }, f.unknown))],
    keyRequired: [
      s('own private file, no key', (f) => job({ file_ids: [f.priv] }, { token: f.owner.token })),
    ],
    keyWrong: [
      s('own private file, wrong key', (f) => job({ file_ids: [f.priv] }, { ...f.owner, encKey: OTHER_KEY })),
    ],
    payloadTooLarge: [
      s('a body over the JSON limit', () => job({ file_ids: ids(1), pad: 'x'.repeat(20_000) })),
    ],
  };
  if (m !== 'createParseJob') {
    rows.ruleRequired = [
      s('run_rule without rule', (f) => job({ file_ids: [f.pubSmall], operation: 'run_rule' })),
      s('run_rule with a non-Base64 rule', (f) =>
        job({ file_ids: [f.pubSmall], operation: 'run_rule', rule: '%%% not base64 %%%' }),
      ),
    ];
  }
  if (m === 'createYaraFileJob') {
    rows.rateLimited = [
      s('a second job within the window', (f) => ({ ...job({ file_ids: [f.pubSmall] }), limited: true })),
    ];
  }
  return rows;
}

function dataScenarios(m: 'sigmaData' | 'yaraData'): Record<string, Scenario[]> {
  const path = ENDPOINTS[m].path;
  const data = m === 'sigmaData' ? b64('{"EventID": 1}') : b64('some bytes');
  const rule =
    m === 'sigmaData'
      ? b64('title: t\nlogsource: {product: windows}\ndetection:\n  s: {EventID: 1}\n  condition: s\n')
      : b64('rule r { condition: true }');
  return {
    badData: [
      s('no test_data', () => post(path, { operation: 'run_rule', rule })),
      s('test_data that is not base64', () => post(path, { test_data: '%%%', operation: 'run_rule', rule })),
    ],
    badOperation: [s('an unknown operation', () => post(path, { test_data: data, operation: 'scan', rule }))],
    unauthorized: [
      s('an unissued token', (f) => post(path, { test_data: data, operation: 'run_rule', rule }, f.unknown)),
    ],
    ruleRequired: [
      s('run_rule without a rule', () => post(path, { test_data: data, operation: 'run_rule' })),
    ],
  };
}

function ruleScenarios(m: 'sigmaRules' | 'yaraRules'): Record<string, Scenario[]> {
  const path = ENDPOINTS[m].path;
  return {
    badNames: [
      s('no names', () => post(path, { rule_names: [] })),
      s('names that are not strings', () => post(path, { rule_names: [1, 2] })),
    ],
    notFound: [s('a name no pack has', () => post(path, { rule_names: ['no_such_rule_name'] }))],
    unauthorized: [s('an unissued token', (f) => post(path, { rule_names: ['x'] }, f.unknown))],
  };
}

const NO_JOB = '00000000-0000-4000-8000-000000000000';

const SEARCH = '/analysis/winevtx/search';
const query = (job_id: string, extra: Record<string, unknown> = {}) => ({
  job_id,
  search: 'x',
  browse_events: true,
  ...extra,
});

const searchScenarios: Record<string, Scenario[]> = {
  jobNotFound: [s('a YARA file job (no event index)', (f) => post(SEARCH, query(f.yaraJob)))],
  notCompleted: [s('a parse job still Processing', (f) => post(SEARCH, query(f.heldJob)))],
  badTimeRange: [
    s('start_time after end_time', (f) => post(SEARCH, query(f.heldJob, { start_time: 10, end_time: 5 }))),
  ],
  badRequest: [
    s('search is a number', (f) => post(SEARCH, query(f.heldJob, { search: 5 })), {
      details: 'search must be a string',
    }),
    s(
      'a body that is not JSON',
      () => ({ method: 'POST', path: SEARCH, body: '{', contentType: 'application/json' }),
      {
        details: 'malformed JSON body',
      },
    ),
  ],
  unauthorized: [s('an unissued token', (f) => post(SEARCH, query(f.heldJob), f.unknown))],
  keyRequired: [
    s('own private job, no key', (f) => post(SEARCH, query(f.privJob), { token: f.owner.token })),
  ],
  keyWrong: [
    s('own private job, wrong key', (f) => post(SEARCH, query(f.privJob), { ...f.owner, encKey: OTHER_KEY })),
  ],
  notFound: [
    s('an id no job has', (f) => post(SEARCH, query(NO_JOB), f.owner)),
    s("another owner's private job", (f) => post(SEARCH, query(f.privJob), f.other)),
  ],
};

const SCENARIOS: Partial<Record<Endpoint, Record<string, Scenario[]>>> = {
  upload: {
    badMultipart: [
      s('a form without files', () => upload([]), { details: 'no files in field "files"' }),
      s('a file under another field name', () => ({ ...upload([['a', 3]]), otherField: true }), {
        details: 'no files in field "files"',
      }),
      s(
        'a JSON body',
        () => ({ method: 'POST', path: '/upload', body: '{}', contentType: 'application/json' }),
        {
          details: 'Content-Type must be multipart/form-data',
        },
      ),
      s(
        'a form cut off inside a part',
        () => ({
          method: 'POST',
          path: '/upload',
          contentType: 'multipart/form-data; boundary=XX',
          body: '--XX\r\nContent-Disposition: form-data; name="files"; filename="a"\r\n\r\nabc',
        }),
        { details: 'Unexpected end of form' },
      ),
    ],
    keyRequired: [s('a token without key', (f) => upload([['f', 1]], { token: f.owner.token }))],
    badToken: [s('a token that is not a UUID v4', () => upload([['f', 1]], { token: 'abc', encKey: KEY }))],
    badKey: [
      s('a key shorter than 16 characters', (f) => upload([['f', 1]], { ...f.owner, encKey: 'short' })),
      s('a key other than the bound one', (f) => upload([['f', 1]], { ...f.owner, encKey: OTHER_KEY })),
    ],
    unauthorized: [s('an unissued token', (f) => upload([['f', 1]], f.unknown))],
    timeout: [s('a body that stops arriving', () => ({ method: 'POST', path: '/upload', stall: true }))],
    tooLarge: [s('3,001 bytes over a 3,000-byte limit', () => upload([['f', 3001]]), { name: 'f' })],
  },
  createParseJob: fileJobScenarios('createParseJob'),
  search: searchScenarios,
  createSigmaFileJob: fileJobScenarios('createSigmaFileJob'),
  createYaraFileJob: fileJobScenarios('createYaraFileJob'),
  sigmaData: dataScenarios('sigmaData'),
  yaraData: dataScenarios('yaraData'),
  sigmaRules: ruleScenarios('sigmaRules'),
  yaraRules: ruleScenarios('yaraRules'),
  lookup: {
    unknownModule: [s('module "people"', () => post('/analysis/lookup', { search: 'x', module: 'people' }))],
    unauthorized: [
      s('an unissued token', (f) =>
        post('/analysis/lookup', { search: '4624', module: 'event_id' }, f.unknown),
      ),
    ],
    invalid: [s('page 11', () => post('/analysis/lookup', { search: '4624', module: 'event_id', page: 11 }))],
  },
  getJob: {
    unauthorized: [
      s('an unissued token', (f) => ({ method: 'GET', path: `/analysis/job/${f.privJob}`, auth: f.unknown })),
    ],
    keyRequired: [
      s('own private job, no key', (f) => ({
        method: 'GET',
        path: `/analysis/job/${f.privJob}`,
        auth: { token: f.owner.token },
      })),
    ],
    keyWrong: [
      s('own private job, wrong key', (f) => ({
        method: 'GET',
        path: `/analysis/job/${f.privJob}`,
        auth: { ...f.owner, encKey: OTHER_KEY },
      })),
    ],
    notFound: [
      s('an id no job has', (f) => ({ method: 'GET', path: `/analysis/job/${NO_JOB}`, auth: f.owner }), {
        job_id: NO_JOB,
      }),
      s('not a UUID', () => ({ method: 'GET', path: '/analysis/job/nope' }), { job_id: 'nope' }),
    ],
  },
  listJobs: {
    unauthorized: [
      s('no token', () => ({ method: 'GET', path: '/analysis/job/list' })),
      s('an unissued token', (f) => ({ method: 'GET', path: '/analysis/job/list', auth: f.unknown })),
    ],
  },
  listFiles: {
    unauthorized: [
      s('no token', () => ({ method: 'GET', path: '/analysis/file/list' })),
      s('an unissued token', (f) => ({ method: 'GET', path: '/analysis/file/list', auth: f.unknown })),
    ],
  },
  deleteJobs: {
    badId: [
      s('no ids', (f) => post('/analysis/job/delete', { ids: [] }, f.owner)),
      s('a non-UUID id', (f) => post('/analysis/job/delete', { ids: ['1'] }, f.owner)),
    ],
    tooManyIds: [s('101 ids', (f) => post('/analysis/job/delete', { ids: ids(101) }, f.owner))],
    unauthorized: [s('no token', (f) => post('/analysis/job/delete', { ids: [f.privJob] }))],
    notFound: [
      s('an id no job has', (f) => post('/analysis/job/delete', { ids: ids(1) }, f.owner)),
      s("another owner's job", (f) => post('/analysis/job/delete', { ids: [f.privJob] }, f.other)),
    ],
  },
  deleteFiles: {
    badId: [
      s('no ids', (f) => post('/analysis/file/delete', { ids: [] }, f.owner)),
      s('a non-UUID id', (f) => post('/analysis/file/delete', { ids: ['1'] }, f.owner)),
    ],
    tooManyIds: [s('101 ids', (f) => post('/analysis/file/delete', { ids: ids(101) }, f.owner))],
    unauthorized: [
      s('an unissued token', (f) => post('/analysis/file/delete', { ids: [f.priv] }, f.unknown)),
    ],
    notFound: [
      s('an id no file has', (f) => post('/analysis/file/delete', { ids: ids(1) }, f.owner)),
      s("another owner's file, with one's own", (f) =>
        post('/analysis/file/delete', { ids: [f.priv, f.otherPriv] }, f.owner),
      ),
    ],
  },
  cancelJob: {
    badId: [s('not a UUID', (f) => post('/analysis/job/cancel', { job_id: 'x' }, f.owner))],
    unauthorized: [s('no token', (f) => post('/analysis/job/cancel', { job_id: f.privJob }))],
    keyRequired: [
      s('own private job, no key', (f) =>
        post('/analysis/job/cancel', { job_id: f.privJob }, { token: f.owner.token }),
      ),
    ],
    keyWrong: [
      s('own private job, wrong key', (f) =>
        post('/analysis/job/cancel', { job_id: f.privJob }, { ...f.owner, encKey: OTHER_KEY }),
      ),
    ],
    notFound: [s("another owner's job", (f) => post('/analysis/job/cancel', { job_id: f.privJob }, f.other))],
  },
};

interface Answer {
  status: number;
  type: string | null;
  text: string;
}

function headersOf(auth: Auth = {}): Record<string, string> {
  const h: Record<string, string> = {};
  if (auth.token) h['X-Service-Api-Token'] = auth.token;
  if (auth.encKey) h['X-Service-Api-Enc-Key'] = auth.encKey;
  return h;
}

/** Headers and the start of a multipart body, then silence until the server answers and closes. */
function stalledUpload(base: string): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /upload HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: multipart/form-data; boundary=XX\r\n` +
          'Content-Length: 2000\r\n\r\n--XX\r\nContent-Disposition: form-data; name="files"; filename="slow"\r\n\r\nab',
      );
    });
    let got = '';
    socket.on('data', (c) => {
      got += c.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', text = ''] = got.split('\r\n\r\n');
      resolve({
        status: Number(head.split(' ')[1]),
        type: /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1] ?? null,
        text,
      });
    });
  });
}

async function send(base: string, r: Req): Promise<Answer> {
  if (r.stall) return stalledUpload(base);
  const headers = headersOf(r.auth);
  let body: NonNullable<RequestInit['body']> | undefined;
  if (r.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(r.json);
  } else if (r.files !== undefined) {
    const form = new FormData();
    form.append('note', 'a field that is not a file');
    for (const [name, size] of r.files) {
      form.append(r.otherField ? 'file' : 'files', new Blob([new Uint8Array(size).fill(0x41)]), name);
    }
    body = form;
  } else if (r.body !== undefined) {
    if (r.contentType) headers['Content-Type'] = r.contentType;
    body = r.body;
  }
  const res = await fetch(`${base}${r.path}`, {
    method: r.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The table's rows with their typed ids. */
const ROWS = Object.keys(ERROR_ROWS)
  .filter(isErrorRowId)
  .map((id) => [id, ERROR_ROWS[id]!] as const);

describe('error table rows, provoked over HTTP', () => {
  let engine: Engine;
  let server: RunningServer;
  let limited: RunningServer;
  let f: Fixture;
  let held = '';
  before(async () => {
    engine = await Engine.open({
      memory: true,
      limits: {
        parseTotalBytes: 2000,
        sigmaTotalBytes: 2000,
        yaraTotalBytes: 1000,
        uploadFileBytes: 3000,
        uploadTimeoutMs: 3000, // long enough for a first key derivation on a loaded machine
      },
      runners: {
        // A job over the held file stays Processing until the engine closes.
        winevtx: async (input, ctx) => {
          if (input.file_ids.includes(held))
            await new Promise((r) => ctx.signal.addEventListener('abort', r));
          return [];
        },
      },
    });
    const limits = { jsonBytes: 16 * 1024, uploadTimeoutMs: 3000 };
    server = await serve({ engine, port: 0, limits });
    limited = await serve({ engine, port: 0, limits, rateLimit: { requests: 1, windowMs: 60_000 } });
    const owner = { token: (await engine.createToken()).token, encKey: KEY };
    const other = { token: (await engine.createToken()).token, encKey: OTHER_KEY };
    const up = async (size: number, auth: Auth) => {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(size)]), 'f');
      const res = await fetch(`${server.url}/upload`, {
        method: 'POST',
        headers: headersOf(auth),
        body: form,
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { file_ids: [string, string][] }).file_ids[0]![0];
    };
    f = {
      owner,
      other,
      unknown: { token: randomUUID(), encKey: KEY },
      pubSmall: await up(600, {}),
      pubBig: await up(1500, {}),
      priv: await up(500, owner),
      otherPriv: await up(500, other),
      privJob: '',
      heldJob: '',
      yaraJob: '',
    };
    held = await up(100, {});
    const create = async (path: string, body: unknown, auth: Auth = {}) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { ...headersOf(auth), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { id: string }).id;
    };
    f.privJob = await create(
      '/analysis/winevtx/parse',
      { file_ids: [f.priv], run_sigma_rules: false },
      owner,
    );
    f.heldJob = await create('/analysis/winevtx/parse', { file_ids: [held], run_sigma_rules: false });
    f.yaraJob = await create('/analysis/yara/file', {
      file_ids: [f.pubSmall],
      operation: 'run_community_rules',
    });
  });
  after(async () => {
    await server.close();
    await limited.close();
    await engine.close();
  });

  for (const [id, row] of ROWS) {
    const format = ENDPOINTS[row.endpoint].bodyFormat;
    const label = `${id}: ${row.status} "${row.message}" as ${format}`;
    if (row.status === 500) continue; // provoked below, on a damaged database
    if (row.code === 'NO_SPACE') continue; // provoked on a full disk: test/store-full-disk.test.ts
    const slug = id.slice(row.endpoint.length + 1);
    const scenarios = SCENARIOS[row.endpoint]?.[slug] ?? [];
    test(label, async () => {
      assert.ok(scenarios.length > 0, `no scenario provokes ${id}`);
      for (const sc of scenarios) {
        const req = sc.req(f);
        if (req.limited) await send(limited.url, req); // uses up the window
        const got = await send(req.limited ? limited.url : server.url, req);
        const want = errorResponse(endpointError(id, sc.vars ?? {}));
        assert.deepEqual(
          got,
          { status: want.status, type: want.contentType, text: want.body },
          `${id} / ${sc.name}`,
        );
      }
    });
  }
});

describe('500 rows over HTTP: unexpected failures answer with the error id the engine reported', () => {
  let dir: string;
  let engine: Engine;
  let server: RunningServer;
  let token: string;
  const seen: string[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tae-http-errors-'));
    engine = await Engine.open({ dataDir: dir, onInternalError: (_, errorId) => seen.push(errorId) });
    server = await serve({ engine, port: 0 });
    token = (await engine.createToken()).token;
    const db = openSqlite(join(dir, 'engine.db'));
    db.exec('DROP TABLE job_results; DROP TABLE jobs; DROP TABLE files;');
    db.close();
    writeFileSync(join(dir, 'rule-library.sqlite'), 'not a database, '.repeat(512));
  });
  after(async () => {
    await server.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const auth = () => ({ token, encKey: KEY });
  const calls: Partial<Record<Endpoint, () => Req>> = {
    upload: () => upload([['f', 10]]),
    createParseJob: () => post('/analysis/winevtx/parse', { file_ids: ids(1), run_sigma_rules: false }),
    createSigmaFileJob: () =>
      post('/analysis/sigma/file', { file_ids: ids(1), operation: 'run_community_rules' }),
    createYaraFileJob: () =>
      post('/analysis/yara/file', { file_ids: ids(1), operation: 'run_community_rules' }),
    getJob: () => ({ method: 'GET', path: `/analysis/job/${randomUUID()}` }),
    listJobs: () => ({ method: 'GET', path: '/analysis/job/list', auth: auth() }),
    listFiles: () => ({ method: 'GET', path: '/analysis/file/list', auth: auth() }),
    deleteJobs: () => post('/analysis/job/delete', { ids: ids(1) }, auth()),
    deleteFiles: () => post('/analysis/file/delete', { ids: ids(1) }, auth()),
    cancelJob: () => post('/analysis/job/cancel', { job_id: randomUUID() }, auth()),
    search: () => post(SEARCH, query(randomUUID())),
    sigmaRules: () => post('/analysis/sigma/rules', { rule_names: ['proc_creation_x'] }),
    yaraRules: () => post('/analysis/yara/rules', { rule_names: ['x'] }),
  };
  for (const [id, row] of ROWS.filter(([, r]) => r.status === 500)) {
    const format = ENDPOINTS[row.endpoint].bodyFormat;
    test(`${id}: 500 as ${format}, quoting the error id the engine reported where the row has one`, async () => {
      const call = calls[row.endpoint];
      assert.ok(call, `no call provokes ${id}`);
      const before = seen.length;
      const got = await send(server.url, call());
      assert.equal(seen.length, before + 1, 'the engine reported one internal error');
      const errorId = seen.at(-1)!;
      if (row.message.includes('{error_id}'))
        assert.ok(got.text.includes(errorId), 'the answer quotes its id');
      const want = errorResponse(endpointError(id, { error_id: errorId }));
      assert.deepEqual(got, { status: 500, type: want.contentType, text: want.body });
    });
  }
});
