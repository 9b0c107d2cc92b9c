/**
 * YARA over payloads: the rules that matched code events carried (script blocks, decoded
 * commands, service images…), as an Overview table (one row per payload and rule), Key Event
 * Timeline entries (category `Yara`, one per rule and computer) and a line of the Overview.
 * Payload text is attacker-written: it is flattened to one line and clipped like every cell.
 */
import { type Insight, tableInsight } from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, namesText, Span, Tally } from '../aggregate.js';
import { cleanRows, formatTime, oneLine, plural, shortChannel } from '../text.js';
import { type KeyEvent, refOf } from './key-events.js';

/** One matched payload, as src/payloads reports it (typed here so analysis needs nothing from there). */
export interface PayloadMatchInput {
  readonly kind: string;
  readonly computer: string;
  readonly label?: string;
  readonly provenance: { readonly field: string; readonly layers: readonly string[] };
  readonly preview: string;
  readonly binary: boolean;
  readonly rules: readonly { readonly rule: string; readonly namespace: string }[];
  readonly records: readonly {
    readonly recordId: number;
    readonly timestamp: number;
    readonly channel: string;
    readonly eventId: number;
    readonly file?: string;
  }[];
  readonly occurrences: number;
}

/** What the payload scan of a run found and how it went. */
export interface PayloadScanInput {
  readonly scanned: number;
  readonly bytes: number;
  readonly repeats: number;
  readonly timeouts: number;
  readonly failed: number;
  readonly firstProblem: string | null;
  readonly matches: readonly PayloadMatchInput[];
  readonly matchesDropped: number;
  readonly diagnostics: Readonly<Partial<Record<string, number>>>;
}

export const PAYLOAD_YARA_COLUMNS = [
  'Rule',
  'Payload kind',
  'Decoded',
  'Records',
  'First seen',
  'Computer',
  'Preview',
] as const;

interface RuleGroup {
  rule: string;
  namespace: string;
  computer: string;
  span: Span;
  payloads: number;
  kinds: Tally;
  preview: string;
}

const recordsText = (m: PayloadMatchInput): string => {
  const shown = m.records.slice(0, 5).map((r) => `${shortChannel(r.channel)} ${r.eventId} #${r.recordId}`);
  const more = m.occurrences - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
};

const decodedText = (m: PayloadMatchInput): string =>
  m.provenance.layers.length === 0
    ? m.provenance.field
    : `${m.provenance.field}: ${m.provenance.layers.join(' → ')}`;

export class PayloadYaraBuilder {
  private readonly rows: string[][] = [];
  private rowsDropped = 0;
  private readonly groups = new Groups<RuleGroup>(GROUPS_PER_TABLE);
  private totals: PayloadScanInput | undefined;

  add(scan: PayloadScanInput): void {
    this.totals = scan;
    for (const m of scan.matches) {
      const first = Math.min(
        ...m.records.map((r) => (Number.isFinite(r.timestamp) ? r.timestamp : Infinity)),
      );
      const preview = oneLine(m.preview, 200);
      for (const { rule, namespace } of m.rules) {
        if (this.rows.length < GROUPS_PER_TABLE)
          this.rows.push([
            oneLine(rule, 200),
            m.label ? `${m.kind} (${oneLine(m.label, 120)})` : m.kind,
            decodedText(m),
            recordsText(m),
            formatTime(first),
            oneLine(m.computer, 200) || '-',
            preview || '-',
          ]);
        else this.rowsDropped++;
        const g = this.groups.get(`${namespace}\u0000${rule}\u0000${m.computer}`, () => ({
          rule: oneLine(rule, 120),
          namespace: oneLine(namespace, 200),
          computer: m.computer,
          span: new Span(),
          payloads: 0,
          kinds: new Tally(10),
          preview,
        }));
        if (g === undefined) continue;
        g.payloads++;
        g.kinds.add(m.kind);
        for (const r of m.records)
          g.span.add(r.timestamp, r.recordId, refOf(r.channel, r.recordId), r.file ?? '');
      }
    }
  }

  /** The Overview's `yara_payloads` line. */
  overviewLine(): string {
    const t = this.totals;
    if (t === undefined) return 'not run';
    const parts = [
      `${plural(t.scanned, 'payload')} scanned (${(t.bytes / 1048576).toFixed(1)} MiB)`,
      `${plural(t.repeats, 'repeat')} not scanned again`,
      `${plural(t.matches.length + t.matchesDropped, 'payload')} matched`,
      t.timeouts > 0 ? `${plural(t.timeouts, 'scan')} timed out` : '',
      t.failed > 0 ? `${plural(t.failed, 'scan')} failed` : '',
      t.firstProblem ?? '',
      ...Object.entries(t.diagnostics).map(([code, n]) => `${code}: ${n}`),
    ];
    return parts.filter(Boolean).join('; ');
  }

  table(): Insight {
    const rows = [...this.rows];
    if (this.rowsDropped > 0)
      rows.push([`(${plural(this.rowsDropped, 'more match')} not shown)`, '', '', '', '', '', '']);
    return tableInsight('Overview: YARA Payload Matches', PAYLOAD_YARA_COLUMNS, cleanRows(rows), 'Yara');
  }

  timelineEntries(): KeyEvent[] {
    const entries: KeyEvent[] = [];
    for (const g of this.groups.map.values()) {
      if (!g.span.hasTime) continue;
      entries.push({
        computer: g.computer,
        ref: g.span.ref,
        file: g.span.file,
        entry: {
          ...g.span.entryTimes(),
          short_name: `YARA: ${g.rule}`,
          description: `YARA rule "${g.rule}" (${g.namespace}) matched ${plural(g.payloads, 'payload')} (${namesText(g.kinds, 3)}) from ${plural(g.span.count, 'record')} on ${g.computer || 'unknown host'}: ${g.preview}`,
          category: 'Yara',
          importance: 'High',
        },
      });
    }
    return entries;
  }
}
