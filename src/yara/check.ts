/**
 * A synchronous compile check of one rule source, on the calling thread: yara-x's validate
 * (everything a compile does except building the scanner, about twice as fast), with
 * includes disabled. This is the rule library's YaraChecker seam: verdicts are stored per
 * checker id, so the id changes whenever something that can change a verdict does.
 */
import { loadYaraX, type NativeVariables, YARA_X_PACKAGE, yaraXVersion } from '../../native/yara-x.js';
import { diagnosticsText, toDiagnostic, type YaraDiagnostic } from './diagnostics.js';
import { checkVariables } from './options.js';

export type RuleCheck =
  | { readonly ok: true; readonly warnings: readonly YaraDiagnostic[] }
  | {
      readonly ok: false;
      /** Every error report, blank-line separated (the compiler's own text). */
      readonly message: string;
      readonly errors: readonly YaraDiagnostic[];
      readonly warnings: readonly YaraDiagnostic[];
    };

export interface RuleChecker {
  /** Names the binary and the variables defined, e.g. `yara-x 1.20 (@litko/yara-x-linux-x64-gnu 0.7.2)`. */
  readonly id: string;
  check(source: string): RuleCheck;
}

export interface RuleCheckerOptions {
  /** External variables to declare (signature-base's `filename`, `filepath`, …). */
  readonly variables?: NativeVariables;
}

/** yara-x version embedded in each binary package version this project has verified. */
const EMBEDDED: Readonly<Record<string, string>> = { '0.7.2': '1.20' };

export function yaraRuleChecker(options: RuleCheckerOptions = {}): RuleChecker {
  checkVariables('variables', options.variables);
  const version = yaraXVersion() ?? 'unavailable';
  const names = Object.keys(options.variables ?? {}).sort();
  const id =
    `yara-x ${EMBEDDED[version] ?? '?'} (${YARA_X_PACKAGE} ${version})` +
    (names.length ? ` variables: ${names.join(',')}` : '');
  const compilerOptions = {
    enableIncludes: false,
    ...(options.variables ? { defineVariables: options.variables } : {}),
  };
  return {
    id,
    check(source: string): RuleCheck {
      const r = loadYaraX().validate(source, compilerOptions);
      const warnings = r.warnings.map((w) => toDiagnostic('warning', w));
      if (r.errors.length === 0) return { ok: true, warnings };
      const errors = r.errors.map((e) => toDiagnostic('error', e));
      return { ok: false, message: diagnosticsText(errors), errors, warnings };
    },
  };
}
