/**
 * MITRE ATT&CK from a Sigma rule's tags (issue 47: analysts pivot on it): the tactics by name
 * (`execution`, `defense-evasion`, ATT&CK v18's `stealth`…; SigmaHQ's older `defense_evasion`
 * read as `defense-evasion`), in the rule's order, and the technique ids as ATT&CK writes them
 * (`attack.t1059.001` → `T1059.001`). Software and group tags (`attack.s0002`, `attack.g0016`)
 * and other namespaces are left out.
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

export function mitreOf(tags: readonly string[] | undefined): Mitre {
  const tactics: string[] = [];
  const techniques: string[] = [];
  for (const tag of tags ?? []) {
    if (typeof tag !== 'string') continue;
    const lower = tag.toLowerCase();
    const t = TECHNIQUE.exec(lower);
    if (t !== null) {
      const id = `T${t[1]}${t[2] === undefined ? '' : `.${t[2]}`}`;
      if (!techniques.includes(id)) techniques.push(id);
      continue;
    }
    const tactic = lower.startsWith('attack.') ? lower.slice(7).replaceAll('_', '-') : '';
    if (TACTICS.has(tactic) && !tactics.includes(tactic)) tactics.push(tactic);
  }
  return { tactics, techniques };
}
