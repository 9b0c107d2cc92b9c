/**
 * The package as a tool builder gets it: `npm pack`, the tarball installed into a fresh
 * project (from the npm cache, the registry only for what it lacks), its examples/ and the
 * README's TypeScript blocks type-checked there under a strict tsconfig with `skipLibCheck: false`,
 * then run (ESM, TypeScript and require()) over EVTX written by our own writer.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { type DocExample, docExamples } from './helpers/doc-examples.js';
import { packTarball, ROOT, sh } from './helpers/pack.js';
import { smallLog, smallLogEvents } from './helpers/small-log.js';

const work = mkdtempSync(join(tmpdir(), 'tae-pack-'));
const app = join(work, 'app');
after(() => rmSync(work, { recursive: true, force: true }));

const node = (args: readonly string[]) => sh(process.execPath, args, app);

const FAILED_LOGON = `title: Failed logon from the network
level: medium
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625, LogonType: 3}
  condition: selection
`;

/**
 * The README's TypeScript blocks, each a program of its own. They use a few values they do not
 * define (the bytes of an upload, a Base64 test document): the preamble gives them, over the
 * `Security.evtx` the test writes. The service block ends with the engine closed.
 */
const README_BLOCKS = [
  ...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm),
].map((m) => m[1]!);
const README_PREAMBLE = `import { readFileSync as readSample } from 'node:fs';
const bytes = readSample('Security.evtx');
const base64Json = Buffer.from(JSON.stringify({ Event: { System: { EventID: 4625 } } })).toString('base64');
`;
/** The `@example` blocks of the installed declarations, each run with the root's functions imported. */
let DOC_EXAMPLES: DocExample[] = [];
const docProgram = (example: DocExample, names: readonly string[]) =>
  `import { ${names.join(', ')} } from 'threat-analysis-engine';\n${example.code}`;
const readmeEpilogue = (block: string) => (/\bconst engine = /.test(block) ? 'await engine.close();\n' : '');

/** Every entry point imported with every name, so the whole published surface is type-checked. */
const SUBPATHS = ['', '/evtx', '/sigma', '/yara', '/lookup', '/search', '/service', '/http'];
const ALL_ENTRIES = SUBPATHS.map((s, i) => `import * as e${i} from 'threat-analysis-engine${s}';`).join('\n');

before(async () => {
  const tarball = packTarball(work);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  const installed = sh(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--ignore-scripts', tarball],
    app,
  );
  assert.doesNotMatch(installed.stderr, /npm warn/i, 'installing the tarball warns of nothing');
  // From the installed package: examples/ ships in the tarball.
  const examples = join(app, 'node_modules', 'threat-analysis-engine', 'examples');
  assert.deepEqual(readdirSync(examples).sort(), readdirSync(join(ROOT, 'examples')).sort());
  for (const f of readdirSync(examples)) copyFileSync(join(examples, f), join(app, f));
  writeFileSync(
    join(app, 'all-entries.ts'),
    `${ALL_ENTRIES}\nexport { ${SUBPATHS.map((_, i) => `e${i}`).join(', ')} };\n`,
  );
  for (const [i, block] of README_BLOCKS.entries())
    writeFileSync(join(app, `readme-${i + 1}.ts`), `${README_PREAMBLE}${block}${readmeEpilogue(block)}`);
  writeFileSync(join(app, 'Security.evtx'), smallLog());
  const pkg = join(app, 'node_modules', 'threat-analysis-engine');
  const rootNames = Object.keys(await import(join(pkg, 'dist', 'src', 'index.js'))).sort();
  DOC_EXAMPLES = docExamples(join(pkg, 'dist'));
  for (const [i, example] of DOC_EXAMPLES.entries())
    writeFileSync(join(app, `doc-${i + 1}.ts`), docProgram(example, rootNames));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023'],
        allowJs: true,
        checkJs: true,
        noEmit: true,
        verbatimModuleSyntax: true,
        erasableSyntaxOnly: true,
        // No types: the package's declarations bring the Node types they use (its dependency).
      },
      include: ['*.ts', '*.mjs', '*.cjs'],
    }),
  );
  mkdirSync(join(app, 'logs'));
  writeFileSync(join(app, 'logs', 'small.evtx'), smallLog());
  writeFileSync(join(app, 'logs', 'twice.evtx'), writeEvtx([...smallLogEvents(), ...smallLogEvents()]));
  mkdirSync(join(app, 'rules'));
  writeFileSync(join(app, 'rules', 'failed-logon.yml'), FAILED_LOGON);
  writeFileSync(join(app, 'marker.yar'), 'rule marker { strings: $a = "TAE-MARKER" condition: $a }\n');
  writeFileSync(join(app, 'hit.bin'), 'some bytes TAE-MARKER more bytes');
  writeFileSync(join(app, 'miss.bin'), 'nothing to see');
});

