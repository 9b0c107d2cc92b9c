import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';

/**
 * Which src/ folders each folder may import: exactly the edges in use, so a new edge is a
 * decision (made here and in the README's layout table, which the last test compares).
 * `native` is the top-level seam to native packages; `.` is src/index.ts, the front door. The
 * core (evtx, sigma, lookup, insights, analysis) stays pure: no I/O modules.
 */
const ALLOWED: Record<string, readonly string[]> = {
  errors: [],
  base64: [],
  /** The one sanitiser for text a person reads (terminal, report, evidence). */
  display: [],
  /** The package's version (the CLI's --version, the rule cache's keys). */
  version: [],
  /** The Node.js version the package needs, checked first by every entry point. */
  runtime: ['errors'],
  /** Worker-thread pools that a stray worker message cannot end the process with. */
  threads: ['errors'],
  evtx: ['errors'],
  parse: ['errors', 'evtx', 'threads'],
  /** Decode workers that also match Sigma rules, and the events they send back. */
  pipeline: ['errors', 'evtx', 'parse', 'sigma', 'lookup', 'messages', 'rows', 'analysis'],
  sigma: ['errors', 'evtx', 'base64', 'display'],
  lookup: ['errors', 'messages'],
  insights: [],
  yara: ['errors', 'native', 'base64', 'threads'],
  rules: ['errors', 'sigma', 'native', 'version'],
  analysis: ['errors', 'evtx', 'sigma', 'insights', 'messages'],
  payloads: ['errors', 'evtx', 'base64'],
  crypto: ['errors', 'threads'],
  report: ['errors', 'analysis', 'sigma', 'insights', 'display'],
  http: ['errors', 'service'],
  /** One event as the index stores it, and rows packed where they are made. */
  rows: ['evtx', 'messages'],
  /** Windows messages and an event's Event Table row: what a decode worker needs to make rows. */
  messages: ['evtx', 'insights'],
  search: ['errors', 'evtx', 'analysis', 'insights', 'lookup', 'rows', 'native', 'threads'],
  store: ['errors', 'crypto', 'native'],
  jobs: [
    'errors',
    'store',
    'crypto',
    'parse',
    'pipeline',
    'sigma',
    'yara',
    'analysis',
    'insights',
    'lookup',
    'search',
    'payloads',
  ],
  service: [
    'errors',
    'threads',
    'base64',
    'store',
    'crypto',
    'jobs',
    'parse',
    'pipeline',
    'sigma',
    'yara',
    'rules',
    'lookup',
    'analysis',
    'insights',
    'search',
  ],
  /** Compositions for embedders (buildIndex, search): the job's pipeline without the Engine. */
  library: [
    'errors',
    'evtx',
    'parse',
    'pipeline',
    'sigma',
    'analysis',
    'insights',
    'lookup',
    'search',
    'native',
    'rules',
  ],
  cli: [
    'runtime',
    'errors',
    'display',
    'version',
    'evtx',
    'parse',
    'pipeline',
    'sigma',
    'yara',
    'rules',
    'lookup',
    'service',
    'http',
    'report',
    'analysis',
    'insights',
    'payloads',
    'library',
  ],
  /** The published subpath entries (`threat-analysis-engine/evtx`, …): re-exports only. */
  entry: [
    'runtime',
    'errors',
    'evtx',
    'parse',
    'sigma',
    'yara',
    'lookup',
    'search',
    'library',
    'service',
    'http',
    'insights',
  ],
  '.': ['runtime', 'errors', 'evtx', 'parse', 'sigma', 'yara', 'lookup', 'search', 'library', 'insights'],
};
/** Node built-ins a pure module must not touch (node:crypto's randomBytes and zlib's crc32 are pure). */
const IO_MODULES = [
  'node:fs',
  'node:fs/promises',
  'node:net',
  'node:http',
  'node:child_process',
  'node:worker_threads',
];
const PURE = new Set([
  'display',
  'evtx',
  'errors',
  'base64',
  'sigma',
  'lookup',
  'insights',
  'analysis',
  'payloads',
  'rows',
]);

/**
 * Files under `dir` whose names match `pattern` (TypeScript by default), generated and installed
 * ones (dist, node_modules) aside.
 */
