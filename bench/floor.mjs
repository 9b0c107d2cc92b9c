/**
 * The cost of a Node process that decodes nothing: start, read FILE, optionally look at each
 * byte once in a JS loop, and write OUT_BYTES to stdout in 64 KiB pieces.
 *   node bench/floor.mjs FILE OUT_BYTES [touch]
 * No decoder written in JavaScript can run the same job faster than this on the same machine.
 */
import { readFileSync, writeSync } from 'node:fs';

const [file, outBytes, mode] = process.argv.slice(2);
const bytes = readFileSync(file);
let sum = 0;
if (mode === 'touch') for (let i = 0; i < bytes.length; i++) sum = (sum + bytes[i]) | 0;
const piece = Buffer.alloc(1 << 16, 0x20);
for (let n = 0; n < Number(outBytes); n += piece.length) {
  writeSync(1, piece, 0, Math.min(piece.length, Number(outBytes) - n));
}
// Keeps the loop from being optimised away.
if (sum === 0x7fffffff) process.stderr.write('\n');
