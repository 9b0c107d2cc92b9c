/** MITRE ATT&CK as the report writes it (sigma's mitreOf, tactics title-cased). */
import { type Mitre, mitreOf } from '../sigma/index.js';

export { mitreOf };

const title = (tactic: string) =>
  tactic
    .split('-')
    .map((w) => (w === 'and' ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');

/** `Execution, Persistence · T1059.001, T1543.003`, or '' without ATT&CK tags. */
export function mitreText(m: Mitre): string {
  return [m.tactics.map(title).join(', '), m.techniques.join(', ')].filter(Boolean).join(' · ');
}
