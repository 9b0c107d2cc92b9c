/**
 * Windows timestamps. FILETIME counts 100 ns ticks since 1601-01-01 UTC; values above 2^53
 * are split into whole seconds and a tick remainder so no precision is lost in a double.
 */
import { u16, u32 } from './bytes.js';

const SECONDS_1601_TO_1970 = 11644473600;
const TWO_POW_32_MOD_1E7 = 4294967296 % 10000000;

export interface WindowsTime {
  /** Milliseconds since the Unix epoch (floored). */
  readonly ms: number;
  /** ISO 8601 UTC with 7 fractional digits (100 ns), e.g. `2016-07-08T18:12:51.6816404Z`. */
  readonly text: string;
}

/** Splits FILETIME ticks into Unix seconds and the 100 ns remainder. */
export function filetimeParts(lo: number, hi: number): { unixSeconds: number; ticks: number } {
  const ticks = ((hi % 10000000) * TWO_POW_32_MOD_1E7 + (lo % 10000000)) % 10000000;
  // hi·2^32 is exact and the sum is a multiple of 10^7 with ≤ 50 significant bits, so it is exact.
  const seconds = (hi * 4294967296 + (lo - ticks)) / 10000000;
  return { unixSeconds: seconds - SECONDS_1601_TO_1970, ticks };
}

const MAX_UNIX_SECONDS = 253402300799; // 9999-12-31T23:59:59Z
const MIN_UNIX_SECONDS = -62135596800; // 0001-01-01T00:00:00Z

/** ISO text of whole seconds, or null outside years 1..9999 (not representable in ISO basic form). */
export function isoSeconds(unixSeconds: number): string | null {
  if (unixSeconds > MAX_UNIX_SECONDS || unixSeconds < MIN_UNIX_SECONDS) return null;
  const days = Math.floor(unixSeconds / 86400);
  const s = unixSeconds - days * 86400;
  if (days !== lastDay) {
    lastDay = days;
    lastDayText = new Date(days * 86400000).toISOString().slice(0, 11);
  }
  const h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60;
  return `${lastDayText}${TWO_DIGITS[h]}:${TWO_DIGITS[m]}:${TWO_DIGITS[s % 60]}`;
}

/** Records cluster in time: the date part rarely changes from one timestamp to the next. */
let lastDay = Number.NaN;
let lastDayText = '';
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** Whether the FILETIME at `o` has an ISO text (years 1..9999). */
export function filetimeInRange(b: Uint8Array, o: number): boolean {
  const s = filetimeParts(u32(b, o), u32(b, o + 4)).unixSeconds;
  return s <= MAX_UNIX_SECONDS && s >= MIN_UNIX_SECONDS;
}

let lastSecond = Number.NaN;
let lastSecondText: string | null = null;

/** Cached: consecutive records share the same second far more often than not. */
export function secondsText(unixSeconds: number): string | null {
  if (unixSeconds !== lastSecond) {
    lastSecond = unixSeconds;
    lastSecondText = isoSeconds(unixSeconds);
  }
  return lastSecondText;
}

const msOf = (unixSeconds: number, ticks: number): number => unixSeconds * 1000 + Math.floor(ticks / 10000);

/** The FILETIME at `o` in milliseconds (floored), without its text; null outside years 1..9999. */
export function filetimeMsAt(b: Uint8Array, o: number): number | null {
  const { unixSeconds, ticks } = filetimeParts(u32(b, o), u32(b, o + 4));
  return unixSeconds > MAX_UNIX_SECONDS || unixSeconds < MIN_UNIX_SECONDS ? null : msOf(unixSeconds, ticks);
}

export function filetimeAt(b: Uint8Array, o: number): WindowsTime | null {
  const { unixSeconds, ticks } = filetimeParts(u32(b, o), u32(b, o + 4));
  const base = secondsText(unixSeconds);
  if (base === null) return null;
  return {
    ms: msOf(unixSeconds, ticks),
    text: `${base}.${String(ticks).padStart(7, '0')}Z`,
  };
}

/** SYSTEMTIME: year, month, day-of-week, day, hour, minute, second, millisecond (u16 each), always UTC. */
export function systemtimeAt(b: Uint8Array, o: number): WindowsTime | null {
  const year = u16(b, o);
  const month = u16(b, o + 2);
  const day = u16(b, o + 6);
  const hour = u16(b, o + 8);
  const minute = u16(b, o + 10);
  const second = u16(b, o + 12);
  const milli = u16(b, o + 14);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  if (milli > 999 || year < 1 || year > 9999) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  const d = new Date(ms);
  if (d.getUTCDate() !== day) return null;
  if (year < 100) d.setUTCFullYear(year);
  const base = d.toISOString().slice(0, 19);
  return { ms: d.getTime(), text: `${base}.${String(milli * 10000).padStart(7, '0')}Z` };
}

/** The evtx crate renders microseconds; this converts our 100 ns text to that form. */
export const toMicrosecondText = (text: string): string => `${text.slice(0, text.length - 2)}Z`;
