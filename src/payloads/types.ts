/**
 * What the payload extractor returns: code an event carried, put back together (script blocks
 * joined, base64 decoded, streams inflated), with the records it came from and how it was decoded.
 */

/**
 * Where a payload was found. The first five are event fields emitted whole; `encoded-command`
 * and `base64` are decoded from inside another text (a command line, a script block, a service
 * image path…), named by `provenance.within`.
 */
export type PayloadKind =
  | 'script-block'
  | 'service-image'
  | 'scheduled-task'
  | 'wmi-consumer'
  | 'defender-detection'
  | 'encoded-command'
  | 'base64';

export const PAYLOAD_KINDS: readonly PayloadKind[] = [
  'script-block',
  'service-image',
  'scheduled-task',
  'wmi-consumer',
  'defender-detection',
  'encoded-command',
  'base64',
];

/** One decoding step, in the order applied (`utf16le` is a reading of bytes, not a step of depth). */
export type DecodeLayer = 'base64' | 'gzip' | 'deflate' | 'zlib' | 'utf16le';

/** A record a payload came from. */
export interface PayloadRecord {
  readonly recordId: number;
  /** Unix ms (NaN when the event had no time). */
  readonly timestamp: number;
  readonly timestampText: string;
  readonly eventId: number;
  readonly channel: string;
  /** The file (or label) the caller passed with the event. */
  readonly file?: string;
}

export interface PayloadProvenance {
  /** The event field the text came from (`ScriptBlockText`, `CommandLine`, `ImagePath`…). */
  readonly field: string;
  /** For a decoded payload, the kind of payload it was found in; null for the field's own text. */
  readonly within: PayloadKind | null;
  /** Decoding steps from the field's text to this payload, outermost first. */
  readonly layers: readonly DecodeLayer[];
  /** Decoding steps from the field's text (layers other than utf16le): 0 for the field itself. */
  readonly depth: number;
}

/** A payload is text or, when the decoded bytes are not text (a PE, shellcode), bytes. */
export type PayloadContent =
  | { readonly text: string; readonly bytes?: undefined }
  | { readonly bytes: Uint8Array; readonly text?: undefined };

export type Payload = PayloadContent & {
  readonly kind: PayloadKind;
  readonly records: readonly PayloadRecord[];
  readonly computer: string;
  readonly provenance: PayloadProvenance;
  /** A name the event gives it (service, task, consumer, threat, script path); attacker-written. */
  readonly label?: string;
  /** Script blocks only: parts present and expected (MessageNumber / MessageTotal). */
  readonly parts?: { readonly present: number; readonly total: number };
  /** Some of it is missing: a script block without all its parts. */
  readonly partial: boolean;
  /** Cut at a bound (size); a diagnostic says which. */
  readonly truncated: boolean;
};

export type PayloadDiagnosticCode =
  | 'payload.too_large'
  | 'payload.too_deep'
  | 'payload.too_many'
  | 'payload.inflate_failed'
  | 'payload.script_block_evicted'
  | 'payload.script_block_partial'
  | 'payload.script_block_bad_part';

export interface PayloadDiagnostic {
  readonly code: PayloadDiagnosticCode;
  readonly message: string;
  readonly computer?: string;
  readonly records?: readonly PayloadRecord[];
}
