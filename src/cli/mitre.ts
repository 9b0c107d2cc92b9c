/** The MITRE ATT&CK column of detection listings (sigma's mitreOf: tactics, then technique ids). */
import { mitreOf } from '../sigma/index.js';

const seen = new WeakMap<readonly string[], string | null>();

/** The cell: tactics then techniques (`execution, T1059.001`), or null for a rule without them. */
export function mitreCell(tags: readonly string[] | undefined): string | null {
  if (tags === undefined) return null;
  const known = seen.get(tags);
  if (known !== undefined) return known;
  const m = mitreOf(tags);
  const cell =
    m.tactics.length + m.techniques.length === 0 ? null : [...m.tactics, ...m.techniques].join(', ');
  seen.set(tags, cell);
  return cell;
}
