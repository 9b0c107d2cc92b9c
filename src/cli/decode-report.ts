/**
 * Decoder diagnostics on stderr, one line each, for every command that decodes EVTX
 * (`parse`, `analyze`, `sigma`): errors always (they mean records were lost, and the run then
 * exits 5), warnings where the command shows them. A record lost must never pass silently.
 */
import { displayLine } from '../display/index.js';
import type { Diagnostic } from '../evtx/index.js';
import { printErr } from './terminal.js';

export interface DecodeReportOptions {
  /** Print warnings too (`tae parse`); errors are always printed unless `quiet`. */
  readonly warnings?: boolean;
  /** Print nothing (`tae parse -q`); the exit code still says records were lost. */
  readonly quiet?: boolean;
}

/** `FILE: SEVERITY CODE chunk N offset N: MESSAGE`, on one line whatever the message holds. */
export const diagnosticLine = (d: Diagnostic, file = 'input'): string =>
  `${d.file ?? file}: ${d.severity} ${d.code} chunk ${d.chunk} offset ${d.offset}: ${d.message.replace(/\s*\n\s*/g, ' ')}`;

export class DecodeReport {
  private readonly lost = new Set<string>();

  constructor(private readonly options: DecodeReportOptions = {}) {}

  /** Prints diagnostics (named by their `file`, else by `file` here) and notes lost records. */
  add(diagnostics: readonly Diagnostic[], file = 'input'): void {
    let text = '';
    for (const d of diagnostics) {
      if (d.severity === 'error') this.lost.add(d.file ?? file);
      else if (this.options.warnings !== true) continue;
      if (this.options.quiet !== true) text += `${displayLine(diagnosticLine(d, file))}\n`;
    }
    if (text !== '') printErr(text);
  }

  /** Whether any file lost records (exit 5 unless a file was unreadable). */
  get recordsLost(): boolean {
    return this.lost.size > 0;
  }
}
