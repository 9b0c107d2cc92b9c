/** Small text helpers shared by the builders: event fields as text, times, names, clipping. */
import type { EvtxEvent } from '../evtx/index.js';
import { clip, formatTime, isBlank, oneLine } from '../messages/index.js';

export { clip, formatTime, isBlank, oneLine };

/** A field as one string: absent → '', a multi-valued field joined with ', '. */
export function field(e: EvtxEvent, name: string): string {
  const v = e.data[name];
  if (v === undefined) return '';
  return typeof v === 'string' ? v : v.join(', ');
}

/**
 * A clipped copy that keeps nothing else alive. V8 slices share the original string's memory,
 * so a 200-character slice of a 20 KB command line would keep all 20 KB; concatenating and
 * slicing again flattens into a fresh string. A text that needs no clipping is copied too: one
 * a digest's fields were sliced from kept its parent (the graph's 25,000 processes of the 1 GB
 * job held 4.9 MB of such parents). V8 copies slices under 13 characters anyway.
 */
export const detach = (s: string, max: number): string =>
  s.length < 13 ? s : `${s.length <= max ? s : clip(s, max)} `.slice(0, -1);

/**
 * A table cell or description as delivered: control characters other than the line breaks that
 * separate sample values become spaces, and the cell is clipped.
 */
export const cleanCell = (s: string, max = 2000): string =>
  clip(s.replace(/[\u0000-\u0009\u000b-\u001f\u007f]+/g, ' '), max);

/** Every cell of every row cleaned (see cleanCell). */
export const cleanRows = (rows: string[][]): string[][] => rows.map((r) => r.map((c) => cleanCell(c)));

/** The file name of a Windows or device path (`\device\harddiskvolume1\…\svchost.exe` → `svchost.exe`). */
export function basename(path: string): string {
  const i = Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/'));
  return i < 0 ? path : path.slice(i + 1);
}

/** A process id written in decimal (Sysmon) or hex (`0x1c90`, Security); null when unusable. */
export function parsePid(s: string): number | null {
  const t = s.trim();
  if (t === '') return null;
  const v = /^0x[0-9a-f]+$/i.test(t)
    ? Number.parseInt(t.slice(2), 16)
    : /^\d+$/.test(t)
      ? Number(t)
      : Number.NaN;
  return Number.isSafeInteger(v) ? v : null;
}

/** `DOMAIN\user`, `user` alone, or '' when the user is absent. */
export function account(domain: string, user: string): string {
  if (isBlank(user)) return '';
  return isBlank(domain) ? user : `${domain}\\${user}`;
}

/** `Microsoft-Windows-Sysmon/Operational` → `Sysmon/Operational`. */
export const shortChannel = (channel: string): string => channel.replace(/^Microsoft-Windows-/, '');

/** An address as analysts compare them: IPv4-mapped IPv6 unwrapped, '-' → ''. */
export function normalizeAddress(a: string): string {
  const t = a.trim();
  if (isBlank(t)) return '';
  return t.toLowerCase().startsWith('::ffff:') && t.includes('.') ? t.slice(7) : t;
}

/** Where a number came from: `Security#4711` (channel, record id). */
export const recordRef = (e: EvtxEvent): string => `${shortChannel(e.channel)}#${e.recordId}`;

/** `1 event`, `3 events`. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A duration in words: `3d 4h`, `2h 5m`, `42s`. */
export function formatSpan(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '-';
  const s = Math.floor(ms / 1000);
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)];
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}