describe('the packed package in a fresh project', () => {
  test('the examples, the README blocks and every entry point type-check (strict, noUncheckedIndexedAccess, skipLibCheck false)', () => {
    assert.equal(README_BLOCKS.length, 3, 'the README has three TypeScript blocks');
    sh(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], app);
  });

  test('require() loads every entry point', () => {
    const subpaths = JSON.stringify(SUBPATHS);
    const script = `for (const s of ${subpaths}) if (typeof require('threat-analysis-engine' + s).TaeError !== 'function') throw new Error(s);`;
    writeFileSync(join(app, 'require-all.cjs'), script);
    node(['require-all.cjs']);
  });

  test("the README's blocks run: the parse loop prints the failed logons, sigmaHits its hits, the service answers", () => {
    const [parse, hits] = [node(['readme-1.ts']), node(['readme-2.ts'])];
    assert.match(parse.stdout, /^\d{4}-\d\d-\d\dT[\d:.]+Z administrator /m);
    assert.match(parse.stdout, /records: 7/);
    assert.match(hits.stdout, /^(?:informational|low|medium|high|critical) .+ \d+ \S+=/m);
    node(['readme-3.ts']);
  });

  test('the @example of every front-door function ships in the declarations, type-checks and runs', () => {
    const documented = DOC_EXAMPLES.map((e) => e.file).sort();
    for (const file of ['parse-evtx', 'run', 'run-yara', 'search', 'lookup', 'sigma-hits', 'build-index'])
      assert.ok(
        documented.some((d) => d.endsWith(`/${file}.d.ts`)),
        `${file}.d.ts has an @example`,
      );
    for (const [i, example] of DOC_EXAMPLES.entries())
      assert.notEqual(node([`doc-${i + 1}.ts`]).stdout, '', `${example.file}'s example prints`);
  });

  test('decode-jsonl.mjs writes one JSON line per record', () => {
    const r = node(['decode-jsonl.mjs', 'logs/small.evtx']);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 7);
    assert.equal(JSON.parse(lines[0]!).Event.System.EventID, 4625);
    assert.match(r.stderr, /7 records, \d+ bytes/);
  });

  test('sigma-folder.ts reports the rule hits of every file in the folder', () => {
    const r = node(['sigma-folder.ts', 'rules', 'logs']);
    const hits = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; rule: string });
    assert.deepEqual(
      hits.map((h) => h.file),
      [...Array(4).fill('small.evtx'), ...Array(8).fill('twice.evtx')],
    );
    assert.ok(hits.every((h) => h.rule === 'Failed logon from the network'));
  });

  test('yara-files.cjs (require) reports the matching file only', () => {
    const r = node(['yara-files.cjs', 'marker.yar', 'hit.bin', 'miss.bin']);
    assert.match(r.stdout, /hit\.bin/);
    assert.match(r.stdout, /marker/);
    assert.doesNotMatch(r.stdout, /miss\.bin/);
  });

  test('build-and-search.ts indexes the logs once and answers a text search and a filtered one', () => {
    const r = node(['build-and-search.ts', 'EVILSVC', 'logs/small.evtx', 'logs/twice.evtx']);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { eventId?: string; data?: Record<string, string> });
    // twice.evtx holds small.evtx's seven records (the same ids: duplicates, left out as a job
    // leaves them) and then the same events again under new record ids.
    assert.match(r.stderr, /^14 events indexed from 2 files$/m);
    assert.deepEqual(
      lines.slice(0, -1).map((l) => [l.eventId, l.data?.ServiceName]),
      [
        ['7045', 'evilsvc'],
        ['7045', 'evilsvc'],
      ],
    );
    assert.deepEqual(lines.at(-1), { failedNetworkLogons: 8, users: ['administrator'] });
  });

  test('embed-engine.ts serves the interface under /tae/ beside its own routes', async () => {
    const child: ChildProcess = spawn(process.execPath, ['embed-engine.ts', '0'], { cwd: app });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          const m = /listening on (\S+)/.exec(d.toString());
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`embed-engine.ts exited with ${code}`)));
      });
      assert.equal(await (await fetch(`${url}/health`)).text(), 'ok\n');
      const res = await fetch(`${url}/tae/analysis/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ search: '4625', module: 'event_id' }),
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { columns: string[]; rows: string[][] };
      assert.ok(body.rows.some((r) => r[0] === '4625'));
    } finally {
      child.kill('SIGTERM');
    }
  });
});
