/**
 * `search(source, request)` and `buildIndex`, the search endpoint without an Engine: over the
 * same generated EVTX files, every request answers exactly what the Engine's search answers for
 * a parse job with Sigma (text, filters on fields, `details.<name>` and `sigma_matches`, time
 * windows, paging, `browse_events: false`); options and requests are checked with coded errors;
 * a temporary index is encrypted and removed on close, a kept one stays where it was asked.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { intrusionStory } from '../fixtures/stories/index.js';
import { openSqlite } from '../native/sqlite.js';
import { isTaeError } from '../src/errors/index.js';
import { buildIndex, type EvtxIndex, type IndexSearchRequest, search } from '../src/library/index.js';
import type { EventTableResponse, RebuiltJobResponse } from '../src/search/index.js';
import { Engine } from '../src/service/index.js';
import { compileRuleSet, loadRules } from '../src/sigma/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-library-search-'));
const story = intrusionStory();
const files = story.map((f) => join(dir, f.name));
/** This process's buildIndex directories (os.tmpdir()/tae-search-index-<pid>-XXXXXX); other runs' come and go. */
const TEMP_PREFIX = `tae-search-index-${process.pid}-`;
let engine: Engine;
let jobId: string;
let index: EvtxIndex;

before(async () => {
  for (const f of story) writeFileSync(join(dir, f.name), f.bytes);
  engine = await Engine.open({ memory: true, rules: { env: {} } });
  const up = await engine.upload({ files: story.map((f) => ({ name: f.name, data: f.bytes })) }, {});
  const job = await engine.createParseJob(
    { file_ids: up.file_ids.map(([id]) => id), run_sigma_rules: true },
    {},
  );
  jobId = job.id;
  for (let i = 0; i < 1000; i++) {
    const s = await engine.getJob({ job_id: jobId });
    if (s.status === 'Completed') break;
    assert.notEqual(s.status, 'Failed');
    await new Promise((r) => setTimeout(r, 10));
  }
  index = await buildIndex({ files, sigma: 'community' });
});
after(async () => {
  index?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const firstTimes = async () => {
  const r = await search(index, { search: '', browse_events: true, show: 100 });
  return r.insights[0]!.IndexTable.data.map(([c]) => Date.parse(`${c[2].replace(' ', 'T')}Z`));
};

describe('over the same files, the library answers what the Engine answers for a job', () => {
  const requests = async (): Promise<IndexSearchRequest[]> => {
    const times = await firstTimes();
    const rule = (
      (await engine.search({ job_id: jobId, search: '', browse_events: false })) as RebuiltJobResponse
    ).insights.find((i) => 'Table' in i && i.Table.title === 'Overview: Sigma Matches');
    assert.ok(rule && 'Table' in rule, 'the job has Sigma matches');
    const ruleTitle = rule.Table.data[1]![rule.Table.data[0]!.indexOf('Rule')]!;
    return [
      { search: '', browse_events: true },
      { search: 'mimikatz', browse_events: true, show: 3, page: 2 },
      { search: 'powershell', browse_events: true, show: 100 },
      { search: '', browse_events: true, filter: [{ field: 'event_id', operator: 'equals', value: '4625' }] },
      {
        search: '',
        browse_events: true,
        show: 50,
        filter: [{ field: 'details.TargetUserName', operator: 'not_equals', value: 'administrator' }],
      },
      {
        search: '',
        browse_events: true,
        filter: [{ field: 'sigma_matches', operator: 'contains', value: ruleTitle.slice(0, 6) }],
      },
      { search: 'a', browse_events: true, start_time: times[10]!, end_time: times[40]!, page: 2, show: 7 },
      { search: '', browse_events: false },
      { search: 'ignored', browse_events: false, start_time: times[5]!, end_time: times[60]! },
      { search: '', browse_events: true, start_time: 0, end_time: 1 },
    ];
  };

  test('every request: the same response (browse_events false: the same insights, the index as the job)', async () => {
    for (const request of await requests()) {
      const mine = await search(index, request);
      const theirs = await engine.search({ job_id: jobId, ...request }, {});
      if (request.browse_events) assert.deepEqual(mine, theirs, JSON.stringify(request));
      else {
        const rebuilt = theirs as RebuiltJobResponse;
        assert.deepEqual(mine, { ...rebuilt, id: index.id, job_name: index.name }, JSON.stringify(request));
      }
    }
  });

  test('search({ files }) builds a temporary index, answers the same, and removes it', async () => {
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith(TEMP_PREFIX));
    const request = { search: 'mimikatz', browse_events: true } as const;
    const once: EventTableResponse = await search({ files, sigma: 'community' }, request);
    assert.deepEqual(once, await search(index, request));
    assert.ok(once.insights[0]!.IndexTable.data.length > 0);
    assert.deepEqual(
      readdirSync(tmpdir()).filter((n) => n.startsWith(TEMP_PREFIX)),
      before,
    );
  });
});

describe('an index', () => {
  test('built without a path is encrypted in a temporary directory, removed on close', async () => {
    const temp = await buildIndex({ files: files.slice(0, 1) });
    assert.ok(temp.temporary && existsSync(temp.path));
    assert.equal(statSync(dirname(temp.path)).mode & 0o777, 0o700);
    assert.throws(() =>
      openSqlite(temp.path, { readonly: true }).prepare('SELECT 1 FROM sqlite_schema').get(),
    );
    assert.equal(temp.sigma, false);
    temp.close();
    temp.close();
    assert.ok(temp.closed && !existsSync(dirname(temp.path)));
    await assert.rejects(temp.search({ search: '', browse_events: true }), { code: 'INVALID_ARGUMENT' });
  });

  test('built at a path stays there, owner-only, after close; an existing path is refused', async () => {
    const path = join(dir, 'kept', 'events.sqlite');
    mkdirSync(dirname(path));
    const kept = await buildIndex({ files, path, name: 'kept' });
    assert.equal(kept.events, index.events);
    kept.close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dirname(path)), ['events.sqlite']);
    await assert.rejects(buildIndex({ files, path }), { code: 'INVALID_ARGUMENT', message: /exists/ });
  });

  test('keeps the Error insight of a file that does not decode, as the job does', async () => {
    const junk = join(dir, 'junk.evtx');
    writeFileSync(junk, Buffer.alloc(8192, 7));
    const mixed = await buildIndex({ files: [files[1]!, junk] });
    try {
      assert.equal(mixed.errors.length, 1);
      assert.match(mixed.errors[0]!.Error.message, /^junk\.evtx: /);
      const r = await mixed.search({ search: '', browse_events: false });
      assert.deepEqual(r.insights.at(-1), mixed.errors[0]);
    } finally {
      mixed.close();
    }
    await assert.rejects(
      buildIndex({ files: [junk] }),
      (e: unknown) => isTaeError(e) && /junk\.evtx/.test(e.message),
    );
  });
});

