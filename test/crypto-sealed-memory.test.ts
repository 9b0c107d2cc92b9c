/**
 * Reading a sealed blob holds one segment of plaintext at a time: each buffer the decipher
 * makes (on a decipher thread) is wiped and freed at once, so authenticating a whole large file
 * (a private job's input, checked before any byte is used) does not pile up
 * freed-but-uncollected plaintext.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SegmentSealer } from '../src/crypto/index.js';

const MiB = 1024 * 1024;

test('authenticating and reading a 96 MiB sealed file raises RSS by a few MiB, not by the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-sealed-'));
  const path = join(dir, 'blob');
  const key = randomBytes(32);
  const aad = 'file:x';
  const plainBytes = 96 * MiB;
  const digest = createHash('sha256');
  let sealedBytes = 0;
  const fd = openSync(path, 'w+');
  try {
    const sealer = new SegmentSealer(key, aad);
    const put = (b: Buffer) => {
      writeSync(fd, b);
      sealedBytes += b.length;
    };
    put(sealer.header());
    // Deterministic, incompressible-enough content, one MiB at a time (nothing big held here).
    for (let i = 0; i < plainBytes / MiB; i++) {
      // A new piece each time: the sealer may keep a view of it until its segment is full.
      const piece = Buffer.alloc(MiB, i & 0xff);
      piece.writeUInt32BE(i, 0);
      digest.update(piece);
      for (const segment of sealer.push(piece)) put(segment);
    }
    put(sealer.finish());
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'helpers', 'sealed-read-child.ts'),
        path,
        key.toString('hex'),
        aad,
        String(plainBytes),
        String(sealedBytes),
      ],
      // As the CLI runs (src/cli/program.ts): segments freed on the decipher thread that malloc'd
      // them here stay in per-thread arenas otherwise (+22 MiB over 192 MiB, +2 with two arenas).
      { encoding: 'utf8', env: { ...process.env, MALLOC_ARENA_MAX: '2' } },
    );
    assert.equal(child.status, 0, child.stderr);
    const { rise, sha256 } = JSON.parse(child.stdout) as { rise: number; sha256: string };
    assert.equal(sha256, digest.digest('hex'));
    assert.ok(rise < 24 * MiB, `RSS rose by ${(rise / MiB).toFixed(1)} MiB`);
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
});
