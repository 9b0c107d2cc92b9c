/**
 * Clients over `node:net` that the common ones do not show plainly: one that writes its whole
 * body before it looks at the answer (as Python's http.client does), and one that sends only a
 * head with `Expect: 100-continue` and records every byte the server sends until it closes.
 */
import { connect, type Socket } from 'node:net';
import { parse, type RawAnswer } from './raw-http.js';

const collect = (socket: Socket): Buffer[] => {
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  return chunks;
};

/** A request head (`Host` added, blank line included). */
export const head = (method: string, path: string, headers: Readonly<Record<string, string>>): string =>
  [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');

/** HTTP/1.1 chunked framing of `chunks`, with the last chunk. */
export async function* chunked(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const c of chunks)
    yield Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]);
  yield Buffer.from('0\r\n\r\n');
}

export interface WholeBodySent {
  /** The first write that failed (EPIPE, ECONNRESET), or null: the server took every byte. */
  readonly writeError: string | null;
  readonly answer: RawAnswer | 'partial';
}

/** Writes `requestHead` and every chunk of `body`, each write awaited, then reads the answer. */
export async function sendWholeBody(
  port: number,
  requestHead: string,
  body: AsyncIterable<Buffer> | Iterable<Buffer>,
): Promise<WholeBodySent> {
  const socket = connect(port, '127.0.0.1');
  const chunks = collect(socket);
  socket.on('error', () => {}); // reported by the write that meets it
  let writeError: string | null = null;
  const write = (b: Buffer | string) =>
    new Promise<void>((resolve, reject) => socket.write(b, (e) => (e ? reject(e) : resolve())));
  try {
    await write(requestHead);
    for await (const c of body) await write(c);
  } catch (e) {
    writeError = (e as NodeJS.ErrnoException).code ?? String(e);
  }
  const deadline = Date.now() + 10_000;
  while (parse(Buffer.concat(chunks)) === 'partial' && !socket.closed && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  socket.destroy();
  return { writeError, answer: parse(Buffer.concat(chunks)) };
}

/** Everything the server sent after `requestHead` alone, and when it closed (ms; null: not in 10 s). */
export async function headOnly(
  port: number,
  requestHead: string,
): Promise<{ text: string; closedAfterMs: number | null }> {
  const socket = connect(port, '127.0.0.1');
  const chunks = collect(socket);
  socket.on('error', () => {});
  const started = Date.now();
  socket.write(requestHead);
  const closed = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), 10_000);
    const done = () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    };
    socket.once('end', done).once('close', done);
  });
  socket.destroy();
  return { text: Buffer.concat(chunks).toString('latin1'), closedAfterMs: closed };
}
