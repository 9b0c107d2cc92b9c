/**
 * Sysmon's `User` (`DOMAIN\user`, one field) against a source that keeps the two parts apart
 * (4688's SubjectDomainName / SubjectUserName). Neither part ever contains a backslash, so a
 * value with one literal backslash splits exactly; one without splits by what the modifier
 * can see: `contains X` holds when either part contains X, `startswith` looks at the domain,
 * `endswith` at the user.
 */
import type { DetectionItem } from '../detection.js';
import { normalise, type Part, parseSigmaString, toSigmaText } from '../wildcard.js';
import { scalarText, type YamlScalar } from '../yaml.js';

export type Conjunction = readonly DetectionItem[];

type Mode = 'equals' | 'contains' | 'startswith' | 'endswith';
const isMode = (m: string): m is Mode => m === 'contains' || m === 'startswith' || m === 'endswith';

/** Bounds the product `|all` builds over several values. */
const MAX_ALTERNATIVES = 32;

interface Target {
  readonly user: string;
  readonly domain: string;
  readonly cased: boolean;
}

/** The parts before and after the one literal backslash, or how many there were instead. */
function cutAtBackslash(parts: readonly Part[]): { before: Part[]; after: Part[] } | 'none' | 'many' {
  let at = -1;
  let count = 0;
  parts.forEach((p, i) => {
    if (typeof p !== 'string') return;
    const n = p.split('\\').length - 1;
    if (n > 0) at = i;
    count += n;
  });
  if (count === 0) return 'none';
  if (count > 1) return 'many';
  const text = parts[at] as string;
  const slash = text.indexOf('\\');
  return {
    before: normalise([...parts.slice(0, at), text.slice(0, slash)]),
    after: normalise([text.slice(slash + 1), ...parts.slice(at + 1)]),
  };
}

function item(field: string, mode: Mode, parts: readonly Part[], target: Target): DetectionItem {
  const modifiers = [...(mode === 'equals' ? [] : [mode]), ...(target.cased ? ['cased'] : [])];
  return { field, modifiers, values: [toSigmaText(parts)] };
}

function splitValue(v: YamlScalar, mode: Mode, t: Target): Conjunction[] | undefined {
  if (v === null || typeof v === 'boolean') return undefined;
  const parts = parseSigmaString(scalarText(v));
  const cut = cutAtBackslash(parts);
  if (cut === 'many') return undefined;
  if (cut === 'none') {
    switch (mode) {
      // Sysmon's User always has a domain; matching the user part alone is the useful reading.
      case 'equals':
        return [[item(t.user, 'equals', parts, t)]];
      case 'contains':
        return [[item(t.domain, 'contains', parts, t)], [item(t.user, 'contains', parts, t)]];
      case 'startswith':
        return [[item(t.domain, 'startswith', parts, t)]];
      case 'endswith':
        return [[item(t.user, 'endswith', parts, t)]];
    }
  }
  const { before, after } = cut;
  const out: DetectionItem[] = [];
  const add = (field: string, m: Mode, ps: readonly Part[], optional: boolean) => {
    if (!(optional && ps.length === 0)) out.push(item(field, m, ps, t));
  };
  switch (mode) {
    case 'equals':
      add(t.domain, 'equals', before, false);
      add(t.user, 'equals', after, false);
      break;
    case 'contains':
      add(t.domain, 'endswith', before, true);
      add(t.user, 'startswith', after, true);
      break;
    case 'startswith':
      add(t.domain, 'equals', before, false);
      add(t.user, 'startswith', after, true);
      break;
    case 'endswith':
      add(t.domain, 'endswith', before, true);
      add(t.user, 'equals', after, false);
      break;
  }
  return out.length === 0 ? undefined : [out];
}

/**
 * The item as alternatives (OR) of conjunctions (AND) over the two fields, or `undefined`
 * for shapes this does not split (regexes, encodings, several backslashes…): the caller then
 * renames the field to the user part, as Hayabusa does.
 */
export function splitAccount(item: DetectionItem, user: string, domain: string): Conjunction[] | undefined {
  const modes = item.modifiers.filter(isMode);
  const others = item.modifiers.filter((m) => !isMode(m));
  if (modes.length > 1 || others.some((m) => m !== 'all' && m !== 'cased')) return undefined;
  const mode: Mode = modes[0] ?? 'equals';
  const target: Target = { user, domain, cased: others.includes('cased') };
  const perValue: Conjunction[][] = [];
  for (const v of item.values) {
    const alternatives = splitValue(v, mode, target);
    if (alternatives === undefined) return undefined;
    perValue.push(alternatives);
  }
  if (!others.includes('all')) return perValue.flat();
  let product: Conjunction[] = [[]];
  for (const alternatives of perValue) {
    product = product.flatMap((p) => alternatives.map((a) => [...p, ...a]));
    if (product.length > MAX_ALTERNATIVES) return undefined;
  }
  return product;
}
