/**
 * Acceptance 3 of issue 4: the corpus's SigmaHQ and YARA trees imported as packs; 20 named
 * rules of each kind come back as their exact file lines; a missing name gives the 404.
 * Skips cleanly when the corpus is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { TaeError } from '../src/errors/index.js';
import { openRuleLibrary, type RuleKind } from '../src/rules/index.js';
import { CORPUS } from './helpers/corpus.js';

const SIGMA = join(CORPUS, 'sigma');
const YARA = join(CORPUS, 'yara');
const SKIP = existsSync(SIGMA) && existsSync(YARA) ? false : `rule corpus not found under ${CORPUS}`;

/** Rule files as the library sees them: by extension, no dot entries. */
function ruleFiles(dir: string, kind: RuleKind): string[] {
  const ext = kind === 'sigma' ? /\.ya?ml$/i : /\.yara?$/i;
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.isFile() && ext.test(e.name)) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out.sort();
}

const nameOf = (file: string) => file.slice(file.lastIndexOf('/') + 1).replace(/\.(ya?ml|yara?)$/i, '');

/** The file's lines read independently: split at LF, CR of CRLF dropped, no line after a final newline. */
function fileLines(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}

/** 20 files: the first CRLF files and files without a final newline, then evenly spread ones. */
function pick(files: readonly string[]): string[] {
  const raw = (f: string) => readFileSync(f, 'latin1');
  const crlf = files.filter((f) => raw(f).includes('\r\n')).slice(0, 3);
  const unterminated = files.filter((f) => !raw(f).endsWith('\n')).slice(0, 3);
  const chosen = new Set([...crlf, ...unterminated]);
  const step = Math.floor(files.length / 20);
  for (let i = 0; chosen.size < 20 && i < files.length; i++)
    chosen.add(files[(i * step + 7) % files.length]!);
  return [...chosen];
}

test('corpus packs: 20 named Sigma and 20 named YARA rules come back as their exact lines; a missing name is a 404', {
  skip: SKIP,
  timeout: 60_000,
}, async () => {
  const lib = await openRuleLibrary({ dataDir: false, env: {}, builtin: false });
  let t0 = performance.now();
  const sigmaReport = await lib.addPack(SIGMA);
  const sigmaMs = performance.now() - t0;
  t0 = performance.now();
  const yaraReport = await lib.addPack(YARA);
  const yaraMs = performance.now() - t0;
  console.log(
    `indexed ${sigmaReport.pack.sigma} Sigma files in ${sigmaMs.toFixed(0)} ms, ${yaraReport.pack.yara} YARA files in ${yaraMs.toFixed(0)} ms`,
  );

  for (const [kind, dir] of [
    ['sigma', SIGMA],
    ['yara', YARA],
  ] as const) {
    const files = ruleFiles(dir, kind);
    const chosen = pick(files);
    const names = chosen.map(nameOf);
    assert.equal(new Set(names).size, 20, 'the corpus names are unique within each tree');
    t0 = performance.now();
    const { results } = lib.get(kind, names);
    console.log(`get(${kind}, 20 names): ${(performance.now() - t0).toFixed(2)} ms`);
    assert.deepEqual(Object.keys(results), names);
    for (const file of chosen)
      assert.deepEqual(results[nameOf(file)], fileLines(file), relative(CORPUS, file));

    assert.throws(
      () => lib.get(kind, [...names.slice(0, 5), 'no_such_rule_in_any_pack']),
      (e: unknown) =>
        e instanceof TaeError &&
        e.status === 404 &&
        e.message === 'One or more rules not found' &&
        e.bodyFormat === (kind === 'sigma' ? 'text' : 'json'),
    );
  }
  // Every indexed rule file, not only the 20: the index holds the files' exact lines.
  const indexed = lib.list();
  const byPath = new Map(indexed.map((r) => [`${r.pack}/${r.path}`, r.name]));
  let compared = 0;
  for (const [kind, dir, pack] of [
    ['sigma', SIGMA, sigmaReport.pack.name],
    ['yara', YARA, yaraReport.pack.name],
  ] as const) {
    const files = ruleFiles(dir, kind).filter((f) => byPath.has(`${pack}/${relative(dir, f)}`));
    for (let i = 0; i < files.length; i += 1000) {
      const batch = files.slice(i, i + 1000);
      const { results } = lib.get(kind, batch.map(nameOf));
      for (const f of batch) assert.deepEqual(results[nameOf(f)], fileLines(f), f);
      compared += batch.length;
    }
  }
  assert.ok(compared >= 5300, `${compared} files compared`);
  t0 = performance.now();
  assert.equal((await lib.addPack(SIGMA)).unchanged, true);
  console.log(`re-adding the unchanged Sigma pack: ${(performance.now() - t0).toFixed(0)} ms`);
  lib.close();
});
