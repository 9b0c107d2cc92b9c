/**
 * What a run keeps for its correlations, bounded whatever the rules and the input, and said when
 * a bound is reached (a `correlation.limit` or `correlation.hit_limit` diagnostic: an Error
 * insight beside a job's results, a warning of the CLI). A kept base match cost about 360 bytes
 * of heap with two short group-by values, so the million the count allowed held about 340 MiB,
 * more with long values (command lines); and every hit about 290 bytes more.
 */
import type { RuleDiagnostic } from '../diagnostics.js';
import type { BaseMatch } from './types.js';

/** Base matches kept for correlation at most (`maxMatches`). */
export const DEFAULT_MAX_MATCHES = 1_000_000;
/** Their estimated size at most (`maxMatchBytes`): about 180,000 matches of two short values. */
export const DEFAULT_MAX_MATCH_BYTES = 64 * 1024 * 1024;
/** Correlation hits kept at most (`maxHits`), as many as a CLI run lists matches. */
export const DEFAULT_MAX_HITS = 100_000;

/** A kept match with no field: its object, its event's map and the event (measured). */
const MATCH_BYTES = 320;

/** The estimated heap of a kept match whose event holds `fields`. */
export function matchBytes(fields: Readonly<Record<string, unknown>>): number {
  let bytes = MATCH_BYTES;
  for (const [k, v] of Object.entries(fields)) {
    bytes += 32 + 2 * k.length;
    for (const x of Array.isArray(v) ? v : [v]) bytes += 16 + 2 * String(x).length;
  }
  return bytes;
}

/** Base matches kept in arrival order until the first bound is reached; the others counted. */
export class KeptMatches {
  readonly list: BaseMatch[] = [];
  dropped = 0;
  private bytes = 0;
  private full = false;

  constructor(
    private readonly maxMatches = DEFAULT_MAX_MATCHES,
    private readonly maxBytes = DEFAULT_MAX_MATCH_BYTES,
  ) {}

  /** Whether another match would be dropped (then `drop` it: its fields need not be read). */
  get closed(): boolean {
    return this.full || this.list.length >= this.maxMatches;
  }

  drop(): void {
    this.dropped++;
  }

  /** Keeps `match`, of `bytes` (matchBytes), unless it would pass the size bound. */
  add(match: BaseMatch, bytes: number): void {
    if (this.closed || this.bytes + bytes > this.maxBytes) {
      this.full = true;
      this.dropped++;
      return;
    }
    this.bytes += bytes;
    this.list.push(match);
  }

  /** The diagnostic of the matches dropped, if any. */
  diagnostics(): RuleDiagnostic[] {
    if (this.dropped === 0) return [];
    if (!this.full) return [limitDiagnostic(this.dropped, this.maxMatches)];
    const size =
      this.maxBytes >= 2 ** 20 ? `${Math.round(this.maxBytes / 2 ** 20)} MiB` : `${this.maxBytes} bytes`;
    return [
      {
        source: 'correlation',
        code: 'correlation.limit',
        message: `${this.dropped} base matches beyond the ${size} kept for correlation (${this.list.length} matches) were not correlated`,
      },
    ];
  }
}

/** Base matches past the cap were counted, not correlated. */
export function limitDiagnostic(dropped: number, limit: number): RuleDiagnostic {
  return {
    source: 'correlation',
    code: 'correlation.limit',
    message: `${dropped} base matches beyond the limit of ${limit} were not correlated`,
  };
}

/** Hits past the cap were counted, neither reported nor fed to the correlations that chain them. */
export function hitLimitDiagnostic(dropped: number, limit: number): RuleDiagnostic {
  return {
    source: 'correlation',
    code: 'correlation.hit_limit',
    message: `${dropped} correlation hits beyond the limit of ${limit} were not reported`,
  };
}
