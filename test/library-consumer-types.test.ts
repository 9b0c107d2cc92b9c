/**
 * The declarations compile in a consumer's project with no setup (issue 48): the packed tarball
 * installed from the registry into fresh projects, one where the consumer installs nothing else
 * and one where they add `@types/node` themselves (its latest), each compiled with the latest
 * TypeScript 5 and the current major (`strict`, `skipLibCheck: false`, `module: nodenext`, no
 * `types`), then run. Skips when the registry cannot be reached.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { packTarball, sh } from './helpers/pack.js';
import { smallLog } from './helpers/small-log.js';

const ping = spawnSync('npm', ['ping'], { encoding: 'utf8', timeout: 20_000 });
const skip =
  ping.status === 0 ? false : `the npm registry cannot be reached (npm ping: ${ping.status ?? ping.signal})`;

/** The compilers, installed under aliases beside each other. */
const COMPILERS = { 'ts-5': 'typescript@5', 'ts-current': 'typescript@latest' } as const;
const CONSUMERS = { 'nothing else': [], '@types/node': ['@types/node'] } as const;

const RULE = `title: Failed logon from the network
level: medium
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625, LogonType: 3}
  condition: selection
`;

/** The five functions of the README and per-event Sigma hits (`sigmaHits`), in one strict program. */
const PROGRAM = `import { readFileSync } from 'node:fs';
import { lookup, parseEvtx, runSigma, runYara, type SigmaHit, search, sigmaHits } from 'threat-analysis-engine';

const [log = '', ruleFile = ''] = process.argv.slice(2);
const ruleText = readFileSync(ruleFile, 'utf8');
const events: unknown[] = [];
for await (const record of parseEvtx(log, { outputs: ['json'] })) if (record.json !== undefined) events.push(JSON.parse(record.json));
const hits: SigmaHit[] = [];
for await (const hit of sigmaHits(log, { sigma: 'community' })) hits.push(hit);
const base64 = (text: string): string => Buffer.from(text).toString('base64');
const sigma = await runSigma({ test_data: base64(JSON.stringify(events)), operation: 'run_rule', rule: base64(ruleText) });
const yara = await runYara({
  test_data: base64('bytes TAE-MARKER bytes'),
  operation: 'run_rule',
  rule: base64('rule marker { strings: $a = "TAE-MARKER" condition: $a }'),
});
const found = await search({ files: [log] }, { search: 'EVILSVC', browse_events: true, show: 10 });
const looked = await lookup({ search: '4625', module: 'event_id' });
const perEvent = hits.map(({ ruleId, title, level, recordId, evidence }) => ({ ruleId, title, level, recordId, fields: evidence.length }));
console.log(JSON.stringify({ hits: perEvent, sigma: sigma.results, yara: yara.results, found: found.insights, looked: looked.rows }));
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    skipLibCheck: false,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    noEmit: true,
  },
  include: ['program.ts'],
};

describe('the packed declarations in a fresh consumer project', { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), 'tae-consumer-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  let tarball = '';

  for (const [consumer, extra] of Object.entries(CONSUMERS)) {
    const app = join(work, consumer.replace(/\W+/g, '-'));
    describe(`installing the tarball and ${consumer}`, () => {
      test('installs from the registry without a warning (no install script to approve)', () => {
        tarball ||= packTarball(work);
        mkdirSync(app);
        writeFileSync(
          join(app, 'package.json'),
          JSON.stringify({ name: 'app', private: true, type: 'module' }),
        );
        const specs = Object.entries(COMPILERS).map(([alias, spec]) => `${alias}@npm:${spec}`);
        const r = sh('npm', ['install', '--prefer-online', tarball, ...specs, ...extra], app);
        assert.doesNotMatch(r.stderr, /npm warn/i);
        writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
        writeFileSync(join(app, 'program.ts'), PROGRAM);
      });
      for (const alias of Object.keys(COMPILERS))
        test(`compiles with 0 errors under ${alias} (strict, skipLibCheck false, nodenext)`, () => {
          const tsc = join(app, 'node_modules', alias, 'bin', 'tsc');
          const version = JSON.parse(readFileSync(join(app, 'node_modules', alias, 'package.json'), 'utf8'));
          const r = spawnSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8' });
          assert.equal(r.stdout + r.stderr, '', `TypeScript ${version.version}`);
          assert.equal(r.status, 0);
        });
    });
  }

  test('the program runs: per-event hits, the data endpoints, search and lookup answer', () => {
    const app = join(work, 'nothing-else');
    writeFileSync(join(app, 'small.evtx'), smallLog());
    writeFileSync(join(app, 'rule.yml'), RULE);
    const out = JSON.parse(sh(process.execPath, ['program.ts', 'small.evtx', 'rule.yml'], app).stdout);
    assert.ok(out.hits.length > 0, 'the builtin pack matches the small log');
    for (const h of out.hits) {
      assert.equal(typeof h.ruleId, 'string');
      assert.ok(Number.isInteger(h.recordId) && h.fields > 0, JSON.stringify(h));
    }
    assert.deepEqual(out.sigma, [
      {
        type: 'Table',
        title: 'Sigma Analysis Results',
        data: [['Rule'], ['Failed logon from the network']],
        category: 'Sigma',
      },
    ]);
    assert.ok(out.yara.some((e: object) => 'Table' in e));
    assert.ok(out.found.length > 0);
    assert.ok(out.looked.some((row: string[]) => row[0] === '4625'));
  });
});
