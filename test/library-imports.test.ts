/**
 * Light imports: each entry point of the built package, imported in a fresh node process,
 * loads only what its area needs. `threat-analysis-engine/evtx` loads no SQLite, YARA, HTTP
 * or zip module, and imports in under a third of the whole library's CPU time.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './helpers/cli-binary.js';

ensureBuilt();
const DIST = join(import.meta.dirname, '..', 'dist', 'src');
const entry = (name: string) => pathToFileURL(join(DIST, name)).href;

/** Every module the import loads (ES modules and CommonJS, through a load hook) and the builtins. */
const PROBE = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
for (const url of JSON.parse(process.argv[1])) await import(url);
const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
console.log(JSON.stringify({ loaded, builtins }));
`;

/**
 * Milliseconds of the process's CPU (every thread's, user and system) to import, in a process
 * without hooks: on a loaded machine the wall time of a 30 ms import is mostly waiting for a
 * core (the coverage pass at load average 11 measured the evtx entry at 94 ms against the whole
 * library's 231), while the CPU an import takes is its own work.
 */
const TIMER = `
const cpu = process.cpuUsage();
for (const url of JSON.parse(process.argv[1])) await import(url);
const used = process.cpuUsage(cpu);
console.log((used.user + used.system) / 1000);
`;

function run(script: string, urls: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(urls)], {
    encoding: 'utf8',
    env,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const modulesOf = (urls: readonly string[]) =>
  JSON.parse(run(PROBE, urls)) as { loaded: string[]; builtins: string[] };

/**
 * The timing children run without the coverage pass's NODE_V8_COVERAGE (it instruments every
 * function they compile, and the children run the built package, which it does not count): the
 * same measure in `npm test` and under coverage.
 */
const { NODE_V8_COVERAGE: _coverage, ...UNINSTRUMENTED } = process.env;

/**
 * CPU milliseconds to import each list, the least of a few runs (the machine's other load only
 * ever adds some: caches, migrations), the lists' runs alternated so that a busy spell costs both
 * alike.
 */
function importMs(lists: readonly (readonly string[])[], runs = 5): number[] {
  const best = lists.map(() => Number.POSITIVE_INFINITY);
  for (let i = 0; i < runs; i++)
    for (const [k, urls] of lists.entries())
      best[k] = Math.min(best[k]!, Number(run(TIMER, urls, UNINSTRUMENTED)));
  return best;
}

const HEAVY = {
  sqlite: /sqlite/i,
  // The YARA module and the native binding (not the pure builder of payload YARA results).
  yara: /\/src\/yara\/|yara-x|native\/yara/i,
  http: /\/src\/http\/|busboy/,
  zip: /yauzl/,
};
/** Not `net`: a child whose stdout is a pipe loads it for stdio alone. */
const HTTP_BUILTINS = ['http', 'https', 'http2', '_http_server'];

function heavyIn(m: { loaded: string[]; builtins: string[] }, kinds: (keyof typeof HEAVY)[]): string[] {
  const urls = m.loaded.filter((u) => kinds.some((k) => HEAVY[k].test(u)));
  const builtins = kinds.includes('http') ? m.builtins.filter((b) => HTTP_BUILTINS.includes(b)) : [];
  return [...urls, ...builtins];
}

test('importing threat-analysis-engine/evtx loads no SQLite, YARA, HTTP or zip module', () => {
  const m = modulesOf([entry('entry/evtx.js')]);
  assert.ok(
    m.loaded.some((u) => u.endsWith('/parse/parse-evtx.js')),
    'the probe saw the parse module load',
  );
  assert.deepEqual(heavyIn(m, ['sqlite', 'yara', 'http', 'zip']), []);
});

test('importing the root loads neither the HTTP server nor the zip reader', () => {
  const m = modulesOf([entry('index.js')]);
  assert.deepEqual(heavyIn(m, ['http', 'zip']), []);
});

test('importing threat-analysis-engine/search loads no YARA, HTTP or zip module', () => {
  const m = modulesOf([entry('entry/search.js')]);
  assert.ok(
    m.loaded.some((u) => u.endsWith('/library/build-index.js')),
    'the probe saw buildIndex load',
  );
  assert.deepEqual(heavyIn(m, ['yara', 'http', 'zip']), []);
});

test('importing threat-analysis-engine/evtx takes under a third of the whole library', () => {
  const all = [entry('index.js'), entry('entry/service.js'), entry('entry/http.js')];
  const [evtx, whole] = importMs([[entry('entry/evtx.js')], all]) as [number, number];
  const counts = {
    evtx: modulesOf([entry('entry/evtx.js')]).loaded.length,
    whole: modulesOf(all).loaded.length,
  };
  console.log(JSON.stringify({ evtxMs: Math.round(evtx), wholeMs: Math.round(whole), modules: counts }));
  assert.ok(evtx < whole / 3, `evtx ${evtx.toFixed(1)} ms of CPU, the whole library ${whole.toFixed(1)} ms`);
});
