/**
 * The literals a scanner found in texts it saw lately. Field values repeat (an image path, a
 * user, a SID, an integrity level): one map lookup then replaces a walk of the automaton, whose
 * tables for the busiest fields (Image, CommandLine) are too large for the processor's caches.
 * A scanner whose texts do not repeat (command lines of a generated log, GUIDs) stops looking
 * for a while, so a miss costs little. Results are the scanner's literal ids, whichever plan
 * asks, so the memo is per scanner and its memory bounded per scanner.
 */
import type { LiteralScanner, LiteralSink } from './literal-scan.js';

/** Longer texts are scanned each time: they rarely repeat and would crowd the memo. */
const MAX_TEXT = 256;
/** Characters of texts the memo holds before it starts afresh. */
const MAX_CHARS = 8_192;
/** Lookups between checks of the hit rate. */
const WINDOW = 2_048;
/** A window with fewer hits than one in this many sends the memo to rest. */
const MIN_HIT_RATE = 8;
/** Texts scanned directly before a resting memo looks again. */
const REST = 65_536;

const NONE = new Int32Array(0);

/** Passes each literal on, and keeps each distinct one once. */
class Recorder implements LiteralSink {
  target: LiteralSink | undefined;
  readonly ids: number[] = [];
  private readonly seenAt: Uint32Array;
  private serial = 0;

  constructor(literals: number) {
    this.seenAt = new Uint32Array(literals);
  }

  start(target: LiteralSink): void {
    this.target = target;
    this.ids.length = 0;
    if (++this.serial === 0xffffffff) {
      this.serial = 1;
      this.seenAt.fill(0);
    }
  }

  hit(literal: number): void {
    this.target!.hit(literal);
    if (this.seenAt[literal] === this.serial) return;
    this.seenAt[literal] = this.serial;
    this.ids.push(literal);
  }
}

export class ScanMemo {
  private readonly found = new Map<string, Int32Array>();
  private readonly recorder: Recorder;
  private chars = 0;
  private lookups = 0;
  private hits = 0;
  private resting = 0;

  constructor(private readonly scanner: LiteralScanner) {
    this.recorder = new Recorder(scanner.data.literals);
  }

  /** Reports each literal occurring in `text` lower-cased, as `scanner.scan(text, sink, true)`. */
  scan(text: string, sink: LiteralSink): void {
    if (text.length > MAX_TEXT || this.resting > 0) {
      if (this.resting > 0) this.resting--;
      this.scanner.scan(text, sink, true);
      return;
    }
    const known = this.found.get(text);
    if (++this.lookups === WINDOW) this.judge();
    if (known !== undefined) {
      this.hits++;
      for (let k = 0; k < known.length; k++) sink.hit(known[k]!);
      return;
    }
    const recorder = this.recorder;
    recorder.start(sink);
    this.scanner.scan(text, recorder, true);
    if (this.chars + text.length > MAX_CHARS) {
      this.found.clear();
      this.chars = 0;
    }
    this.found.set(text, recorder.ids.length === 0 ? NONE : Int32Array.from(recorder.ids));
    this.chars += text.length;
  }

  private judge(): void {
    if (this.hits * MIN_HIT_RATE < this.lookups) {
      this.resting = REST;
      this.found.clear();
      this.chars = 0;
    }
    this.lookups = 0;
    this.hits = 0;
  }
}

const memos = new WeakMap<LiteralScanner, ScanMemo>();

/** The memo of a scanner, shared by every plan that scans with it. */
export function memoOf(scanner: LiteralScanner): ScanMemo {
  let memo = memos.get(scanner);
  if (memo === undefined) {
    memo = new ScanMemo(scanner);
    memos.set(scanner, memo);
  }
  return memo;
}
