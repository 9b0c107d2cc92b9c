/**
 * Hand-made HTTP/1.1 requests over `node:net`, for bodies no well-behaved client sends:
 * truncated forms, lying Content-Length, sockets cut mid-part. The answer is read while the
 * body is still being written, as a client racing an early rejection would.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** null: the connection closed (or the wait ran out) before a status line arrived. */
  readonly status: number | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface RawRequest {
  readonly port: number;
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** Content-Length to declare (default: the body's length; null: none). */
  readonly contentLength?: number | null;
  /** Write only this many body bytes, wait `cutAfterMs`, then destroy the socket. */
  readonly cutAt?: number;
  readonly cutAfterMs?: number;
  /** Give up waiting for an answer after this (default 10 s). */
  readonly waitMs?: number;
}

/** The answer in `raw`, or 'partial' until it is whole (a 100 Continue before it is skipped). */
export function parse(raw: Buffer): RawAnswer | 'partial' {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return 'partial';
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? Number.NaN);
  const body = raw.subarray(end + 4);
  const length = Number(headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(length) && body.length < length) return 'partial';
  if (status === 100) return parse(body);
  return { status: Number.isNaN(status) ? null : status, headers, body: body.toString('utf8') };
}

export function rawRequest(r: RawRequest): Promise<RawAnswer> {
  const body = r.body ?? Buffer.alloc(0);
  const length = r.contentLength === undefined ? body.length : r.contentLength;
  const head = [
    `${r.method ?? 'POST'} ${r.path ?? '/upload'} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    ...(length === null ? [] : [`Content-Length: ${length}`]),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve) => {
    const socket = connect(r.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const got = parse(Buffer.concat(chunks));
      resolve(got === 'partial' ? { status: null, headers: {}, body: '' } : got);
    };
    const timer = setTimeout(settle, r.waitMs ?? 10_000);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (parse(Buffer.concat(chunks)) !== 'partial') settle();
    });
    socket.on('error', () => {}); // EPIPE / ECONNRESET after an early answer: read what came
    socket.on('close', settle);
    socket.write(head);
    if (r.cutAt === undefined) socket.write(body);
    else {
      socket.write(body.subarray(0, r.cutAt));
      setTimeout(settle, r.cutAfterMs ?? 0);
    }
  });
}

export interface Part {
  readonly field?: string;
  readonly filename: string;
  readonly data: Uint8Array;
}

/** A multipart/form-data body; `close: false` leaves out the closing boundary. */
export function multipart(boundary: string, parts: readonly Part[], close = true): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    out.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.field ?? 'files'}"; ` +
          `filename="${p.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  if (close) out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}
