/** What a parse job writes into its event index (EventIndexBuilder is one). */
import type { SigmaMatchInput } from '../analysis/index.js';
import type { Diagnostic, EvtxEvent } from '../evtx/index.js';
import type { RowRef } from '../rows/index.js';

export type SigmaRuleRef = SigmaMatchInput['rule'];

/** What a parse job writes into its index. */
export interface EventSink {
  /**
   * One new (not duplicate) event of `file`, with the Sigma rules it matched: the event, or the
   * row a decode worker made of it (asked for with `rows`), staged as it is.
   */
  add(event: EvtxEvent | RowRef, file: string, rules: readonly SigmaRuleRef[]): void;
  /** A record of `file` the job skipped as a duplicate (kept only for the rebuild's counts). */
  duplicate(event: EvtxEvent | RowRef, file: string): void;
  /** The rows decode workers should make for this sink (none: it makes its own). */
  readonly rows?: { readonly messages: boolean } | undefined;
  /** A file's decode diagnostics (kept for the rebuild's Overview; at most 1,000 per file). */
  fileDiagnostics(file: string, diagnostics: readonly Diagnostic[]): void;
  /** A correlation hit, which has no single record. */
  correlation(rule: SigmaRuleRef, timestamp: number): void;
  /** Resolves when the sink can take more (a writer thread keeps up); called between chunks. */
  ready?(): Promise<void>;
  /** YARA rules that matched payloads, with the records that carried them (searchable as `yara_matches`). */
  payloadMatches?(matches: readonly PayloadMatchRef[]): void;
}

/** A payload match as the index keeps it: the rules, and the records that carried the payload. */
export interface PayloadMatchRef {
  readonly rules: readonly { readonly rule: string }[];
  readonly records: readonly { readonly recordId: number; readonly file?: string }[];
}
