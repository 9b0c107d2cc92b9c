/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF), bounded in records. */
import { type Diagnostics, IMPORT_LIMITS } from './common.js';

export interface CsvRecord {
  readonly line: number;
  readonly cells: string[];
}

export function parseCsv(text: string, diag: Diagnostics): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const push = () => {
    cells.push(cell);
    cell = '';
  };
  const end = () => {
    push();
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: start, cells });
    cells = [];
    start = line;
  };
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (s[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') push();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && s[i + 1] === '\n') i++;
      line++;
      end();
      if (records.length > IMPORT_LIMITS.maxRows) {
        diag.add('error', `more than ${IMPORT_LIMITS.maxRows} records; the rest was ignored`);
        return records.slice(0, IMPORT_LIMITS.maxRows + 1);
      }
    } else cell += ch;
  }
  if (quoted) diag.add('warning', 'the input ends inside a quoted field', start);
  if (cell !== '' || cells.length > 0) end();
  return records;
}
