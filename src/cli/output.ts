/** Writing to stdout with back-pressure, so huge outputs never pile up in memory. */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { FORMATTERS, type Format } from './formats.js';
import type { RecordSet } from './records.js';

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