function sources(dir: string, pattern = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory())
      return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(join(dir, e.name), pattern);
    return pattern.test(e.name) ? [join(dir, e.name)] : [];
  });
}

const folderOf = (file: string): string => {
  const rel = relative('src', file).split(sep);
  if (rel[0] === '..') return rel[1] === 'native' ? 'native' : `outside src: ${file}`;
  return rel.length === 1 ? '.' : rel[0]!;
};

/** Static imports and re-exports, side-effect imports, and dynamic imports of a literal path. */
const IMPORT =
  /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every edge of ALLOWED, as `from -> to`, to find the ones no import uses. */
const unused = new Set(Object.entries(ALLOWED).flatMap(([from, tos]) => tos.map((to) => `${from} -> ${to}`)));

test('src folders import only the folders their layer allows, and only through index.ts', () => {
  const problems: string[] = [];
  for (const file of sources('src')) {
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (PURE.has(from) && IO_MODULES.includes(spec)) problems.push(`${file}: pure module imports ${spec}`);
      if (!spec.startsWith('.')) continue;
      const target = join(file, '..', spec);
      const to = folderOf(target);
      if (to === from) continue;
      unused.delete(`${from} -> ${to}`);
      if (!(ALLOWED[from] ?? []).includes(to)) problems.push(`${file}: ${from} must not import ${to}`);
      if (to !== '.' && to !== 'native' && !target.endsWith(`${sep}index.js`))
        problems.push(`${file}: import ${to} through its index.ts`);
    }
  }
  assert.deepEqual(problems, []);
  assert.deepEqual([...unused], [], 'allowed edges no import uses: remove them');
});

test('worker-thread pools are made only by src/threads, which listens for the errors no task owns', () => {
  const makers = sources('src').filter((file) => /new Piscina\b/.test(readFileSync(file, 'utf8')));
  assert.deepEqual(makers, [join('src', 'threads', 'pool.ts')]);
});

test('the CLI writes human text to stdout and stderr only through terminal.ts, the one sanitiser', () => {
  const direct = sources(join('src', 'cli')).filter(
    (file) =>
      !file.endsWith(`${sep}terminal.ts`) &&
      /process\.std(?:out|err)\.write\b/.test(readFileSync(file, 'utf8')),
  );
  assert.deepEqual(direct, []);
});

test('every src folder is listed in the allowed-imports table', () => {
  const folders = readdirSync('src', { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  for (const f of folders) assert.ok(f in ALLOWED, `src/${f} has no entry in ALLOWED`);
});

test('no file of the project (src, native, bench, fixtures, test) exceeds 400 lines without a stated reason at its top', () => {
  const files = ['src', 'native', 'bench', 'fixtures', 'test'].flatMap((dir) =>
    sources(dir, /\.(?:ts|mts|cts|js|mjs|cjs)$/),
  );
  assert.ok(files.length > 300, `only ${files.length} files found`);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length;
    // The reason may wrap onto the comment's next line.
    if (lines > 400)
      assert.match(text.slice(0, 800), /over 400 lines[\s*]+because/i, `${file} has ${lines} lines`);
  }
});

/**
 * The README's layout table, `may import` column: per `src/<folder>` (or `src/index.ts`) row
 * the folders as a comma list, `–` for none. A row may name several folders sharing one list.
 */
function readmeLayout(): Record<string, string[]> {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(
    readme.indexOf('## Layout'),
    readme.indexOf('\n## ', readme.indexOf('## Layout') + 1),
  );
  const layout: Record<string, string[]> = {};
  for (const line of section.split('\n').filter((l) => l.startsWith('| `src/'))) {
    const [, names = '', , mayImport = ''] = line.split('|').map((c) => c.trim());
    const list = mayImport === '–' ? [] : mayImport.split(',').map((n) => n.trim());
    for (const [, name] of names.matchAll(/`src\/([\w.]+)`/g))
      layout[name === 'index.ts' ? '.' : name!] = list;
  }
  return layout;
}

test("the README's layout table says what ALLOWED says", () => {
  const sorted = (table: Record<string, readonly string[]>) =>
    Object.fromEntries(
      Object.entries(table)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, [...v].sort()]),
    );
  assert.deepEqual(sorted(readmeLayout()), sorted(ALLOWED));
});
