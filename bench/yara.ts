/**
 * `node --import tsx bench/yara.ts`: YARA scan throughput over 100 MB (random bytes and
 * log-like text; one scan, and 1 MiB scans like real files) with a small pack of 15 typical
 * rules, a generated 1,000-rule pack and, when the corpus is present, 1,000 corpus rules;
 * through one YaraEngine worker. Also compile time cold, from the memory cache and from the
 * disk cache, and the first scan of a set in a fresh worker (deserialization). One JSON object
 * per line on stdout. Options: --runs N (median of N passes, default 3), --mb N (default 100).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { prng } from '../fixtures/prng.js';
import {
  type CompiledRuleSet,
  type CompileRulesOptions,
  type RuleSource,
  YaraEngine,
} from '../src/yara/index.js';
import { CORPUS } from '../test/helpers/corpus.js';
import { benchArgs, numberArg } from './args.js';

const USAGE = `
usage: node --import tsx bench/yara.ts [--runs N] [--mb N]
  --runs N   passes, the median reported (default 3)
  --mb N     megabytes scanned per pass (default 100)
One JSON object per line on stdout.`;
const { values: opts } = benchArgs(USAGE, {
  options: { runs: { type: 'string', default: '3' }, mb: { type: 'string', default: '100' } },
});
const RUNS = numberArg('--runs', opts.runs, { min: 1, integer: true });
const BYTES = numberArg('--mb', opts.mb, { min: 1, integer: true }) * 1024 * 1024;
const VARIABLES = { filename: '', filepath: '', extension: '', filetype: '', owner: '' };

const emit = (o: Record<string, unknown>) => console.log(JSON.stringify({ bench: 'yara', ...o }));

/** Fifteen rules of the usual kinds: plain, nocase and wide strings, hex with jumps, regexes. */
const SMALL_PACK = [
  'rule s1 { strings: $a = "mimikatz" nocase condition: $a }',
  'rule s2 { strings: $a = "sekurlsa::logonpasswords" ascii wide condition: $a }',
  'rule s3 { strings: $a = "Invoke-Mimikatz" condition: $a }',
  'rule s4 { strings: $a = "-EncodedCommand" nocase $b = "powershell" nocase condition: all of them }',
  'rule s5 { strings: $a = "vssadmin delete shadows" nocase condition: $a }',
  'rule s6 { strings: $a = "cmd.exe /c whoami" condition: $a }',
  'rule h1 { strings: $a = { 4D 5A 90 00 03 00 00 00 04 00 } condition: $a }',
  'rule h2 { strings: $a = { E8 ?? ?? ?? ?? 83 C4 ?? 85 C0 74 } condition: $a }',
  'rule h3 { strings: $a = { 6A 40 68 00 30 00 00 [4-16] FF 15 } condition: $a }',
  'rule h4 { strings: $a = { 48 8B ?? ?? 48 85 C0 0F 84 } condition: $a }',
  'rule r1 { strings: $a = /https?:\\/\\/[a-z0-9.-]{4,40}\\.(ru|cn|tk)\\/[a-z]{3,10}\\.php/ condition: $a }',
  'rule r2 { strings: $a = /FromBase64String\\([\'"][A-Za-z0-9+\\/=]{20,}/ nocase condition: $a }',
  'rule r3 { strings: $a = /\\\\\\\\[a-z0-9]{3,15}\\\\(ADMIN|C|IPC)\\$/ nocase condition: $a }',
  'rule r4 { strings: $a = /eval\\(base64_decode\\(/ condition: $a }',
  'rule r5 { strings: $a = /HKLM\\\\Software\\\\Microsoft\\\\Windows\\\\CurrentVersion\\\\Run/ nocase condition: $a }',
].join('\n');

const RULE_HEAD = /^\s*(?:(?:private|global)\s+)*rule\s+\w+/gm;

/** Whole corpus files (each in its own namespace) until they hold at least 1,000 rules. */
function corpusPack(): { sources: RuleSource[]; rules: number } | null {
  const dir = join(CORPUS, 'yara');
  if (!existsSync(dir)) return null;
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory() ? walk(join(d, e.name)) : /\.ya?ra?$/.test(e.name) ? [join(d, e.name)] : [],
      )
      .sort();
  const sources: RuleSource[] = [];
  let rules = 0;
  for (const f of [...walk(join(dir, 'reversinglabs')), ...walk(join(dir, 'signature-base'))]) {
    const source = readFileSync(f, 'utf8');
    const origin = relative(dir, f);
    sources.push({ source, origin, namespace: origin });
    rules += source.match(RULE_HEAD)?.length ?? 0;
    if (rules >= 1000) break;
  }
  return { sources, rules };
}

function generatedPack(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = [
      `"generated_marker_${i}"`,
      `"Gen${i}Wide" wide nocase`,
      `{ 4D 5A ?? ${(i & 0xff).toString(16).padStart(2, '0')} [2-6] 50 45 00 00 }`,
      `/gen_${i}_[a-z]{2,6}[0-9]+/`,
    ][i % 4];
    out.push(`rule g${i} { strings: $a = ${p} condition: $a }`);
  }
  return out.join('\n');
}

