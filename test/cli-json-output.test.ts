/**
 * Result documents written in pieces (src/cli/json-output.ts) are byte for byte what
 * `JSON.stringify(value, null, 2)` and a newline give, whatever the values: nested arrays and
 * objects, left-out values (undefined, functions), toJSON, empty containers, integer-like keys,
 * strings with newlines and non-ASCII text; a file that cannot be written is a clear error.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import { prng } from '../fixtures/prng.js';
import { jsonPieces, printJson, writeJsonFile } from '../src/cli/json-output.js';
import { Output } from '../src/cli/output.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-json-output-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LEAVES: unknown[] = [
  0,
  -1.5,
  1e21,
  Number.NaN,
  true,
  false,
  null,
  undefined,
  '',
  'a\nb',
  'ünï "q" \\ \u2028',
  '😀',
  () => 1,
  new Date(0),
  { toJSON: () => ({ x: [1] }) },
  [],
  {},
];

function value(rand: () => number, depth: number): unknown {
  if (depth === 0 || rand() < 0.3) return LEAVES[Math.floor(rand() * LEAVES.length)];
  if (rand() < 0.5) return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 4); i > 0; i--)
    o[rand() < 0.3 ? String(Math.floor(rand() * 9)) : `k${Math.floor(rand() * 99)}`] = value(rand, depth - 1);
  return o;
}

test('the pieces join to JSON.stringify(value, null, 2) over random documents, at any walked depth', () => {
  const rand = prng(5);
  for (let round = 0; round < 2000; round++) {
    const v = value(rand, 7);
    const want = JSON.stringify(v, null, 2) ?? 'null';
    for (const levels of [0, 1, 3, 8]) assert.equal([...jsonPieces(v, levels)].join(''), want);
  }
});

test('a document file holds the JSON text and a newline; an unwritable path is an error naming it', () => {
  const doc = {
    id: 'x',
    insights: [
      {
        Table: {
          title: 't',
          data: [
            ['a', 'b'],
            ['ü', undefined],
          ],
        },
      },
    ],
    none: undefined,
  };
  const path = join(dir, 'doc.json');
  writeJsonFile(path, doc);
  assert.equal(readFileSync(path, 'utf8'), `${JSON.stringify(doc, null, 2)}\n`);
  assert.throws(() => writeJsonFile(dir, doc), /cannot write .*: EISDIR/);
});

test('a document printed through a slow stream arrives whole, in writes of bounded size', async () => {
  const doc = { rows: Array.from({ length: 5000 }, (_, i) => ({ n: i, text: `row ${i} ünï` })) };
  const writes: string[] = [];
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      setImmediate(done);
    },
  });
  await printJson(doc, new Output(stream));
  assert.equal(writes.join(''), `${JSON.stringify(doc, null, 2)}\n`);
  assert.ok(writes.length > 3, `several writes (${writes.length})`);
  assert.ok(Math.max(...writes.map((w) => w.length)) < 2 * 65_536, 'none holds the whole document');
});
