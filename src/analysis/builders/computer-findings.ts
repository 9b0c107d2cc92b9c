/**
 * Overview: Findings per Computer: for each computer, its events, its Sigma matches (count,
 * rules, highest level, the most frequent rules) and its key events (what the extractors judged
 * notable, and process starts with suspicious indicators), with first and last time. The hosts
 * with the most severe findings come first.
 */
import { type Importance, type Insight, tableInsight } from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, Span, Tally, topText } from '../aggregate.js';
import type { Fact } from '../facts.js';
import { importanceOfSigma, importanceRank, maxImportance } from '../importance.js';
import { cleanRows, formatTime, oneLine } from '../text.js';
import type { Builder, EventHead, SigmaMatchInput } from '../types.js';

export const COMPUTER_FINDINGS_COLUMNS = [
  'Computer',
  'Events',
  'Sigma Matches',
  'Sigma Rules',
  'Highest Sigma Level',
  'Sigma Matches by Level',
  'Top Sigma Rules',
  'Key Events',
  'Highest Importance',
  'Top Key Events',
  'First Seen',
  'Last Seen',
] as const;

const MAX_ROWS = 1000;

/** Sigma's levels from the most severe down; a rule without a known level counts as `unset`. */
export const SIGMA_LEVELS = ['critical', 'high', 'medium', 'low', 'informational', 'unset'] as const;

/** `critical 2, high 40, low 3`: the levels with matches, most severe first. */
const levelsText = (counts: readonly number[]): string =>
  counts.flatMap((n, i) => (n > 0 ? [`${SIGMA_LEVELS[i]} ${n}`] : [])).join(', ');

interface Host {
  readonly name: string;
  events: number;
  readonly span: Span;
  sigma: number;
  sigmaLevel: string;
  sigmaRank: number;
  /** Matches per level, indexed as SIGMA_LEVELS (the report's level × host summary reads them). */
  readonly levels: number[];
  readonly rules: Tally;
  keyEvents: number;
  importance: Importance | null;
  readonly keys: Tally;
}

export class ComputerFindingsBuilder implements Builder {
  readonly resultType = 'Overview' as const;
  readonly consumes = ['notable', 'processStart'] as const;
  private readonly hosts = new Groups<Host>(GROUPS_PER_TABLE);
  private last: Host | undefined;

  constructor(private readonly sigmaEnabled: boolean) {}

  private host(computer: string): Host | undefined {
    if (this.last !== undefined && this.last.name === computer) return this.last;
    const h = this.hosts.get(computer, () => ({
      name: computer,
      events: 0,
      span: new Span(),
      sigma: 0,
      sigmaLevel: '',
      sigmaRank: -1,
      levels: SIGMA_LEVELS.map(() => 0),
      rules: new Tally(200),
      keyEvents: 0,
      importance: null,
      keys: new Tally(200),
    }));
    if (h !== undefined) this.last = h;
    return h;
  }

  countEvent(e: EventHead): void {
    const h = this.host(e.computer);
    if (h === undefined) return;
    h.events++;
    h.span.add(e.timestamp, e.recordId);
  }

  countSigmaMatch(m: SigmaMatchInput): void {
    const h = this.host(m.computer ?? '');
    if (h === undefined) return;
    h.sigma++;
    h.rules.add(oneLine(m.rule.title, 120));
    const level = SIGMA_LEVELS.indexOf(String(m.rule.level ?? '').toLowerCase() as never);
    h.levels[level < 0 ? SIGMA_LEVELS.length - 1 : level]!++;
    const rank = importanceRank(importanceOfSigma(m.rule.level));
    if (rank > h.sigmaRank) {
      h.sigmaRank = rank;
      h.sigmaLevel = m.rule.level ?? '';
    }
  }

  consume(f: Fact): void {
    if (f.kind === 'notable') this.key(f.computer, f.name, f.importance);
    else if (f.kind === 'processStart' && f.indicators.length > 0 && !f.twin)
      this.key(f.computer, f.indicators.map((i) => i.label).join(', '), 'Medium');
  }

  private key(computer: string, name: string, importance: Importance): void {
    const h = this.host(computer);
    if (h === undefined) return;
    h.keyEvents++;
    h.keys.add(oneLine(name, 120));
    h.importance = h.importance === null ? importance : maxImportance(h.importance, importance);
  }

  finish(): Insight[] {
    const hosts = [...this.hosts.map.values()].filter((h) => h.events > 0 || h.sigma > 0 || h.keyEvents > 0);
    if (hosts.length === 0) return [];
    const rank = (h: Host) =>
      Math.max(h.sigmaRank, h.importance === null ? -1 : importanceRank(h.importance));
    hosts.sort(
      (a, b) =>
        rank(b) - rank(a) ||
        b.sigma + b.keyEvents - (a.sigma + a.keyEvents) ||
        b.events - a.events ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    const sigma = (text: string) => (this.sigmaEnabled ? text : 'not run');
    const rows = hosts
      .slice(0, MAX_ROWS)
      .map((h) => [
        oneLine(h.name, 200) || '(none)',
        String(h.events),
        sigma(String(h.sigma)),
        sigma(String(h.rules.size + (h.rules.overflow > 0 ? 1 : 0))),
        sigma(h.sigmaLevel || '-'),
        sigma(levelsText(h.levels) || '-'),
        sigma(topText(h.rules, 5) || '-'),
        String(h.keyEvents),
        h.importance ?? '-',
        topText(h.keys, 5) || '-',
        formatTime(h.span.first),
        formatTime(h.span.last),
      ]);
    return [
      tableInsight('Overview: Findings per Computer', COMPUTER_FINDINGS_COLUMNS, cleanRows(rows), 'General'),
    ];
  }
}
