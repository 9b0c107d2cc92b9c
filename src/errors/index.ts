/**
 * The project's one error class. Codes form a closed set so callers branch on `code`,
 * never on message text. HTTP-facing codes carry the status and body format the
 * service interface prescribes; the HTTP adapter serialises them without logic.
 */
export { type FileTypeStats, fileKindOf } from './file-kind.js';

export const ERROR_CODES = {
  /** A bad option or request field (the spec's 400s: `Invalid test data format`, …). */
  INVALID_ARGUMENT: 400,
  INPUT_UNREADABLE: 400,
  UNAUTHORIZED: 401,
  /** An encryption key is required (private job or file). */
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** The data directory is held by another live process's engine (its lock file). */
  LOCKED: 423,
  TIMEOUT: 408,
  TOO_LARGE: 413,
  NOT_EVTX: 422,
  /** The spec's 422s: `Rule is required`, `Validation failed`. */
  VALIDATION_FAILED: 422,
  RATE_LIMITED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  /** A native package (YARA-X, SQLite) has no binary for this platform. */
  NATIVE_UNAVAILABLE: 501,
  /**
   * A write found no space left on its disk (or the user's quota): see no-space.ts. 507
   * Insufficient Storage (RFC 4918), a status the spec does not list (README "Interface decisions").
   */
  NO_SPACE: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorBodyFormat = 'json' | 'text';

export interface TaeErrorOptions {
  readonly context?: Readonly<Record<string, string | number | boolean>>;
  readonly status?: number;
  readonly bodyFormat?: ErrorBodyFormat;
  readonly cause?: unknown;
}

export class TaeError extends Error {
  override readonly name = 'TaeError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly bodyFormat: ErrorBodyFormat;
  readonly context: Readonly<Record<string, string | number | boolean>>;

  constructor(code: ErrorCode, message: string, options: TaeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code];
    this.bodyFormat = options.bodyFormat ?? 'json';
    this.context = options.context ?? {};
  }
}

export const isTaeError = (e: unknown): e is TaeError => e instanceof TaeError;

export {
  cannotWrite,
  fromThreadFailure,
  isNoSpace,
  NO_SPACE_TEXT,
  type ThreadFailure,
  threadFailure,
} from './no-space.js';

/** Fails with a message that names the option, as every public function validates at its door. */
export function invalidOption(option: string, expectation: string, got: unknown): TaeError {
  return new TaeError('INVALID_ARGUMENT', `options.${option} must be ${expectation}`, {
    context: { option, got: describe(got) },
  });
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

/**
 * Rejects an options object that is not one, or that has a key the function does not know:
 * a misspelled option (`thread` for `threads`) would otherwise be silently ignored.
 */
export function checkOptionKeys(options: unknown, known: Readonly<Record<string, true>>): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw invalidOption('options', 'an object', options);
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(known, key)) continue;
    const near = Object.keys(known).find((k) => editDistance(k, key) <= 2);
    throw new TaeError(
      'INVALID_ARGUMENT',
      `unknown option '${key}'${near === undefined ? '' : ` (did you mean '${near}'?)`}`,
      { context: { option: key, known: Object.keys(known).join(', ') } },
    );
  }
}

/** Levenshtein distance, bounded by the short option names it compares. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64 || b.length > 64) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * `tae: debug: <line>` on stderr when $TAE_DEBUG is set: the CLI's debug lines (timings, cache
 * hits, what a worker pool could not hand to any task). Silent otherwise.
 */
export function debugLine(line: string): void {
  if (process.env.TAE_DEBUG) process.stderr.write(`tae: debug: ${line}\n`);
}
