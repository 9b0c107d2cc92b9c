/**
 * Writing answers. Success bodies are JSON; errors are the error table's answer (JSON
 * `{ error }` or plain text per endpoint). An answer sent before the request body was read
 * (413, 408, a rejected upload) closes the connection: the rest of the body is drained for a
 * moment, so the client can finish sending and read the answer, then the socket is closed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TaeError } from '../errors/index.js';
import { errorResponse } from '../service/index.js';

const DRAIN_MS = 1000;

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** Body bytes the client may still be sending, unread. */
const bodyPending = (req: IncomingMessage): boolean =>
  !req.complete &&
  (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);

export function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const bytes = Buffer.from(body, 'utf8');
  const pending = bodyPending(req);
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...headers,
    'Content-Type': contentType,
    'Content-Length': String(bytes.length),
    ...(pending ? { Connection: 'close' } : {}),
  });
  if (pending) {
    res.once('finish', () => {
      req.resume();
      setTimeout(() => req.socket.destroy(), DRAIN_MS).unref();
    });
  }
  res.end(bytes);
}

export function sendJson(req: IncomingMessage, res: ServerResponse, value: unknown): void {
  send(req, res, 200, 'application/json', JSON.stringify(value));
}

/**
 * `headerPrefix` replaces `X-Service-Api-` in messages naming a header, and in the names of the
 * error's own headers (a key error's `X-Service-Api-Enc-Key-Error`), when the brand differs.
 */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  e: TaeError,
  headerPrefix: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const { status, contentType, body, headers: own = {} } = errorResponse(e);
  const rebrand = (text: string) => text.replaceAll('X-Service-Api-', headerPrefix);
  const named = Object.entries(own).map(([name, value]) => [rebrand(name), value]);
  send(req, res, status, contentType, rebrand(body), { ...Object.fromEntries(named), ...headers });
}
