/**
 * `serve`: the HTTP twin on a port, loopback by default. Node's own request timeout is set a
 * little past the upload clock, so the upload's 408 (with its body) comes first and Node's
 * bare 408 only catches requests whose headers or JSON bodies never finish arriving.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalidOption, TaeError } from '../errors/index.js';
import type { Engine } from '../service/index.js';
import { createHttpHandler } from './handler.js';
import { DEFAULT_HTTP_LIMITS, type HttpOptions } from './options.js';
import { holdContinue } from './request-body.js';

export interface ServeOptions extends HttpOptions {
  readonly engine: Engine;
  /** TCP port; 0 (default) picks a free one (read it from `url`). */
  readonly port?: number;
  /** Address to listen on (default `127.0.0.1`). */
  readonly host?: string;
}

export interface RunningServer {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets answers in flight finish (at most `graceMs`, default 5 s), then closes. */
  readonly close: (options?: { readonly graceMs?: number }) => Promise<void>;
}

const GRACE_MS = 5_000;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      reject(
        new TaeError('INVALID_ARGUMENT', `cannot listen on ${host}:${port}: ${e.code ?? e.message}`, {
          cause: e,
        }),
      );
    });
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw invalidOption('port', 'an integer from 0 to 65535', port);
  if (typeof host !== 'string' || host === '') throw invalidOption('host', 'an address or host name', host);
  const handler = createHttpHandler(options.engine, {
    ...options,
    allowedHosts: options.allowedHosts ?? (isLoopback(host) ? [...LOOPBACK_HOSTS, host] : null),
  });
  const uploadTimeoutMs = options.limits?.uploadTimeoutMs ?? DEFAULT_HTTP_LIMITS.uploadTimeoutMs;
  const requestTimeout = uploadTimeoutMs + 5_000;
  const server = createServer({ requestTimeout, headersTimeout: Math.min(requestTimeout, 60_000) }, handler);
  // Without this listener Node sends 100 Continue before the handler runs, inviting the body
  // of a request about to be refused (see request-body.ts).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    holdContinue(req, res);
    handler(req, res);
  });
  const address = await listen(server, port, host);
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  const cuts: NodeJS.Timeout[] = [];
  return {
    url: `http://${shown}:${address.port}`,
    port: address.port,
    close: ({ graceMs = GRACE_MS } = {}) => {
      // Each call may shorten the grace (a second Ctrl-C: graceMs 0); the first one closes.
      cuts.push(setTimeout(() => server.closeAllConnections(), graceMs));
      closing ??= (async () => {
        const closed = once(server, 'close');
        server.close();
        // Keep-alive connections whose answer finishes after this point are idle only later.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.closeIdleConnections();
        await closed;
        clearInterval(sweep);
        for (const t of cuts) clearTimeout(t);
      })();
      return closing;
    },
  };
}
