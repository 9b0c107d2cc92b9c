/** A small HTTP client for the twin's tests: the two auth headers, JSON or raw bodies, text answers. */
import type { Auth } from '../../src/service/index.js';

export interface Answer {
  status: number;
  type: string | null;
  text: string;
  headers: Headers;
}

export function headersOf(auth: Auth, brand = 'Service'): Record<string, string> {
  const h: Record<string, string> = {};
  if (auth.token) h[`X-${brand}-Api-Token`] = auth.token;
  if (auth.encKey) h[`X-${brand}-Api-Enc-Key`] = auth.encKey;
  return h;
}

export async function call(
  base: string,
  method: string,
  path: string,
  o: {
    auth?: Auth;
    json?: unknown;
    body?: NonNullable<RequestInit['body']>;
    headers?: Record<string, string>;
    brand?: string;
  } = {},
): Promise<Answer> {
  const headers = { ...headersOf(o.auth ?? {}, o.brand), ...o.headers };
  if (o.json !== undefined) headers['Content-Type'] ??= 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(o.json !== undefined
      ? { body: JSON.stringify(o.json) }
      : o.body !== undefined
        ? { body: o.body }
        : {}),
    ...(o.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    text: await res.text(),
    headers: res.headers,
  };
}
