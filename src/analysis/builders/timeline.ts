/**
 * Key Event Timeline: key events only, one entry per kind of event (and per host and subject,
 * e.g. per service), spanning its first and last occurrence, with the earliest record as the
 * reference. Sources: notables from the extractors, command-line indicators, authentication
 * patterns, and Sigma matches (importance from the rule's level and status).
 */
import {
  type Category,
  type Importance,
  type Insight,
  type TimelineEntry,
  timelineInsight,
} from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, namesText, Span, Tally } from '../aggregate.js';
import type { Fact, Notable, ProcessStart } from '../facts.js';
import { importanceOfSigma, importanceRank, maxImportance } from '../importance.js';
import { basename, cleanCell, oneLine, plural } from '../text.js';
import type { Builder, SigmaMatchInput } from '../types.js';
import { AuthPatterns } from './auth-patterns.js';

interface Group {
  name: string;
  computer: string;
  category: Category;
  importance: Importance;
  span: Span;
  description: string;
  /** The time of the event `description` was taken from (the earliest so far). */
  describedAt: number;
}

interface RuleGroup {
  title: string;
  level: string;
  importance: Importance;
  span: Span;
  computers: Tally;
  tags: readonly string[];
}

/** The most entries a timeline holds: the most important ones win, then the earliest. */
export const MAX_TIMELINE_ENTRIES = 2000;

export class TimelineBuilder implements Builder {
  readonly resultType = 'Key Event Timeline' as const;
  readonly consumes = ['notable', 'auth', 'explicit', 'processStart'] as const;
  private readonly groups = new Groups<Group>(GROUPS_PER_TABLE);
  private readonly rules = new Groups<RuleGroup>(GROUPS_PER_TABLE);
  private readonly auth = new AuthPatterns();
  /** Entries other builders made (YARA over payloads). */
  private readonly added: TimelineEntry[] = [];

  consume(f: Fact): void {
    if (f.kind === 'notable') this.notable(f);
    else if (f.kind === 'auth') this.auth.auth(f);
    else if (f.kind === 'explicit') this.auth.explicitLogon(f);
    else if (f.kind === 'processStart') this.commandLine(f);
  }

  private notable(f: Notable): void {
    const g = this.groups.get(`${f.name}\u0000${f.computer}\u0000${f.group}`, () => ({
      name: f.name,
      computer: f.computer,
      category: f.category,
      importance: f.importance,
      span: new Span(),
      description: f.description ?? '',
      describedAt: f.time,
    }));
    if (g === undefined) return;
    g.span.add(f.time, f.recordId);
    g.importance = maxImportance(g.importance, f.importance);
    // The description follows the earliest event, whatever order the files were read in.
    if (f.time < g.describedAt || (!Number.isFinite(g.describedAt) && Number.isFinite(f.time))) {
      g.description = f.description ?? '';
      g.describedAt = f.time;
    }
  }

  private commandLine(f: ProcessStart): void {
    if (f.indicators.length === 0 || f.twin) return;
    const importance = f.indicators.reduce<Importance>(
      (m, i) => maxImportance(m, i.importance),
      'Informational',
    );
    const lead = f.indicators.find((i) => i.importance === importance)!;
    this.notable({
      kind: 'notable',
      computer: f.computer,
      time: f.time,
      recordId: f.recordId,
      ref: f.ref,
      name: lead.label,
      group: '',
      category: 'Process',
      importance,
      description: oneLine(
        `${f.indicators.map((i) => i.label).join(', ')}: ${f.commandLine || basename(f.image)}${f.user ? ` (as ${f.user})` : ''}`,
        400,
      ),
    });
  }

  sigma(m: SigmaMatchInput): void {
    const g = this.rules.get(m.rule.id || m.rule.title, () => ({
      title: oneLine(m.rule.title, 120),
      level: m.rule.level ?? '',
      importance: importanceOfSigma(m.rule.level, m.rule.status),
      span: new Span(),
      computers: new Tally(50),
      tags: [...(m.rule.tags ?? [])].slice(0, 10),
    }));
    if (g === undefined) return;
    g.span.add(m.timestamp, m.recordId ?? 0);
    if (m.computer) g.computers.add(m.computer);
  }

  addEntries(entries: readonly TimelineEntry[]): void {
    for (const e of entries) this.added.push(e);
  }

  finish(): Insight[] {
    const entries: TimelineEntry[] = [...this.added];
    const suffix = (computer: string, count: number) =>
      [computer, count > 1 ? plural(count, 'event') : ''].filter(Boolean).join(', ');
    for (const g of this.groups.map.values()) {
      if (!g.span.hasTime) continue;
      const where = suffix(g.computer, g.span.count);
      entries.push({
        timestamp_start: g.span.first,
        timestamp_end: g.span.count > 1 ? g.span.last : null,
        record_id: g.span.record,
        short_name: g.name,
        description: where ? `${g.description} — ${where}` : g.description,
        category: g.category,
        importance: g.importance,
      });
    }
    for (const { entry, computer, count } of this.auth.entries()) {
      const where = suffix(computer, count);
      entries.push({ ...entry, description: where ? `${entry.description} — ${where}` : entry.description });
    }
    for (const g of this.rules.map.values()) {
      if (!g.span.hasTime) continue;
      const tags = g.tags.length > 0 ? `; ${g.tags.join(', ')}` : '';
      entries.push({
        timestamp_start: g.span.first,
        timestamp_end: g.span.count > 1 ? g.span.last : null,
        record_id: g.span.record,
        short_name: g.title,
        description: `Sigma rule "${g.title}" (level ${g.level || 'unset'}) matched ${plural(g.span.count, 'event')} on ${namesText(g.computers, 3) || 'unknown hosts'}${tags}`,
        category: 'Sigma',
        importance: g.importance,
      });
    }
    const clean = entries.map((e) => ({
      ...e,
      short_name: cleanCell(e.short_name, 200),
      description: cleanCell(e.description, 1000),
    }));
    return [timelineInsight('Key Event Timeline', keep(clean), 'General')];
  }
}

const byTime = (a: TimelineEntry, b: TimelineEntry): number =>
  a.timestamp_start - b.timestamp_start ||
  importanceRank(b.importance) - importanceRank(a.importance) ||
  (a.short_name < b.short_name ? -1 : a.short_name > b.short_name ? 1 : 0) ||
  a.record_id - b.record_id ||
  (a.description < b.description ? -1 : a.description > b.description ? 1 : 0);

/** At most MAX_TIMELINE_ENTRIES, the most important first, shown in time order. */
function keep(entries: TimelineEntry[]): TimelineEntry[] {
  if (entries.length > MAX_TIMELINE_ENTRIES) {
    entries.sort((a, b) => importanceRank(b.importance) - importanceRank(a.importance) || byTime(a, b));
    entries.length = MAX_TIMELINE_ENTRIES;
  }
  return entries.sort(byTime);
}
