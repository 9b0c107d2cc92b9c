/**
 * The other commands of the built binary: yara, lookup, and the engine commands (tokens, files,
 * jobs, search) on a data directory of their own; plus the CSV format's quoting and formula
 * neutralisation on attacker-written text.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { hostileEvents } from '../fixtures/hostile-events.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { matchesGolden } from './helpers/golden.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-commands-'));
writeFileSync(join(dir, 'example.evtx'), writeEvtx(exampleEvents()));
writeFileSync(join(dir, 'hostile.evtx'), writeEvtx(hostileEvents()));
mkdirSync(join(dir, 'samples', 'nested'), { recursive: true });
writeFileSync(join(dir, 'samples', 'a.txt'), 'nothing to see');
writeFileSync(join(dir, 'samples', 'nested', 'b.bin'), 'xx MARKER-7 yy MARKER-7');
writeFileSync(
  join(dir, 'marker.yar'),
  'rule marker_seven : demo {\n  meta:\n    author = "tests"\n    description = "the seventh marker"\n  strings:\n    $m = "MARKER-7"\n  condition:\n    $m\n}\n',
);
writeFileSync(join(dir, 'broken.yar'), 'rule broken {\n  condition:\n    $missing\n}\n');
const tae = (...args: string[]) => runTae(dir, args);

before(ensureBuilt);

test('tae yara scans directories recursively with custom rules and prints rule metadata', () => {
  const r = tae('yara', '--rule', 'marker.yar', 'samples');
  assert.equal(r.status, 0, r.stderr);
  matchesGolden('cli-yara-marker.txt', r.stdout);
  const json = JSON.parse(
    tae('yara', '--json', '--rule', 'marker.yar', 'samples', 'samples/nested/b.bin').stdout,
  );
  assert.deepEqual(json, [
    {
      file: join('samples', 'nested', 'b.bin'),
      rule: 'marker_seven',
      namespace: 'marker.yar',
      tags: 'demo',
      patterns: 1,
      author: 'tests',
      description: 'the seventh marker',
    },
  ]);
  assert.equal(tae('yara', '--rule', 'marker.yar', '--fail-on-match', 'samples').status, 1);
  assert.equal(tae('yara', '--rule', 'marker.yar', '--fail-on-match', 'samples/a.txt').status, 0);
});

test('tae yara: the builtin pack by default; a rule that does not compile is one line, exit 3', () => {
  const builtin = tae('yara', '--csv', 'example.evtx');
  assert.equal(builtin.status, 0, builtin.stderr);
  assert.match(
    builtin.stdout,
    /^file,rule,namespace,tags,patterns,author,description\nexample\.evtx,tae_script_powershell_encoded_launcher,builtin:yara\//,
  );
  const broken = tae('yara', '--rule', 'broken.yar', 'samples');
  assert.equal(broken.status, 3);
  assert.equal(broken.stderr, 'tae: YARA rules do not compile: broken.yar:3:5: unknown pattern `$missing`\n');
  assert.equal(tae('yara', '--rule', 'marker.yar', 'nowhere').status, 3);
  assert.equal(tae('yara', '--rule', 'marker.yar', '--timeout', '0', 'samples').status, 2);
});

test('tae lookup prints the bundled reference rows in every format', () => {
  const table = tae('lookup', '4625', '--show', '2');
  assert.equal(table.status, 0, table.stderr);
  matchesGolden('cli-lookup-4625.txt', table.stdout);
  const files = JSON.parse(
    tae('lookup', '-m', 'file_name', '--filter', 'File Name:equals:lsass.exe', '--json').stdout,
  );
  assert.equal(files[0].file_name, 'lsass.exe');
  assert.equal(files[0].file_path, 'C:\\Windows\\System32\\lsass.exe');
  const bad = tae('lookup', 'x', '--filter', 'Provider:resembles:Sysmon');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^tae: --filter must be FIELD:OPERATOR:VALUE with OPERATOR one of equals, /);
  assert.equal(tae('lookup', 'x', '--page', '11').status, 2);
  assert.equal(tae('lookup', 'x', '-m', 'registry').status, 2);
});

test('CSV quotes separators and neutralises cells a spreadsheet would run as formulas; Timesketch CSV keeps them exact', () => {
  writeFileSync(
    join(dir, 'any-4625.yml'),
    'title: Any failed logon\nlevel: low\nlogsource: {product: windows}\ndetection:\n  s: {EventID: 4625}\n  condition: s\n',
  );
  const formula = '=HYPERLINK("http://127.0.0.1:9/csv","x")';
  writeFileSync(
    join(dir, 'formula.json'),
    JSON.stringify({ EventID: 4625, Computer: formula, UtcTime: '2024-05-01 10:00:00.000' }),
  );
  const r = tae('sigma', '--csv', '--rule', 'any-4625.yml', 'formula.json');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    r.stdout,
    'time,level,rule_title,rule_id,record_id,event_id,computer,channel,file,mitre,details\n' +
      `2024-05-01T10:00:00.000Z,low,Any failed logon,,1,4625,"'=HYPERLINK(""http://127.0.0.1:9/csv"",""x"")",,formula.json,,\n`,
  );
  const ts = tae('sigma', '--timesketch', '--csv', '--rule', 'any-4625.yml', 'formula.json');
  assert.match(
    ts.stdout,
    /^message,datetime,timestamp,timestamp_desc,time,level,rule_title,rule_id,record_id,event_id,computer,channel,file,mitre,details\n/,
  );
  assert.ok(ts.stdout.includes(',"=HYPERLINK(""http://127.0.0.1:9/csv"",""x"")",'));
});

test('tokens, files and jobs work on the data directory; a private job needs its key', () => {
  const data = join(dir, 'engine-data');
  const token = JSON.parse(tae('tokens', 'create', '--level', 'standard', '--data', data, '--json').stdout)[0]
    .token as string;
  assert.match(token, /^[0-9a-f-]{36}$/);
  const auth = ['--data', data, '--token', token];
  const key = 'a passphrase of 16+ characters';
  const upload = tae('files', 'upload', 'example.evtx', ...auth, '--key', key, '--json');
  assert.equal(upload.status, 0, upload.stderr);
  const fileId = JSON.parse(upload.stdout)[0].file_id as string;
  const list = JSON.parse(tae('files', 'list', ...auth, '--json').stdout);
  assert.deepEqual(
    list.map((f: { file_name: string; encryption_status: string }) => [f.file_name, f.encryption_status]),
    [['example.evtx', 'encrypted']],
  );
  const job = runTae(
    dir,
    ['jobs', 'parse', fileId, '--sigma', '--html', 'job.html', '--out', 'job.json', ...auth],
    { TAE_KEY: key },
  );
  assert.equal(job.status, 0, job.stderr);
  assert.match(job.stdout, /^[a-z]+-[a-z]+ \([0-9a-f-]{36}\): Completed\nInsight {3}Title/);
  assert.ok(readFileSync(join(dir, 'job.html'), 'utf8').includes('id="process-graph"'));
  const jobId = JSON.parse(readFileSync(join(dir, 'job.json'), 'utf8')).id as string;
  const noKey = tae('jobs', 'get', jobId, ...auth);
  assert.equal(noKey.status, 3);
  assert.equal(noKey.stderr.split('\n').length, 2, noKey.stderr);
  const jobs = JSON.parse(tae('jobs', 'list', ...auth, '--json').stdout);
  assert.deepEqual(
    jobs.map((j: { status: string; job_type: string }) => [j.status, j.job_type]),
    [['Completed', 'winevtx']],
  );
  assert.equal(tae('jobs', 'delete', jobId, ...auth).status, 0);
  assert.equal(tae('files', 'delete', fileId, ...auth).status, 0);
  assert.equal(JSON.parse(tae('files', 'list', ...auth, '--json').stdout).length, 0);
  const missing = tae('files', 'upload', 'nothing.evtx', ...auth, '--key', key);
  assert.equal(missing.status, 3);
  assert.equal(missing.stderr, 'tae: cannot open nothing.evtx: not a file\n');
});

test('tae search browses the events of a completed public job, and pages and filters them', () => {
  const data = join(dir, 'search-data');
  const upload = tae('files', 'upload', 'example.evtx', '--data', data, '--json');
  assert.equal(upload.status, 0, upload.stderr);
  const fileId = JSON.parse(upload.stdout)[0].file_id as string;
  const job = tae('jobs', 'parse', fileId, '--data', data, '--json');
  assert.equal(job.status, 0, job.stderr);
  const jobId = JSON.parse(job.stdout).id as string;
  const r = tae('search', jobId, 'powershell', '--data', data, '--jsonl');
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(rows.length, 4);
  assert.ok(
    rows.every((e: { message: string; event_data: Record<string, string> }) =>
      /powershell/i.test(e.message + Object.values(e.event_data).join(' ')),
    ),
  );
  const page = (n: string) =>
    tae(
      'search',
      jobId,
      '--filter',
      'event_id:equals:4625',
      '--show',
      '3',
      '--page',
      n,
      '--data',
      data,
      '--json',
    );
  const [first, second] = [JSON.parse(page('1').stdout), JSON.parse(page('2').stdout)];
  assert.equal(first.length, 3);
  assert.ok([...first, ...second].every((e: { event_id: number }) => e.event_id === 4625));
  assert.ok(Number(second[0].record_id) > Number(first[2].record_id));
  const window = tae(
    'search',
    jobId,
    '--from',
    '2024-03-12T08:49:00Z',
    '--to',
    '2024-03-12T08:49:30Z',
    '--data',
    data,
    '--timesketch',
  );
  const points = window.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(points.length, 2);
  assert.ok(
    points.every(
      (p: { datetime: string }) => p.datetime >= '2024-03-12T08:49:00' && p.datetime <= '2024-03-12T08:49:30',
    ),
  );
  const bad = tae('search', jobId, '--filter', 'bogus:equals:1', '--data', data);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.split('\n').length, 2);
  assert.ok(existsSync(data));
});
