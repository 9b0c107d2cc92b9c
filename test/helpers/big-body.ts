/**
 * Request bodies of hundreds of MiB written to disk piece by piece, never whole in memory:
 * text pieces and runs of zero bytes (the upload endpoint stores any bytes).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

const MiB = 1024 ** 2;
const ZEROS = Buffer.alloc(MiB);

/** A piece of a body: text as UTF-8, or a count of zero bytes. */
export type Piece = string | number;

/** Writes `pieces` to `path`; resolves to the body's length. */
export async function writeBody(path: string, pieces: readonly Piece[]): Promise<number> {
  const out = createWriteStream(path);
  let length = 0;
  const put = async (b: Buffer) => {
    length += b.length;
    if (!out.write(b)) await once(out, 'drain');
  };
  for (const p of pieces) {
    if (typeof p === 'string') await put(Buffer.from(p));
    else for (let left = p; left > 0; left -= MiB) await put(left >= MiB ? ZEROS : ZEROS.subarray(0, left));
  }
  out.end();
  await once(out, 'finish');
  return length;
}

/** The pieces of a multipart form whose `files` parts hold zero bytes. */
export function zeroForm(
  boundary: string,
  files: readonly (readonly [name: string, bytes: number])[],
): Piece[] {
  const pieces: Piece[] = [];
  for (const [name, bytes] of files) {
    pieces.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
      bytes,
      '\r\n',
    );
  }
  pieces.push(`--${boundary}--\r\n`);
  return pieces;
}
