/**
 * The CLI's one progress module. `Progress`: one self-rewriting status line on stderr, only
 * when stderr is a terminal (silent in pipes, files and CI logs), at most ten updates a second,
 * erased when the work is done. `RunProgress`: the progress of a command over files, on it.
 */
import { statSync } from 'node:fs';
import { displayLine } from '../display/index.js';

export class Progress {
  private last = 0;
  private shown = false;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    readonly enabled: boolean = stream.isTTY === true,
  ) {}

  update(text: string, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    // The line names files: their names are shown escaped, and only the erase is a control.
    const safe = displayLine(text);
    this.stream.write(`\r\x1b[K${safe.length > width ? `${safe.slice(0, width - 1)}…` : safe}`);
    this.shown = true;
  }

  done(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}

/** `12.3 MiB`, `640 KiB`, `512 B`. */
export function bytesText(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(1)} GiB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${Math.round(n / (1 << 10))} KiB`;
  return `${n} B`;
}

/** `1,234,567`. */
const count = (n: number) => Math.round(n).toLocaleString('en');

/** `42 s`, `3 min 05 s`, `1 h 02 min`. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** Where a run is: the file being read (0-based), the bytes read of it, the records so far. */
export interface RunPosition {
  readonly fileIndex: number;
  /** Bytes of the current file read so far (default: none). */
  readonly bytesInFile?: number;
  /** Records (events) read so far in the whole run. */
  readonly records?: number;
}

export interface RunProgressOptions {
  /** The command's name, the line's first word. */
  readonly command: string;
  readonly files: readonly string[];
  /** `-q`: nothing at all. */
  readonly quiet?: boolean;
  readonly stream?: NodeJS.WriteStream;
}

/**
 * The progress of a command over files (analyze, parse, sigma, yara), on stderr and only when
 * it is a terminal and not `-q`: after about a second, one self-rewriting line (files done of
 * total, records, bytes of total, ETA from the bytes), and at the end a closing line with the
 * records a second and the peak memory (resident set). Pipes, files and CI logs get nothing.
 * `TAE_PROGRESS_AFTER_MS` moves the one-second threshold (tests, demos).
 */
export class RunProgress {
  private readonly line: Progress;
  private readonly started = Date.now();
  private readonly showAfter: number;
  /** Bytes of the files before each index, and in all. */
  private readonly before: number[] = [];
  private readonly total: number;
  private records = 0;
  private bytes = 0;
  private filesDone = 0;

  constructor(private readonly o: RunProgressOptions) {
    const stream = o.stream ?? process.stderr;
    this.line = new Progress(stream, o.quiet !== true && stream.isTTY === true);
    const after = Number(process.env.TAE_PROGRESS_AFTER_MS);
    this.showAfter = Number.isFinite(after) && after >= 0 ? after : 1000;
    let sum = 0;
    if (this.line.enabled)
      for (const f of o.files) {
        this.before.push(sum);
        sum += statSync(f, { throwIfNoEntry: false })?.size ?? 0;
      }
    this.total = sum;
  }

  get enabled(): boolean {
    return this.line.enabled;
  }

  /** The run is at `p`; files before `p.fileIndex` are done. */
  update(p: RunPosition): void {
    if (!this.line.enabled) return;
    this.filesDone = Math.max(this.filesDone, p.fileIndex);
    const inFile = Math.min(p.bytesInFile ?? 0, this.sizeOf(p.fileIndex));
    this.bytes = Math.max(this.bytes, (this.before[p.fileIndex] ?? this.total) + inFile);
    if (p.records !== undefined) this.records = p.records;
    this.show();
  }

  private sizeOf(i: number): number {
    return (this.before[i + 1] ?? this.total) - (this.before[i] ?? this.total);
  }

  /** File `i` is done (for commands that finish files out of order, e.g. yara's scans). */
  fileFinished(i: number): void {
    if (!this.line.enabled) return;
    this.filesDone++;
    this.bytes += this.sizeOf(i);
    this.show();
  }

  private show(): void {
    const elapsed = (Date.now() - this.started) / 1000;
    if (elapsed * 1000 < this.showAfter) return;
    const parts = [`${this.o.command}: ${count(this.filesDone)}/${count(this.o.files.length)} files`];
    if (this.records > 0) parts.push(`${count(this.records)} records`);
    parts.push(`${bytesText(this.bytes)} of ${bytesText(this.total)}`);
    if (this.bytes > 0 && this.total > this.bytes)
      parts.push(`ETA ${durationText((elapsed * (this.total - this.bytes)) / this.bytes)}`);
    this.line.update(parts.join(', '));
  }

  /** Erases the line without a closing line (the run failed). */
  stop(): void {
    this.line.done();
  }

  /**
   * Erases the line; after a run that lasted past the threshold, prints the closing line. The
   * run's own totals (records it read) may be given when they were not all reported on the way.
   */
  finish(totals: { records?: number } = {}): void {
    if (!this.line.enabled) return;
    this.line.done();
    const ms = Date.now() - this.started;
    if (ms < this.showAfter) return;
    const records = totals.records ?? this.records;
    const seconds = ms / 1000;
    const perSecond = (n: number) => count(n / Math.max(seconds, 0.001));
    const rate = records > 0 ? `${perSecond(records)} events/s` : `${perSecond(this.o.files.length)} files/s`;
    const peak = bytesText(process.resourceUsage().maxRSS * 1024);
    const stream = this.o.stream ?? process.stderr;
    const read = records > 0 ? `${count(records)} records, ` : '';
    stream.write(
      `${this.o.command}: ${count(this.o.files.length)} files, ${read}${bytesText(this.total)} in ${seconds.toFixed(1)} s, ${rate}, peak memory ${peak}\n`,
    );
  }
}
