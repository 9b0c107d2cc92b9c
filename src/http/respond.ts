/**
 * Writing answers. Success bodies are JSON; errors are the error table's answer (JSON
 * `{ error }` or plain text per endpoint). An answer sent before the request body was read
 * (413, 408, a rejected upload) leaves the rest of the body to request-body.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TaeError } from '../errors/index.js';
import { errorResponse } from '../service/index.js';
import { bodyHeaders, endAnswer } from './request-body.js';

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

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
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...headers,
    'Content-Type': contentType,
    'Content-Length': String(bytes.length),
    ...bodyHeaders(req, status),
  });
  endAnswer(req, res, status, bytes);
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
