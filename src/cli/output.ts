/** Writing to stdout with back-pressure, so huge outputs never pile up in memory. */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { displayBlock, displayJson } from '../display/index.js';
import { FORMATTERS, type Format, orderedRow } from './formats.js';
import type { RecordSet, Row } from './records.js';

export class Output {
  private buffered = '';

  constructor(private readonly stream: Writable = process.stdout) {}

  /** Bytes are written through before this resolves, so the caller may reuse their buffer. */
  async write(s: string | Uint8Array): Promise<void> {
    if (typeof s !== 'string') {
      await this.flush();
      await new Promise<void>((resolve, reject) => {
        this.stream.write(s, (e) => (e ? reject(e) : resolve()));
      });
      return;
    }
    this.buffered += s;
    if (this.buffered.length >= 1 << 16) await this.flush();
  }

  /** Text meant for a person (a summary): control characters shown as escapes (src/display). */
  writeText(s: string): Promise<void> {
    return this.write(displayBlock(s));
  }

  async flush(): Promise<void> {
    if (this.buffered.length === 0) return;
    const ok = this.stream.write(this.buffered);
    this.buffered = '';
    if (!ok) await once(this.stream, 'drain');
  }
}

/** Prints a record set in one of the formats, streaming. */
export async function writeRecords(
  set: RecordSet,
  format: Format,
  out: Output = new Output(),
): Promise<void> {
  for (const piece of FORMATTERS[format](set)) await out.write(piece);
  await out.flush();
}

/** Pieces of a format's header: the table's labels and rule, the CSV header line. */
const HEADER_PIECES: Readonly<Record<Format, number>> = {
  table: 2,
  json: 0,
  jsonl: 0,
  csv: 1,
  timesketch: 0,
  'timesketch-csv': 1,
};

/**
 * Rows written as they arrive, batch by batch, so memory holds one batch whatever the total.
 * The output is that of one record set holding every row, except the human table, whose column
 * widths are each batch's.
 */
export class RecordStream {
  private rows = 0;

  constructor(
    private readonly set: Omit<RecordSet, 'rows'>,
    private readonly format: Format,
    private readonly out: Output = new Output(),
  ) {}

  async write(batch: readonly Row[]): Promise<void> {
    if (batch.length === 0) return;
    const { set, format, out } = this;
    if (format === 'json') {
      for (const r of batch)
        await out.write(
          `${this.rows++ === 0 ? '[\n' : ',\n'}  ${displayJson(JSON.stringify(orderedRow(set.columns, r)))}`,
        );
      return;
    }
    let piece = 0;
    for (const p of FORMATTERS[format]({ ...set, rows: batch }))
      if (this.rows === 0 || piece++ >= HEADER_PIECES[format]) await out.write(p);
    this.rows += batch.length;
  }

  /** Closes the output (an empty set's output when no row came); returns the rows written. */
  async end(): Promise<number> {
    const { set, format, out } = this;
    if (format === 'json') await out.write(this.rows === 0 ? '[]\n' : '\n]\n');
    else if (this.rows === 0) for (const p of FORMATTERS[format]({ ...set, rows: [] })) await out.write(p);
    await out.flush();
    return this.rows;
  }
}

/** Prints rows that arrive in batches (`tae search --all`), each written before the next is read. */
export async function streamRecords(
  set: Omit<RecordSet, 'rows'>,
  batches: Iterable<readonly Row[]>,
  format: Format,
  out: Output = new Output(),
): Promise<number> {
  const stream = new RecordStream(set, format, out);
  for (const batch of batches) {
    // Writes to a pipe or file are synchronous: let signals (Ctrl-C) be handled between batches.
    await new Promise((resolve) => setImmediate(resolve));
    await stream.write(batch);
  }
  return stream.end();
}
