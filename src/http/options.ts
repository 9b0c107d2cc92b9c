/**
 * Options of the HTTP front, checked at the door. The limits are the transport's own: how big
 * a request body may be and how long an upload may take to arrive. The engine keeps its own
 * limits (per-file size, totals per job) and answers them itself.
 */
import { invalidOption } from '../errors/index.js';
import { DEFAULT_LIMITS } from '../service/index.js';
import { MAX_PARTS, PART_OVERHEAD_BYTES } from './upload-form.js';

const MiB = 1024 ** 2;

export interface HttpLimits {
  /** A JSON body of `yara/data` and `sigma/data`, whose test_data is Base64 (YARA takes 32 MiB). */
  readonly dataJsonBytes: number;
  /** A JSON body of any other endpoint (a custom rule is at most 1 MiB before Base64). */
  readonly jsonBytes: number;
  /**
   * A whole multipart upload request. Parts stream into the engine one by one (to disk with a
   * data directory), so this bounds no memory: by default it is what the documented limits
   * admit (100 files of 250 MiB and the form's overhead), so that a declared Content-Length
   * past it is refused before a byte is read (or a 100 Continue sent).
   */
  readonly uploadBytes: number;
  /** The whole upload request must arrive within this (the spec's 30 s), else 408. */
  readonly uploadTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  dataJsonBytes: 64 * MiB,
  jsonBytes: 4 * MiB,
  uploadBytes:
    DEFAULT_LIMITS.maxFilesPerUpload * DEFAULT_LIMITS.uploadFileBytes + MAX_PARTS * PART_OVERHEAD_BYTES,
  uploadTimeoutMs: DEFAULT_LIMITS.uploadTimeoutMs,
});

/** At most `requests` calls per caller (token, else client address) in each window. */
export interface RateLimit {
  readonly requests: number;
  readonly windowMs: number;
}

export interface HttpOptions {
  /** The word in the header names `X-<brand>-Api-Token` and `X-<brand>-Api-Enc-Key` (default `Service`). */
  readonly brand?: string;
  readonly limits?: Partial<HttpLimits>;
  /**
   * Applied to the endpoints whose error table has a `rateLimited` row (the spec lists 429
   * for YARA file jobs); default none, since the spec gives no numbers.
   */
  readonly rateLimit?: RateLimit | null;
  /**
   * Host header names (without port) accepted; others get 421, which keeps a loopback server
   * out of reach of DNS-rebinding pages. Default: any (`serve` on loopback sets the loopback names).
   */
  readonly allowedHosts?: readonly string[] | null;
  /** Unexpected failures of the HTTP layer itself, with the error id their 500 quoted. */
  readonly onInternalError?: (error: unknown, errorId: string) => void;
  /** A client that closed its connection before its request arrived whole (not answered). */
  readonly onClientAbort?: (request: ClientAbort) => void;
  /**
   * A request answered 507 because the data directory's disk is full: no failure of ours and
   * nothing for the client to fix, but the operator must free space (`tae serve` logs it).
   */
  readonly onNoSpace?: (request: ClientAbort) => void;
}

export interface ClientAbort {
  readonly method: string;
  /** The request path, without its query. */
  readonly path: string;
}

export interface ResolvedOptions {
  readonly tokenHeader: string;
  readonly keyHeader: string;
  /** `X-<brand>-Api-`, replacing `X-Service-Api-` in the engine's messages that name a header. */
  readonly headerPrefix: string;
  readonly limits: HttpLimits;
  readonly rateLimit: RateLimit | null;
  readonly allowedHosts: ReadonlySet<string> | null;
  readonly onInternalError: (error: unknown, errorId: string) => void;
  readonly onClientAbort: (request: ClientAbort) => void;
  readonly onNoSpace: (request: ClientAbort) => void;
}

const BRAND = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?$/;
const positive = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

export function resolveOptions(options: HttpOptions): ResolvedOptions {
  const brand = options.brand ?? 'Service';
  if (!BRAND.test(brand)) throw invalidOption('brand', 'letters, digits and inner hyphens (1 to 32)', brand);
  const limits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  for (const [k, v] of Object.entries(limits)) {
    if (!positive(v)) throw invalidOption(`limits.${k}`, 'a positive integer', v);
  }
  const rateLimit = options.rateLimit ?? null;
  if (rateLimit !== null) {
    if (!positive(rateLimit.requests))
      throw invalidOption('rateLimit.requests', 'a positive integer', rateLimit.requests);
    if (!positive(rateLimit.windowMs))
      throw invalidOption('rateLimit.windowMs', 'a positive integer', rateLimit.windowMs);
  }
  const hosts = options.allowedHosts ?? null;
  if (hosts !== null && (!Array.isArray(hosts) || !hosts.every((h) => typeof h === 'string'))) {
    throw invalidOption('allowedHosts', 'an array of host names, or null', hosts);
  }
  const prefix = `X-${brand}-Api-`;
  return {
    tokenHeader: `${prefix}Token`.toLowerCase(),
    keyHeader: `${prefix}Enc-Key`.toLowerCase(),
    headerPrefix: prefix,
    limits,
    rateLimit,
    allowedHosts: hosts === null ? null : new Set(hosts.map((h) => h.toLowerCase())),
    onInternalError: options.onInternalError ?? (() => {}),
    onClientAbort: options.onClientAbort ?? (() => {}),
    onNoSpace: options.onNoSpace ?? (() => {}),
  };
}
