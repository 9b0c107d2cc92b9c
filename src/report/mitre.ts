/**
 * MITRE ATT&CK from a Sigma rule's tags (`attack.execution`, `attack.t1059.001`): the tactics by
 * name and the technique ids, which is what analysts pivot on. Groups and software
 * (`attack.g0032`, `attack.s0002`) and other namespaces are left out.
 */

const TECHNIQUE = /^attack\.(t\d{4}(?:\.\d{3})?)$/i;
const TACTIC = /^attack\.([a-z][a-z_-]*)$/i;
/** Tactic tags of both spellings SigmaHQ has used (`defense_evasion`, `defense-evasion`). */
const TACTICS = new Set([
  'reconnaissance',
  'resource-development',
  'initial-access',
  'execution',
  'persistence',
  'privilege-escalation',
  'defense-evasion',
  'credential-access',
  'discovery',
  'lateral-movement',
  'collection',
  'command-and-control',
  'exfiltration',
  'impact',
]);

export interface Mitre {
  readonly tactics: readonly string[];
  readonly techniques: readonly string[];
}

const title = (tactic: string) =>
  tactic
    .split('-')
    .map((w) => (w === 'and' ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');

export function mitreOf(tags: readonly string[] | undefined): Mitre {
  const tactics: string[] = [];
  const techniques: string[] = [];
  for (const tag of tags ?? []) {
    const t = String(tag);
    const technique = TECHNIQUE.exec(t);
    if (technique) {
      const id = technique[1]!.toUpperCase();
      if (!techniques.includes(id)) techniques.push(id);
      continue;
    }
    const tactic = TACTIC.exec(t)?.[1]?.toLowerCase().replace(/_/g, '-');
    if (tactic !== undefined && TACTICS.has(tactic) && !tactics.includes(title(tactic)))
      tactics.push(title(tactic));
  }
  return { tactics, techniques };
}

/** `Execution, Persistence · T1059.001, T1543.003`, or '' without ATT&CK tags. */
export function mitreText(m: Mitre): string {
  return [m.tactics.join(', '), m.techniques.join(', ')].filter(Boolean).join(' · ');
}
