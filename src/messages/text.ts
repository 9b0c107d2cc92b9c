/** Text helpers of messages and rows, shared with the analysis (which re-exports them). */

/** Windows writes '-' (and sometimes '' or a null SID) where a value is absent. */
export const isBlank = (s: string): boolean =>
  s === '' || s === '-' || s === 'S-1-0-0' || s === '::' || s === 'N/A';

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** The largest distance from the epoch a Date holds (ms). */
const MAX_DATE_MS = 8.64e15;

let cachedMinute = Number.NaN;
let cachedMinuteText = '';

/**
 * `YYYY-MM-DD HH:MM:SS` in UTC (the spec's timestamp text), or '-' for no time. Events come in
 * runs of one minute, and every event's row and messages ask: the minute's text is made once.
 */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  const t = Math.trunc(ms); // as a Date takes it
  if (Math.abs(t) > MAX_DATE_MS) return '-';
  const minute = Math.floor(t / 60_000);
  if (minute !== cachedMinute) {
    const d = new Date(minute * 60_000);
    cachedMinuteText = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:`;
    cachedMinute = minute;
  }
  const second = Math.floor((t - minute * 60_000) / 1000);
  return cachedMinuteText + (second < 10 ? `0${second}` : String(second));
}

/** Cuts to `max` characters, marking the cut with '…'. */
export const clip = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** One line: runs of control characters (CR, LF, tabs, …) become one space; then clipped. */
export function oneLine(s: string, max: number): string {
  // Control characters from hostile data would break table cells and DOT labels alike.
  const flat = s.length > max * 4 ? s.slice(0, max * 4) : s;
  return clip(flat.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim(), max);
}
