/**
 * Compiler diagnostics as data: yara-x's code (`E022`, `slow_pattern`), its title, the
 * position it points at and the full rendered report, so callers can show the compiler's
 * own text or branch on the code.
 */

export type YaraSeverity = 'error' | 'warning';

export interface YaraDiagnostic {
  readonly severity: YaraSeverity;
  /** `E###` for errors, a snake_case name for warnings (`slow_pattern`, `text_as_hex`). */
  readonly code: string;
  /** The report's headline without its prefix: ``unused pattern `$b` ``. */
  readonly title: string;
  /** The compiler's full rendered report, caret diagram included. */
  readonly text: string;
  /** 1-based position in the source, when the report carries one. */
  readonly line?: number;
  readonly column?: number;
  /** The `origin` of the rule source it came from (a file name), when the caller gave one. */
  readonly origin?: string;
}

const HEADLINE = /^(?:error|warning)\[([^\]]+)\]: (.*)$/m;
const LOCATION = /^\s*--> [^\n]*?:(\d+):(\d+)\s*$/m;

/** Builds a diagnostic from the binary's `{code, message}` pair (or a thrown compile error's text). */
export function toDiagnostic(
  severity: YaraSeverity,
  raw: { readonly code?: string; readonly message: string },
  origin?: string,
): YaraDiagnostic {
  // A thrown compile error reads `Compilation error (E009): error[E009]: …`: keep the report.
  const text = raw.message.replace(/^Compilation error \([^)]*\): /, '');
  const head = HEADLINE.exec(text);
  const at = LOCATION.exec(text);
  const code = raw.code && raw.code !== 'GenericFailure' ? raw.code : (head?.[1] ?? 'unknown');
  return {
    severity,
    code,
    title: head?.[2]?.trim() ?? text.split('\n')[0]!.trim(),
    text,
    ...(at ? { line: Number(at[1]), column: Number(at[2]) } : {}),
    ...(origin === undefined ? {} : { origin }),
  };
}

/** The reports joined for display (the Metadata `warnings` text, an Error message). */
export function diagnosticsText(diagnostics: readonly YaraDiagnostic[]): string {
  return diagnostics.map((d) => (d.origin === undefined ? d.text : `${d.origin}: ${d.text}`)).join('\n\n');
}
