/**
 * Child process for test/crypto-sealed-memory: authenticates and reads a sealed file (argv:
 * path, key hex, aad, plain bytes, sealed bytes) and prints how far RSS rose above where it
 * stood once the first segment was read (the decipher thread started), in bytes, and the
 * plaintext's SHA-256, as JSON.
 */
import { createHash } from 'node:crypto';
import { openSync, readSync } from 'node:fs';
import { SealedReader } from '../../src/crypto/index.js';

const [path, keyHex, aad, plainText, sealedText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const plainBytes = Number(plainText);
const fd = openSync(path, 'r');
const into = Buffer.alloc(1024 * 1024);
let base: number | undefined;
let peak = 0;
const sample = () => {
  if (base !== undefined) peak = Math.max(peak, process.memoryUsage().rss - base);
};
const reader = await SealedReader.open(
  Buffer.from(keyHex, 'hex'),
  aad,
  plainBytes,
  Number(sealedText),
  async (b, at) => {
    sample();
    return readSync(fd, b, 0, b.length, at);
  },
);
// The first segment starts the decipher thread (its heap and modules are not the file's): RSS
// is measured from there.
await reader.read(into, 0);
base = process.memoryUsage().rss;
await reader.verifyAll();
const digest = createHash('sha256');
for (let at = 0; at < plainBytes; at += into.length)
  digest.update(into.subarray(0, await reader.read(into, at)));
reader.close();
sample();
process.stdout.write(JSON.stringify({ rise: peak, sha256: digest.digest('hex') }));
