/**
 * The MITRE ATT&CK column of detection listings (issue 47: Hayabusa's users pivot on it): a
 * rule's tactics and technique ids, read off its `attack.*` tags. Tactics keep the tags'
 * names (`execution`, `defense-evasion`, ATT&CK v18's `stealth`…), in the rule's order;
 * technique ids are written as ATT&CK writes them (`attack.t1059.001` → `T1059.001`).
 * Software and group tags (`attack.s0002`, `attack.g0016`) are neither and are left out.
 */

const TACTICS = new Set([
  'reconnaissance',
  'resource-development',
  'initial-access',
  'execution',
  'persistence',
  'privilege-escalation',
  'defense-evasion',
  'stealth',
  'defense-impairment',
  'credential-access',
  'discovery',
  'lateral-movement',
  'collection',
  'command-and-control',
  'exfiltration',
  'impact',
]);
const TECHNIQUE = /^attack\.t(\d{4})(?:\.(\d{3}))?$/i;

export interface Mitre {
  readonly tactics: readonly string[];
  readonly techniques: readonly string[];
}

const seen = new WeakMap<readonly string[], string | null>();

export function mitreOf(tags: readonly string[]): Mitre {
  const tactics: string[] = [];
  const techniques: string[] = [];
  for (const tag of tags) {
    if (typeof tag !== 'string') continue;
    const lower = tag.toLowerCase();
    const t = TECHNIQUE.exec(lower);
    if (t !== null) {
      const id = `T${t[1]}${t[2] === undefined ? '' : `.${t[2]}`}`;
      if (!techniques.includes(id)) techniques.push(id);
    } else if (
      lower.startsWith('attack.') &&
      TACTICS.has(lower.slice(7)) &&
      !tactics.includes(lower.slice(7))
    )
      tactics.push(lower.slice(7));
  }
  return { tactics, techniques };
}

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
