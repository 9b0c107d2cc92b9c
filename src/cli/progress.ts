/**
 * One self-rewriting status line on stderr, only when stderr is a terminal (silent in pipes,
 * files and CI logs), at most ten updates a second, erased when the work is done.
 */

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
    this.stream.write(`\r\x1b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
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
