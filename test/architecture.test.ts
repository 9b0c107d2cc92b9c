import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';

/**
 * Which src/ folders each folder may import; `native` is the top-level seam to native
 * packages. The core (evtx, sigma, lookup) stays pure: no I/O modules.
 */
const ALLOWED: Record<string, readonly string[]> = {
  errors: [],
  base64: [],
  evtx: ['errors'],
  parse: ['errors', 'evtx'],
  sigma: ['errors', 'evtx', 'base64'],
  lookup: ['errors'],
  yara: ['errors', 'native', 'base64'],
  rules: ['errors', 'sigma', 'yara', 'native'],
  analysis: ['errors', 'evtx', 'sigma', 'lookup'],
  payloads: ['errors', 'evtx', 'base64'],
  crypto: ['errors'],
  report: ['errors', 'analysis'],
  http: ['errors', 'service'],
  search: ['errors', 'evtx', 'analysis', 'lookup', 'crypto', 'native'],
  store: ['errors', 'crypto', 'native'],
  jobs: [
    'errors',
    'store',
    'crypto',
    'evtx',
    'parse',
    'sigma',
    'yara',
    'rules',
    'analysis',
    'lookup',
    'search',
  ],
  service: [
    'errors',
    'base64',
    'store',
    'crypto',
    'jobs',
    'evtx',
    'parse',
    'sigma',
    'yara',
    'rules',
    'lookup',
    'analysis',
    'search',
  ],
  /** Compositions for embedders (buildIndex, search): the job's pipeline without the Engine. */
  library: ['errors', 'evtx', 'parse', 'sigma', 'rules', 'analysis', 'lookup', 'search', 'native'],
  cli: [
    'errors',
    'evtx',
    'parse',
    'sigma',
    'yara',
    'rules',
    'lookup',
    'service',
    'search',
    'http',
    'report',
    'analysis',
    'jobs',
    'payloads',
  ],
  /** The published subpath entries (`threat-analysis-engine/evtx`, …): re-exports only. */
  entry: ['errors', 'evtx', 'parse', 'sigma', 'yara', 'lookup', 'search', 'library', 'service', 'http'],
  '.': [
    'errors',
    'evtx',
    'parse',
    'sigma',
    'yara',
    'rules',
    'lookup',
    'analysis',
    'crypto',
    'store',
    'jobs',
    'service',
    'cli',
    'search',
    'library',
    'http',
    'report',
  ],
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
const PURE = new Set(['evtx', 'errors', 'base64', 'sigma', 'lookup', 'analysis', 'payloads']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const folderOf = (file: string): string => {
  const rel = relative('src', file).split(sep);
  if (rel[0] === '..') return rel[1] === 'native' ? 'native' : `outside src: ${file}`;
  return rel.length === 1 ? '.' : rel[0]!;
};

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

test('src folders import only the folders their layer allows, and only through index.ts', () => {
  const problems: string[] = [];
  for (const file of sources('src')) {
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (PURE.has(from) && IO_MODULES.includes(spec)) problems.push(`${file}: pure module imports ${spec}`);
      if (!spec.startsWith('.')) continue;
      const target = join(file, '..', spec);
      const to = folderOf(target);
      if (to === from) continue;
      if (!(ALLOWED[from] ?? []).includes(to)) problems.push(`${file}: ${from} must not import ${to}`);
      if (to !== '.' && to !== 'native' && !target.endsWith(`${sep}index.js`))
        problems.push(`${file}: import ${to} through its index.ts`);
    }
  }
  assert.deepEqual(problems, []);
});

test('every src folder is listed in the allowed-imports table', () => {
  const folders = readdirSync('src', { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  for (const f of folders) assert.ok(f in ALLOWED, `src/${f} has no entry in ALLOWED`);
});

test('no source file exceeds 400 lines without a stated reason at its top', () => {
  for (const file of sources('src')) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length;
    if (lines > 400)
      assert.match(text.slice(0, 600), /over 400 lines because/i, `${file} has ${lines} lines`);
  }
});
