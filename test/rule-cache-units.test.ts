/**
 * Small parts of the rule caches and what keys them, called directly: the lazy map the learnt
 * scanners are read through (src/rules/cache/lazy-map.ts), the package version every cache key
 * starts with (src/version), and the CLI's YARA cache directory (src/cli/rule-cache.ts), made
 * owner-only and trimmed to its bound, newest entries kept.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { test } from 'node:test';
import { yaraCacheDir } from '../src/cli/rule-cache.js';
import { LazyMap } from '../src/rules/cache/lazy-map.js';
import { packageVersion } from '../src/version/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-rule-cache-units-'));

test('a LazyMap makes its map on first use, once, and then reads as that map', () => {
  let made = 0;
  const source = new Map([
    ['b', 2],
    ['a', 1],
  ]);
  const lazy = new LazyMap(() => {
    made++;
    return source;
  });
  assert.equal(made, 0, 'nothing is read before it is asked for');
  assert.equal(lazy.size, 2);
  assert.equal(made, 1);
  assert.equal(lazy.get('a'), 1);
  assert.equal(lazy.get('z'), undefined);
  assert.equal(lazy.has('b'), true);
  assert.equal(lazy.has('z'), false);
  assert.deepEqual([...lazy.keys()], ['b', 'a']);
  assert.deepEqual([...lazy.values()], [2, 1]);
  assert.deepEqual([...lazy.entries()], [...source.entries()]);
  assert.deepEqual([...lazy], [...source]);
  assert.deepEqual(new Map(lazy), source);
  const seen: unknown[] = [];
  const self = { tag: 'self' };
  lazy.forEach(function (this: unknown, v, k, m) {
    seen.push([k, v, m === lazy, this]);
  }, self);
  assert.deepEqual(seen, [
    ['b', 2, true, self],
    ['a', 1, true, self],
  ]);
  assert.equal(made, 1, 'made once');
});

test("a LazyMap's maker runs only when the map is first used: making one reads nothing", () => {
  const lazy = new LazyMap<string, number>(() => {
    throw new Error('read');
  });
  assert.ok(lazy instanceof LazyMap);
  assert.throws(() => lazy.size, /read/, 'the maker runs when the map is first used');
});

test("the package version is the nearest package.json's above the module, else unknown", () => {
  const own = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).version;
  assert.equal(packageVersion(), own);
  const pkg = join(dir, 'pkg');
  mkdirSync(join(pkg, 'dist', 'src', 'version'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'x', version: '9.8.7-rc.1' }));
  assert.equal(packageVersion(join(pkg, 'dist', 'src', 'version', 'index.js')), '9.8.7-rc.1');
  // The nearest one wins.
  writeFileSync(join(pkg, 'dist', 'package.json'), JSON.stringify({ version: '1.0.0' }));
  assert.equal(packageVersion(join(pkg, 'dist', 'src', 'version', 'index.js')), '1.0.0');
  // None above: only when no directory from here to the root holds one.
  const lone = join(dir, 'lone', 'a', 'b.js');
  const above: string[] = [];
  for (let d = dirname(lone); d !== parse(d).root; d = dirname(d)) above.push(join(d, 'package.json'));
  if (!above.some((f) => existsSync(f)) && !existsSync(join(parse(lone).root, 'package.json')))
    assert.equal(packageVersion(lone), 'unknown');
});

test('the YARA cache directory is made owner-only and trimmed to its bound, the newest entries kept', () => {
  const base = join(dir, 'cache');
  const yara = yaraCacheDir(base, 1 << 20);
  assert.equal(yara, join(base, 'yara'));
  assert.equal(statSync(yara).mode & 0o777, 0o700);
  const name = (i: number) => `${String(i).repeat(64)}.yarx`;
  for (const i of [1, 2, 3]) {
    writeFileSync(join(yara, name(i)), Buffer.alloc(400_000));
    const t = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    utimesSync(join(yara, name(i)), t, t);
  }
  writeFileSync(join(yara, 'notes.txt'), Buffer.alloc(2_000_000));
  assert.equal(yaraCacheDir(base, 1 << 20), yara);
  assert.deepEqual(readdirSync(yara).sort(), [name(2), name(3), 'notes.txt'].sort(), 'the oldest went');
  const file = join(dir, 'a-file');
  writeFileSync(file, '');
  assert.equal(yaraCacheDir(file), undefined, 'a directory that cannot be made: none');
});