function buffers(): { name: string; bytes: Uint8Array }[] {
  const random = new Uint8Array(new SharedArrayBuffer(BYTES));
  const next = prng(1);
  const view = new Uint32Array(random.buffer, 0, BYTES / 4);
  for (let i = 0; i < view.length; i++) view[i] = (next() * 0x100000000) >>> 0;
  const text = new Uint8Array(new SharedArrayBuffer(BYTES));
  const words = [
    'svchost.exe',
    'user=alice',
    'GET /index.html',
    'powershell',
    'logon type 3',
    'C:\\Windows\\System32',
    '200 OK',
    'sshd[1234]:',
  ];
  const line = Buffer.from(
    Array.from(
      { length: 4096 },
      (_, i) => `${i} ${words[i % words.length]} ${words[(i * 7) % words.length]}\n`,
    ).join(''),
  );
  for (let at = 0; at < BYTES; at += line.length)
    text.set(line.subarray(0, Math.min(line.length, BYTES - at)), at);
  return [
    { name: 'random', bytes: random },
    { name: 'text', bytes: text },
  ];
}

/** Median ms of `runs` passes over `bytes`, whole or as 1 MiB scans (the size of real files). */
async function scanPasses(engine: YaraEngine, rules: CompiledRuleSet, bytes: Uint8Array, chunk: number) {
  const runs: number[] = [];
  let matched = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    for (let at = 0; at < bytes.length; at += chunk) {
      const r = await engine.scan({
        rules,
        target: { bytes: bytes.subarray(at, at + chunk) },
        timeoutMs: 600_000,
      });
      if (r.kind !== 'matched') throw new Error(`scan ${r.kind}: ${JSON.stringify(r)}`);
      matched = Math.max(matched, r.matches.length);
    }
    runs.push(performance.now() - start);
  }
  return { ms: [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!, runs, matched };
}

async function scanBench(pack: string, rules: CompiledRuleSet, ruleCount: number): Promise<void> {
  const engine = new YaraEngine({ threads: 1 });
  const start = performance.now();
  await engine.scan({ rules, target: { bytes: new Uint8Array(0) } });
  emit({
    name: `first-scan-${pack}`,
    rules: ruleCount,
    msIncludingDeserialize: Math.round(performance.now() - start),
  });
  for (const { name, bytes } of data) {
    for (const [mode, chunk] of [
      ['whole', BYTES],
      ['1MiB-files', 1024 * 1024],
    ] as const) {
      const { ms, runs, matched } = await scanPasses(engine, rules, bytes, chunk);
      emit({
        name: `scan-${pack}-${name}-${mode}`,
        rules: ruleCount,
        mb: BYTES / 1024 / 1024,
        ms: Math.round(ms),
        runsMs: runs.map(Math.round),
        mbPerSec: Math.round(BYTES / 1024 / 1024 / (ms / 1000)),
        maxMatchedRules: matched,
        ...(pack.startsWith('corpus') && mode === 'whole'
          ? { note: 'most corpus rules guard on filesize (< 1-5 MB): yara-x skips the pattern search' }
          : {}),
      });
    }
  }
  await engine.close();
}

async function compileBench(
  pack: string,
  options: CompileRulesOptions,
  ruleCount: number,
): Promise<CompiledRuleSet> {
  const dir = mkdtempSync(join(tmpdir(), 'tae-yara-bench-'));
  try {
    const time = async (engine: YaraEngine) => {
      const start = performance.now();
      const outcome = await engine.compile(options);
      return { outcome, ms: Number((performance.now() - start).toFixed(2)) };
    };
    const first = new YaraEngine({ threads: 1, cacheDir: dir });
    await first.compile({ sources: 'rule warm_up { condition: true }' }); // worker start and addon load
    const cold = await time(first);
    const memory = await time(first);
    await first.close();
    const second = new YaraEngine({ threads: 1, cacheDir: dir });
    const disk = await time(second);
    await second.close();
    if (cold.outcome.kind !== 'compiled') throw new Error(`pack ${pack} failed to compile`);
    emit({
      name: `compile-${pack}`,
      rules: ruleCount,
      skippedSources: cold.outcome.rules.skipped.length,
      serializedKiB: Math.round(cold.outcome.rules.serialized.length / 1024),
      coldMs: cold.ms,
      memoryCacheMs: memory.ms,
      diskCacheMs: disk.ms,
      cache: [cold.outcome.cache, memory.outcome.cache, disk.outcome.cache],
    });
    return cold.outcome.rules;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const data = buffers();
const packs: { pack: string; options: CompileRulesOptions; rules: number }[] = [
  { pack: 'small', options: { sources: SMALL_PACK }, rules: 15 },
  { pack: 'generated-1000', options: { sources: generatedPack(1000) }, rules: 1000 },
];
const corpus = corpusPack();
if (corpus)
  packs.push({
    pack: 'corpus-1000',
    options: { sources: corpus.sources, variables: VARIABLES, invalidSources: 'skip' },
    rules: corpus.rules,
  });
for (const { pack, options, rules } of packs)
  await scanBench(pack, await compileBench(pack, options, rules), rules);
