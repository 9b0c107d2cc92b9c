/**
 * Key Event Timeline: key events only, one entry per kind of event, host and subject (e.g. per
 * service; a Sigma rule per host and calendar year, so a rule that fired on a host in 2013 and
 * again in 2022 is two entries), spanning its first and last occurrence, with the earliest record
 * as the reference. Sources: notables from the extractors, command-line indicators,
 * authentication patterns, and Sigma matches (importance from the rule's level and status).
 * Beside it, the sources table names each entry's host, record and file (key-events.ts).
 */
import {
  type Category,
  type Importance,
  type Insight,
  type TimelineEntry,
  timelineInsight,
} from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, Span } from '../aggregate.js';
import type { Fact, Notable, ProcessStart } from '../facts.js';
import { importanceOfSigma, maxImportance } from '../importance.js';
import { basename, cleanCell, oneLine, plural } from '../text.js';
import type { Builder, EventHead, EventSource, SigmaMatchInput } from '../types.js';
import { AuthPatterns } from './auth-patterns.js';
import { type KeyEvent, keep, refOf, SpanIndex, sourcesInsight } from './key-events.js';

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
  computer: string;
  tags: readonly string[];
}

/** A match's UTC year, the third part of a Sigma entry's key ('' without a time). */
const yearOf = (ms: number): string => (Number.isFinite(ms) ? String(new Date(ms).getUTCFullYear()) : '');

/** The most entries a timeline holds: the most important ones win, then the earliest. */
export const MAX_TIMELINE_ENTRIES = 2000;

export class TimelineBuilder implements Builder {
  readonly resultType = 'Key Event Timeline' as const;
  readonly consumes = ['notable', 'auth', 'explicit', 'processStart'] as const;
  private readonly groups = new Groups<Group>(GROUPS_PER_TABLE);
  private readonly rules = new Groups<RuleGroup>(GROUPS_PER_TABLE);
  private readonly index = new SpanIndex();
  private readonly auth = new AuthPatterns(this.index);
  /** Entries other builders made (YARA over payloads). */
  private readonly added: KeyEvent[] = [];

  consume(f: Fact, source?: EventSource): void {
    const file = source?.file ?? '';
    if (f.kind === 'notable') this.notable(f, file);
    else if (f.kind === 'auth') this.auth.auth(f, file);
    else if (f.kind === 'explicit') this.auth.explicitLogon(f, file);
    else if (f.kind === 'processStart') this.commandLine(f, file);
  }

  private notable(f: Notable, file: string): void {
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
    this.index.add(g.span, f.computer, f.time, f.recordId, f.ref, file);
    g.importance = maxImportance(g.importance, f.importance);
    // The description follows the earliest event, whatever order the files were read in.
    if (f.time < g.describedAt || (!Number.isFinite(g.describedAt) && Number.isFinite(f.time))) {
      g.description = f.description ?? '';
      g.describedAt = f.time;
    }
  }

  private commandLine(f: ProcessStart, file: string): void {
    if (f.indicators.length === 0 || f.twin) return;
    const importance = f.indicators.reduce<Importance>(
      (m, i) => maxImportance(m, i.importance),
      'Informational',
    );
    const lead = f.indicators.find((i) => i.importance === importance)!;
    this.notable(
      {
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
      },
      file,
    );
  }

  sigma(m: SigmaMatchInput): void {
    const computer = m.computer ?? '';
    const rule = m.rule.id || m.rule.title;
    const g = this.rules.get(`${rule}\u0000${computer}\u0000${yearOf(m.timestamp)}`, () => ({
      title: oneLine(m.rule.title, 120),
      level: m.rule.level ?? '',
      importance: importanceOfSigma(m.rule.level, m.rule.status),
      span: new Span(),
      computer,
      tags: [...(m.rule.tags ?? [])].slice(0, 10),
    }));
    if (g === undefined) return;
    this.index.add(
      g.span,
      computer,
      m.timestamp,
      m.recordId ?? 0,
      refOf(m.channel, m.recordId),
      m.file ?? '',
    );
  }

  /** A record read again from another file (see SpanIndex). */
  duplicate(e: EventHead, source: EventSource): void {
    this.index.duplicate(e.computer, e.timestamp, refOf(e.channel, e.recordId), source.file);
  }

  addEntries(entries: readonly KeyEvent[]): void {
    for (const e of entries) this.added.push(e);
  }

  finish(): Insight[] {
    const events: KeyEvent[] = [...this.added];
    const suffix = (computer: string, count: number) =>
      [computer, count > 1 ? plural(count, 'event') : ''].filter(Boolean).join(', ');
    const at = (span: Span) => ({ ref: span.ref, file: span.file });
    for (const g of this.groups.map.values()) {
      if (!g.span.hasTime) continue;
      const where = suffix(g.computer, g.span.count);
      events.push({
        computer: g.computer,
        ...at(g.span),
        entry: {
          ...g.span.entryTimes(),
          short_name: g.name,
          description: where ? `${g.description} — ${where}` : g.description,
          category: g.category,
          importance: g.importance,
        },
      });
    }
    for (const { entry, computer, count, ref, file } of this.auth.entries()) {
      const where = suffix(computer, count);
      events.push({
        computer,
        ref,
        file,
        entry: { ...entry, description: where ? `${entry.description} — ${where}` : entry.description },
      });
    }
    for (const g of this.rules.map.values()) {
      if (!g.span.hasTime) continue;
      const tags = g.tags.length > 0 ? `; ${g.tags.join(', ')}` : '';
      events.push({
        computer: g.computer,
        ...at(g.span),
        entry: {
          ...g.span.entryTimes(),
          short_name: g.title,
          description: `Sigma rule "${g.title}" (level ${g.level || 'unset'}) matched ${plural(g.span.count, 'event')} on ${g.computer || 'an unknown host'}${tags}`,
          category: 'Sigma',
          importance: g.importance,
        },
      });
    }
    const clean = events.map((k) => ({
      ...k,
      entry: {
        ...k.entry,
        short_name: cleanCell(k.entry.short_name, 200),
        description: cleanCell(k.entry.description, 1000),
      },
    }));
    const kept = keep(clean, MAX_TIMELINE_ENTRIES);
    const entries: TimelineEntry[] = kept.map((k) => k.entry);
    return [timelineInsight('Key Event Timeline', entries, 'General'), sourcesInsight(kept)];
  }
}
