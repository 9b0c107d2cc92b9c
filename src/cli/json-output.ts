/**
 * A result document written as `JSON.stringify(value, null, 2)` and a newline would write it,
 * byte for byte, but in pieces: a 1 GB job's 6.7 MB result as one string, then as one buffer to
 * write, lifted the CLI's peak RSS by about 45 MiB just as the job ended.
 */
import { displayJson } from '../display/index.js';
import { Output } from './output.js';
import { writeOutputFile } from './output-file.js';

/** Levels of objects and arrays walked; deeper values are stringified whole. */
const WALKED_LEVELS = 5;
/** Pieces gathered before a write. */
const WRITE_BYTES = 1 << 16;

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** The text of `JSON.stringify(value, null, 2)`, in pieces (`indent`: the column `value` starts at). */
export function* jsonPieces(value: unknown, levels = WALKED_LEVELS, indent = ''): Generator<string> {
  const walked =
    levels > 0 &&
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  if (!walked) {
    const text = JSON.stringify(value, null, 2) as string | undefined;
    // A string's newlines are escaped, so every raw newline starts a line of the structure.
    yield text === undefined ? 'null' : text.replaceAll('\n', `\n${indent}`);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '[' : ','}\n${inner}`;
      const v: unknown = value[i];
      if (omitted(v)) yield 'null';
      else yield* jsonPieces(v, levels - 1, inner);
    }
    yield `\n${indent}]`;
    return;
  }
  let first = true;
  for (const [k, v] of Object.entries(value)) {
    if (omitted(v)) continue;
    yield `${first ? '{' : ','}\n${inner}${JSON.stringify(k)}: `;
    first = false;
    yield* jsonPieces(v, levels - 1, inner);
  }
  yield first ? '{}' : `\n${indent}}`;
}

/** Gathers pieces into writes of about WRITE_BYTES, ending with a newline. */
function* batches(value: unknown): Generator<string> {
  let batch = '';
  for (const piece of jsonPieces(value)) {
    batch += piece;
    if (batch.length >= WRITE_BYTES) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}\n`;
}

/** Writes the document to stdout (with back-pressure), terminal-safe (`displayJson`). */
export async function printJson(value: unknown, out = new Output()): Promise<void> {
  for (const batch of batches(value)) await out.write(displayJson(batch));
  await out.flush();
}

/** Writes the document to the file at `path` (replaced), whole or not at all. */
export function writeJsonFile(path: string, value: unknown): void {
  writeOutputFile(path, batches(value));
}
