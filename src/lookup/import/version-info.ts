/**
 * Imports the version resources of a Windows image's binaries, as dumped by PowerShell
 * (see data/README.md): `… | Select-Object -ExpandProperty VersionInfo | Export-Csv` or
 * `| ConvertTo-Json`. Each binary becomes a file_name row; a file seen with several
 * descriptions (several images or builds) keeps them all, joined by `##`.
 */
import { cleanCell, Diagnostics, IMPORT_LIMITS, type ImportResult, tooLarge } from './common.js';
import { parseCsv } from './csv.js';

export interface VersionInfoImportOptions {
  /** Input format; `auto` (default) picks JSON when the text starts with `[` or `{`. */
  readonly format?: 'auto' | 'csv' | 'json';
}

type Info = Record<string, unknown>;

/** Accepts FileVersionInfo objects and wrappers that carry one under `VersionInfo`. */
function unwrap(o: Info): Info {
  const inner = o.VersionInfo;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner)
    ? { ...o, ...(inner as Info) }
    : o;
}

const pick = (o: Info, ...keys: string[]): unknown => {
  for (const k of keys) {
    const hit = Object.keys(o).find((key) => key.toLowerCase() === k.toLowerCase());
    if (hit !== undefined && o[hit] !== null && o[hit] !== undefined && o[hit] !== '') return o[hit];
  }
  return undefined;
};

function records(text: string, format: 'csv' | 'json', diag: Diagnostics): Info[] {
  if (format === 'json') {
    let data: unknown;
    try {
      data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (e) {
      diag.add('error', `not valid JSON: ${(e as Error).message.slice(0, 120)}`);
      return [];
    }
    const list = Array.isArray(data) ? data : [data];
    return list
      .filter((o): o is Info => typeof o === 'object' && o !== null && !Array.isArray(o))
      .map(unwrap);
  }
  // Export-Csv without -NoTypeInformation starts with a `#TYPE …` line.
  const body = text.replace(/^\ufeff?#TYPE[^\n]*\n/, '');
  const [header, ...rest] = parseCsv(body, diag);
  if (!header) return [];
  return rest.map((r) => Object.fromEntries(header.cells.map((h, i) => [h.trim(), r.cells[i] ?? ''])));
}

export function importVersionInfo(text: string, options: VersionInfoImportOptions = {}): ImportResult {
  const diag = new Diagnostics();
  if (tooLarge(text, diag)) return { module: 'file_name', rows: [], diagnostics: diag.done() };
  const fmt = options.format ?? 'auto';
  if (fmt !== 'auto' && fmt !== 'csv' && fmt !== 'json')
    throw new TypeError('options.format must be auto, csv or json');
  const format = fmt === 'auto' ? (/^\ufeff?\s*[[{]/.test(text) ? 'json' : 'csv') : fmt;
  const byPath = new Map<string, { name: string; path: string; values: Set<string>[] }>();
  records(text, format, diag)
    .slice(0, IMPORT_LIMITS.maxRows)
    .forEach((o, i) => {
      const path = cleanCell(pick(o, 'FileName', 'FullName', 'Path'), diag, i + 1);
      if (path === '') {
        diag.add('warning', 'record has no FileName and was skipped', i + 1);
        return;
      }
      const name = path.slice(Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/')) + 1);
      const entry = byPath.get(path.toLowerCase()) ?? {
        name,
        path,
        values: [new Set(), new Set(), new Set()],
      };
      const fields = [pick(o, 'FileDescription'), pick(o, 'ProductName'), pick(o, 'CompanyName')];
      fields.forEach((v, k) => {
        const s = cleanCell(v, diag, i + 1);
        if (s !== '') (entry.values[k] as Set<string>).add(s);
      });
      byPath.set(path.toLowerCase(), entry);
    });
  const rows = [...byPath.values()].map((e) => [
    e.name,
    e.path,
    ...e.values.map((v) => [...v].join('##')),
    '',
  ]);
  if (rows.length === 0) diag.add('error', 'no file records found');
  return { module: 'file_name', rows, diagnostics: diag.done() };
}
