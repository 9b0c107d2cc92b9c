/**
 * Windows messages without Windows: the event-id dataset's description with the event's data
 * substituted for %1…%n, else a compact name=value summary of the event data.
 */
import type { EvtxEvent } from '../evtx/index.js';
import { isBlank, oneLine } from './text.js';

/** The description for an event id and provider, with %n placeholders (the lookup module's job). */
export type DescribeEvent = (eventId: number, provider: string) => string | null | undefined;

/** The parameter-message strings (`%%nnnn`) analysts meet most in Security events. */
const PARAMETER_MESSAGES: Readonly<Record<string, string>> = {
  '%%1832': 'Identification',
  '%%1833': 'Impersonation',
  '%%1840': 'Delegation',
  '%%1842': 'Yes',
  '%%1843': 'No',
  '%%1936': 'Type 1 (full token)',
  '%%1937': 'Type 2 (elevated token)',
  '%%1938': 'Type 3 (limited token)',
  '%%2307': 'Account locked out',
  '%%2308': 'Account disabled',
  '%%2309': 'Account expired',
  '%%2310': 'Account disabled',
  '%%2311': 'Account logon time restriction violation',
  '%%2312': 'User not allowed to logon at this computer',
  '%%2313': 'Unknown user name or bad password',
  '%%8448': 'Success removed',
  '%%8449': 'Success added',
  '%%8450': 'Failure removed',
  '%%8451': 'Failure added',
  '%%14592': 'Inbound',
  '%%14593': 'Outbound',
};

/** `%%2313` → `Unknown user name or bad password`; unknown references are kept as written. */
export const resolveParameters = (s: string): string =>
  s.includes('%%') ? s.replace(/%%\d+/g, (m) => PARAMETER_MESSAGES[m] ?? m) : s;

/** The event's insertion strings in template order: named data, then unnamed data. */
function insertionStrings(e: EvtxEvent): string[] {
  const out: string[] = [];
  for (const v of Object.values(e.data)) out.push(typeof v === 'string' ? v : v.join(', '));
  for (const v of e.unnamedData) out.push(v);
  return out;
}

const PLACEHOLDER = /%(\d{1,3})(?:![^!]{0,8}!)?|%([ntrb0.!%])/g;

/** Substitutes one pass (inserted values are never re-expanded); format escapes become spaces. */
export function substitute(description: string, values: readonly string[]): string {
  return description.replace(PLACEHOLDER, (_m, n: string | undefined, esc: string | undefined) => {
    if (n !== undefined) return resolveParameters(values[Number(n) - 1] ?? '');
    if (esc === '.' || esc === '!' || esc === '%') return esc;
    return esc === '0' ? '' : ' ';
  });
}

/** `TargetUserName=admin IpAddress=10.0.13.37 …`: non-blank fields, each value clipped. */
export function summarizeFields(e: EvtxEvent, max = 300): string {
  const parts: string[] = [];
  let length = 0;
  for (const [k, v] of Object.entries(e.data)) {
    const text = typeof v === 'string' ? v : v.join(', ');
    if (isBlank(text.trim())) continue;
    const part = `${k}=${oneLine(resolveParameters(text), 80)}`;
    parts.push(part);
    length += part.length + 1;
    if (length > max) break;
  }
  for (const v of e.unnamedData) {
    if (length > max) break;
    if (isBlank(v.trim())) continue;
    const part = oneLine(v, 80);
    parts.push(part);
    length += part.length + 1;
  }
  return oneLine(parts.join(' '), max);
}

/** The message an analyst would read in Event Viewer, as one line of at most `max` characters. */
export function renderMessage(e: EvtxEvent, describe?: DescribeEvent, max = 500): string {
  let description: string | null | undefined;
  try {
    description = describe?.(e.eventId, e.provider);
  } catch {
    description = null; // a failing lookup must not cost the analysis; the summary stands in
  }
  if (typeof description === 'string' && description.trim() !== '') {
    // Message layouts (%n%t%t…) become runs of spaces on one line: one is enough.
    return oneLine(substitute(description, insertionStrings(e)).replace(/ {2,}/g, ' '), max);
  }
  return summarizeFields(e, max);
}
