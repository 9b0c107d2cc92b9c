/**
 * Authentication patterns over many events: failed-logon bursts, password spraying, a success from
 * a source that just failed many times, explicit-credential spraying. Counts live in bounded
 * per-source aggregates (failures in 10-minute windows), so input order does not matter.
 */
import { GROUPS_PER_TABLE, Groups, namesText, Span, Tally, topText } from '../aggregate.js';
import type { AuthEvent, ExplicitCredentials } from '../facts.js';
import { basename, plural } from '../text.js';
import { type KeyEvent, SpanIndex } from './key-events.js';

/** Failures from one source within two adjacent 10-minute windows that make a burst. */
export const BURST_FAILURES = 10;
/** Distinct accounts a burst must touch to be spraying rather than guessing one password. */
export const SPRAY_ACCOUNTS = 5;
/** Spraying averages fewer failures than this per account. */
export const SPRAY_MAX_PER_ACCOUNT = 3;
const WINDOW = 10 * 60_000;

interface FailureSource {
  computer: string;
  source: string;
  span: Span;
  /** Failures per 10-minute window (keys: window index). */
  windows: Tally;
  users: Tally;
  reasons: Tally;
  types: Tally;
}

interface Success {
  time: number;
  recordId: number;
  /** One event's span, for its reference record and file. */
  span: Span;
  user: string;
  type: string;
}

interface ExplicitGroup {
  computer: string;
  subject: string;
  process: string;
  span: Span;
  targets: Tally;
  servers: Tally;
}

/** The key events the timeline derives from authentication facts. */
export class AuthPatterns {
  constructor(private readonly index = new SpanIndex()) {}

  private readonly failures = new Groups<FailureSource>(GROUPS_PER_TABLE / 2);
  /** The earliest successes per source, to find a success that follows a burst. */
  private readonly successes = new Groups<Success[]>(GROUPS_PER_TABLE / 2);
  private readonly explicit = new Groups<ExplicitGroup>(GROUPS_PER_TABLE / 2);

  auth(f: AuthEvent, file = ''): void {
    const source = f.address || f.workstation;
    if (source === '') return;
    const key = `${f.computer}\u0000${source}`;
    if (f.outcome === 'failure') {
      const g = this.failures.get(key, () => ({
        computer: f.computer,
        source,
        span: new Span(),
        windows: new Tally(5000),
        users: new Tally(200),
        reasons: new Tally(20),
        types: new Tally(20),
      }));
      if (g === undefined) return;
      this.index.add(g.span, f.computer, f.time, f.recordId, f.ref, file);
      if (Number.isFinite(f.time)) g.windows.add(String(Math.floor(f.time / WINDOW)));
      if (f.user) g.users.add(f.user);
      if (f.reason) g.reasons.add(f.reason);
      g.types.add(f.logonType);
    } else if (
      f.outcome === 'success' &&
      (f.eventId === 4624 || f.remote === 'RDP') &&
      Number.isFinite(f.time)
    ) {
      const list = this.successes.get(key, () => []);
      if (list === undefined) return;
      const span = new Span();
      this.index.add(span, f.computer, f.time, f.recordId, f.ref, file);
      list.push({ time: f.time, recordId: f.recordId, span, user: f.user, type: f.logonType });
      list.sort((a, b) => a.time - b.time || a.recordId - b.recordId);
      if (list.length > 20) list.length = 20;
    }
  }

  explicitLogon(f: ExplicitCredentials, file = ''): void {
    const g = this.explicit.get(`${f.computer}\u0000${f.subject}\u0000${f.process}`, () => ({
      computer: f.computer,
      subject: f.subject,
      process: f.process,
      span: new Span(),
      targets: new Tally(200),
      servers: new Tally(50),
    }));
    if (g === undefined) return;
    this.index.add(g.span, f.computer, f.time, f.recordId, f.ref, file);
    if (f.target) g.targets.add(f.target);
    if (f.server) g.servers.add(f.server);
  }

  /** Timeline entries, with the computer each belongs to and its reference record. */
  entries(): (KeyEvent & { count: number })[] {
    const out: (KeyEvent & { count: number })[] = [];
    for (const [key, g] of this.failures.map) {
      const peak = peakWindow(g.windows);
      if (peak < BURST_FAILURES || !g.span.hasTime) continue;
      // Spraying tries few passwords on many accounts; guessing tries many on a few.
      const accounts = g.users.size;
      const spraying = accounts >= SPRAY_ACCOUNTS && g.span.count < SPRAY_MAX_PER_ACCOUNT * accounts;
      const reasons = g.reasons.size > 0 ? `; ${topText(g.reasons, 3)}` : '';
      out.push({
        computer: g.computer,
        count: g.span.count,
        ref: g.span.ref,
        file: g.span.file,
        entry: {
          timestamp_start: g.span.first,
          timestamp_end: g.span.last,
          record_id: g.span.record,
          short_name: spraying ? 'Password spraying' : 'Failed logon burst',
          description: `${plural(g.span.count, 'failed logon')} from ${g.source} against ${plural(g.users.size, 'account')} (${topText(g.users, 5)})${reasons}`,
          category: 'Authentication',
          importance: 'High',
        },
      });
      const after = (this.successes.map.get(key) ?? []).filter((s) => s.time >= g.span.first);
      const first = after[0];
      if (first === undefined) continue;
      const users = [...new Set(after.map((s) => s.user || 'unknown user'))];
      out.push({
        computer: g.computer,
        count: after.length,
        ref: first.span.ref,
        file: first.span.file,
        entry: {
          timestamp_start: first.time,
          timestamp_end: after.length > 1 ? after[after.length - 1]!.time : null,
          record_id: first.recordId,
          short_name: 'Logon after failed attempts',
          description: `${users.join(', ')} logged on from ${g.source} (logon type ${first.type}) after ${plural(g.span.count, 'failed logon')} from that source`,
          category: 'Authentication',
          importance: 'Critical',
        },
      });
    }
    for (const g of this.explicit.map.values()) {
      if (!g.span.hasTime) continue;
      const spraying = g.targets.size >= SPRAY_ACCOUNTS;
      const servers = g.servers.size > 0 ? ` towards ${namesText(g.servers, 3)}` : '';
      out.push({
        computer: g.computer,
        count: g.span.count,
        ref: g.span.ref,
        file: g.span.file,
        entry: {
          ...g.span.entryTimes(),
          short_name: spraying ? 'Explicit-credential spraying' : 'Explicit-credential logon',
          description: `${g.subject || 'unknown user'} used the credentials of ${g.targets.size > 1 ? `${g.targets.size} accounts (${topText(g.targets, 5)})` : namesText(g.targets, 1) || 'an unknown account'}${servers} via ${basename(g.process) || 'unknown process'}`,
          category: 'Authentication',
          importance: spraying ? 'High' : 'Low',
        },
      });
    }
    return out;
  }
}

/** The most failures in any two adjacent windows (a burst may straddle a window edge). */
function peakWindow(windows: Tally): number {
  const counts = new Map(windows.entries().map(([w, n]) => [Number(w), n]));
  let peak = 0;
  for (const [w, n] of counts) peak = Math.max(peak, n + (counts.get(w + 1) ?? 0));
  return peak;
}