const FAILED_LOGON = `title: Failed network logon
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625, LogonType: 3}
  condition: selection
`;

test('custom Sigma rules, loaded or compiled, mark the events they match', async () => {
  const loaded = loadRules(FAILED_LOGON, 'failed-logon.yml');
  const byFilter = await search(index, {
    search: '',
    browse_events: true,
    show: 100,
    filter: [
      { field: 'event_id', operator: 'equals', value: '4625' },
      { field: 'details.LogonType', operator: 'equals', value: '3' },
    ],
  });
  const expected = byFilter.insights[0]!.IndexTable.data;
  assert.ok(expected.length > 0);
  for (const sigma of [loaded, compileRuleSet({ rules: loaded.rules })]) {
    const r = await search(
      { files, sigma },
      {
        search: '',
        browse_events: true,
        show: 100,
        filter: [{ field: 'sigma_matches', operator: 'equals', value: 'failed network logon' }],
      },
    );
    assert.deepEqual(r.insights[0]!.IndexTable.data, expected);
  }
});

describe('coded errors', () => {
  test('a cancelled build is CANCELLED and leaves no temporary directory', async () => {
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith(TEMP_PREFIX));
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(buildIndex({ files, signal: controller.signal }), { code: 'CANCELLED' });
    assert.deepEqual(
      readdirSync(tmpdir()).filter((n) => n.startsWith(TEMP_PREFIX)),
      before,
    );
  });

  test('an unknown option is rejected with its name', async () => {
    await assert.rejects(buildIndex({ files, sigmaa: 'community' } as never), {
      code: 'INVALID_ARGUMENT',
      message: "unknown option 'sigmaa' (did you mean 'sigma'?)",
    });
    await assert.rejects(search({ files, path: '/tmp/x' } as never, { search: '', browse_events: true }), {
      code: 'INVALID_ARGUMENT',
      message: /unknown option 'path'/,
    });
    await assert.rejects(buildIndex({ files, sigma: 'builtin' as never }), {
      code: 'INVALID_ARGUMENT',
      message: /options\.sigma/,
    });
    await assert.rejects(buildIndex({ files: [] }), { code: 'INVALID_ARGUMENT', message: /options\.files/ });
  });

  test("a bad request is the endpoint's 400, as the Engine answers it", async () => {
    const bad: unknown[] = [
      { search: '', browse_events: true, start_time: 5, end_time: 1 },
      { search: '', browse_events: true, show: 101 },
      { search: '', browse_events: 'yes' },
      { search: '', browse_events: true, filter: [{ field: 'nope', operator: 'equals', value: 'x' }] },
    ];
    for (const request of bad) {
      const engineError = await engine
        .search({ job_id: jobId, ...(request as object) } as never, {})
        .catch((e: unknown) => e);
      assert.ok(isTaeError(engineError));
      for (const source of [index, { files }]) {
        await assert.rejects(search(source, request as never), (e: unknown) => {
          assert.ok(isTaeError(e));
          assert.deepEqual([e.code, e.status, e.message], [engineError.code, 400, engineError.message]);
          return true;
        });
      }
    }
  });

  test('a directory or a missing file is a coded error naming it', async () => {
    const request = { search: '', browse_events: true } as const;
    await assert.rejects(search({ files: [dir] }, request), {
      code: 'INPUT_UNREADABLE',
      message: /directory/,
    });
    const missing = join(dir, 'missing.evtx');
    await assert.rejects(buildIndex({ files: [files[0]!, missing] }), {
      code: 'INPUT_UNREADABLE',
      message: new RegExp(`${missing}: ENOENT`),
    });
  });
});
