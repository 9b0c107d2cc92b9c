/**
 * The bench scripts' command lines (bench/args.ts): `--help` prints the usage on stdout and
 * exits 0; an unknown option, a stray argument or a bad number is one line on stderr and exit 2,
 * never parseArgs's stack (`npm run fuzz -- --help` printed ERR_PARSE_ARGS_UNKNOWN_OPTION).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const BENCH = join(ROOT, 'bench');
/** Every script that takes arguments. */
const SCRIPTS = [
  'fuzz',
  'cancel-stress',
  'run',
  'job',
  'search',
  'search-files',
  'yara',
  'lookup',
  'index-build',
  'job-index-share',
  'report-summaries',
  'report-scale',
  'trial',
  'sigma',
  'rule-load',
  'spread',
];

function bench(
  script: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(BENCH, `${script}.ts`), ...args], {
      cwd: ROOT,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('no bench script reads its command line but through bench/args.ts', () => {
  const readers = readdirSync(BENCH)
    .filter((f) => f.endsWith('.ts') && f !== 'args.ts')
    .filter((f) => /process\.argv|parseArgs\(/.test(readFileSync(join(BENCH, f), 'utf8')));
  assert.deepEqual(readers, []);
  const users = readdirSync(BENCH)
    .filter((f) => f.endsWith('.ts'))
    .filter((f) => readFileSync(join(BENCH, f), 'utf8').includes("from './args.js'"));
  assert.deepEqual(users.map((f) => f.replace(/\.ts$/, '')).sort(), [...SCRIPTS].sort());
});

test('--help prints the usage and exits 0; an unknown option is one line and exit 2', async () => {
  await Promise.all(
    SCRIPTS.map(async (script) => {
      const help = await bench(script, ['--help']);
      assert.equal(help.code, 0, `${script}: ${help.stderr}`);
      assert.match(help.stdout, /^usage: /, script);
      assert.equal(help.stderr, '', script);
      const bad = await bench(script, ['--bogus']);
      assert.equal(bad.code, 2, script);
      assert.equal(bad.stderr, `${script}.ts: Unknown option '--bogus' (--help for usage)\n`);
      assert.equal(bad.stdout, '', script);
    }),
  );
});

test('a stray argument, a missing value and a bad number are one line and exit 2 too', async () => {
  const cases = [
    ['fuzz', ['stray'], "fuzz.ts: Unexpected argument 'stray' (--help for usage)\n"],
    ['fuzz', ['--seconds'], "fuzz.ts: Option '--seconds <value>' argument missing (--help for usage)\n"],
    [
      'cancel-stress',
      ['--seconds', 'soon'],
      'cancel-stress.ts: --seconds must be a number of at least 0, not "soon" (--help for usage)\n',
    ],
    [
      'run',
      ['--only', 'decod'],
      /^run\.ts: --only takes one of decode, .+, not "decod" \(--help for usage\)\n$/,
    ],
    [
      'job-index-share',
      ['both', 'a.evtx'],
      'job-index-share.ts: the mode is index or none, not "both" (--help for usage)\n',
    ],
  ] as const;
  await Promise.all(
    cases.map(async ([script, args, line]) => {
      const r = await bench(script, [...args]);
      assert.equal(r.code, 2, `${script} ${args.join(' ')}: ${r.stderr}`);
      if (typeof line === 'string') assert.equal(r.stderr, line);
      else assert.match(r.stderr, line);
    }),
  );
});
