/**
 * Reading a JSON request body: `Content-Type: application/json` (any parameters), at most
 * `maxBytes` (checked against Content-Length first, before any 100 Continue, then while
 * reading), UTF-8, one JSON object. What the object holds is the engine's to judge.
 */
import type { IncomingMessage } from 'node:http';
import type { Endpoint } from '../service/index.js';
import { startReading } from './request-body.js';
import { clientGone, payloadTooLarge, unreadableBody } from './transport-errors.js';

/** The media type of a Content-Type header, lowercased, without parameters. */
export const mediaType = (header: string | undefined): string =>
  (header ?? '').split(';')[0]!.trim().toLowerCase();

export function declaredTooLarge(req: IncomingMessage, maxBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > maxBytes;
}

function readBytes(req: IncomingMessage, endpoint: Endpoint, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (settle: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        req.pause();
        done(() => reject(payloadTooLarge(endpoint)));
      }
    };
    const onEnd = () => done(() => resolve(Buffer.concat(chunks, size)));
    const onGone = () => done(() => reject(clientGone(endpoint)));
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

/** A JSON body's object, unchecked beyond being an object. */
export type JsonObject = Readonly<Record<string, unknown>>;

export async function readJsonBody(
  req: IncomingMessage,
  endpoint: Endpoint,
  maxBytes: number,
): Promise<JsonObject> {
  if (mediaType(req.headers['content-type']) !== 'application/json') {
    throw unreadableBody(endpoint, 'Content-Type must be application/json');
  }
  if (declaredTooLarge(req, maxBytes)) throw payloadTooLarge(endpoint);
  startReading(req);
  const bytes = await readBytes(req, endpoint, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw unreadableBody(endpoint, 'the body is not UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unreadableBody(endpoint, 'malformed JSON body');
  }
  if (!isJsonObject(value)) throw unreadableBody(endpoint, 'the body must be a JSON object');
  return value;
}

const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
