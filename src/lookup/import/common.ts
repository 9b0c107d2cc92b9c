/** What every importer returns, and the bounds that keep hostile input cheap. */
import type { LookupModule } from '../columns.js';

export interface ImportDiagnostic {
  readonly severity: 'error' | 'warning';
  /** 1-based record number (CSV line or array index + 1) when the problem is local to one. */
  readonly record?: number;
  readonly message: string;
}

export interface ImportResult {
  readonly module: LookupModule;
  readonly rows: string[][];
  readonly diagnostics: ImportDiagnostic[];
}

export const IMPORT_LIMITS = {
  /** Largest accepted input text, in characters. */
  maxInputChars: 64 * 1024 * 1024,
  maxRows: 200_000,
  maxCellChars: 4096,
  maxDiagnostics: 100,
} as const;

/** Collects diagnostics up to the cap, then one summary line. */
export class Diagnostics {
  readonly list: ImportDiagnostic[] = [];
  private dropped = 0;

  add(severity: ImportDiagnostic['severity'], message: string, record?: number): void {
    if (this.list.length < IMPORT_LIMITS.maxDiagnostics)
      this.list.push(record === undefined ? { severity, message } : { severity, record, message });
    else this.dropped++;
  }

  done(): ImportDiagnostic[] {
    if (this.dropped > 0)
      this.list.push({ severity: 'warning', message: `${this.dropped} more diagnostics omitted` });
    return this.list;
  }
}

/** A cell as a string: control characters become spaces, overlong text is cut. */
export function cleanCell(value: unknown, diag: Diagnostics, record: number): string {
  let s = value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value);
  s = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (s.length > IMPORT_LIMITS.maxCellChars) {
    diag.add('warning', `a cell longer than ${IMPORT_LIMITS.maxCellChars} characters was cut`, record);
    s = s.slice(0, IMPORT_LIMITS.maxCellChars);
  }
  return s;
}

export function tooLarge(text: unknown, diag: Diagnostics): boolean {
  if (typeof text !== 'string') {
    diag.add('error', 'input must be text');
    return true;
  }
  if (text.length > IMPORT_LIMITS.maxInputChars) {
    diag.add('error', `input is larger than ${IMPORT_LIMITS.maxInputChars} characters`);
    return true;
  }
  return false;
}
