/**
 * Network Analysis: connections (Sysmon 3, Security 5156) by destination, port, process and
 * direction; DNS queries (Sysmon 22); and remote-access sources (RDP, network logons, file-share
 * access): who came from where, how often, with what outcome. Busiest first.
 */
import { type Insight, tableInsight } from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, Samples, Span, Tally, topText } from '../aggregate.js';
import type { AuthEvent, Connection, DnsQuery, Fact, ShareAccess } from '../facts.js';
import { basename, cleanRows, formatTime, oneLine } from '../text.js';
import type { Builder } from '../types.js';

interface ConnectionStats {
  c: Connection;
  hosts: Samples;
  sources: Tally;
  span: Span;
  records: Samples;
}

interface DnsStats {
  d: DnsQuery;
  results: Samples;
  statuses: Tally;
  span: Span;
  records: Samples;
}

interface SourceStats {
  computer: string;
  address: string;
  service: string;
  users: Tally;
  shares: Tally;
  successes: number;
  failures: number;
  span: Span;
  records: Samples;
}

export const CONNECTION_COLUMNS = [
  'Destination',
  'Destination Host',
  'Port',
  'Protocol',
  'Direction',
  'Process',
  'Sources',
  'Count',
  'First Seen',
  'Last Seen',
  'Computer',
  'Records',
] as const;
export const DNS_COLUMNS = [
  'Query',
  'Process',
  'Results',
  'Status',
  'Count',
  'First Seen',
  'Last Seen',
  'Computer',
  'Records',
] as const;
export const SOURCE_COLUMNS = [
  'Source Address',
  'Service',
  'Users',
  'Successes',
  'Failures',
  'Shares',
  'First Seen',
  'Last Seen',
  'Computer',
  'Records',
] as const;

const MAX_ROWS = 1000;

/** Count descending, then first seen, then the row's text: deterministic. */
function busiestFirst<T extends { span: Span }>(list: Iterable<[string, T]>): T[] {
  return [...list]
    .sort(
      ([ka, a], [kb, b]) =>
        b.span.count - a.span.count || a.span.first - b.span.first || (ka < kb ? -1 : ka > kb ? 1 : 0),
    )
    .slice(0, MAX_ROWS)
    .map(([, v]) => v);
}

export class NetworkBuilder implements Builder {
  readonly resultType = 'Network Analysis' as const;
  readonly consumes = ['connection', 'dns', 'auth', 'share'] as const;
  private readonly connections = new Groups<ConnectionStats>(GROUPS_PER_TABLE);
  private readonly queries = new Groups<DnsStats>(GROUPS_PER_TABLE);
  private readonly sources = new Groups<SourceStats>(GROUPS_PER_TABLE / 2);

  consume(f: Fact): void {
    if (f.kind === 'connection') this.connection(f);
    else if (f.kind === 'dns') this.dns(f);
    else if (f.kind === 'auth') this.remote(f);
    else if (f.kind === 'share') this.share(f);
  }

  private connection(c: Connection): void {
    const key = [c.computer, c.image.toLowerCase(), c.destAddress, c.destPort, c.protocol, c.direction].join(
      '\u0000',
    );
    const g = this.connections.get(key, () => ({
      c,
      hosts: new Samples(2),
      sources: new Tally(50),
      span: new Span(),
      records: new Samples(3),
    }));
    if (g === undefined) return;
    g.span.add(c.time, c.recordId);
    g.hosts.add(c.destHost);
    if (c.sourceAddress) g.sources.add(c.sourceAddress);
    g.records.add(c.ref);
  }

  private dns(d: DnsQuery): void {
    const key = [d.computer, d.query.toLowerCase(), d.image.toLowerCase()].join('\u0000');
    const g = this.queries.get(key, () => ({
      d,
      results: new Samples(3),
      statuses: new Tally(10),
      span: new Span(),
      records: new Samples(3),
    }));
    if (g === undefined) return;
    g.span.add(d.time, d.recordId);
    g.results.add(oneLine(d.results, 200));
    if (d.status) g.statuses.add(d.status);
    g.records.add(d.ref);
  }

  private source(computer: string, address: string, service: string): SourceStats | undefined {
    return this.sources.get([computer, address, service].join('\u0000'), () => ({
      computer,
      address,
      service,
      users: new Tally(50),
      shares: new Tally(20),
      successes: 0,
      failures: 0,
      span: new Span(),
      records: new Samples(3),
    }));
  }

  private remote(a: AuthEvent): void {
    if (a.remote === null || a.address === '') return;
    const g = this.source(a.computer, a.address, a.remote);
    if (g === undefined) return;
    g.span.add(a.time, a.recordId);
    if (a.user) g.users.add(a.user);
    if (a.outcome === 'success') g.successes++;
    else if (a.outcome === 'failure') g.failures++;
    g.records.add(a.ref);
  }

  private share(s: ShareAccess): void {
    if (s.address === '') return;
    const g = this.source(s.computer, s.address, 'SMB share');
    if (g === undefined) return;
    g.span.add(s.time, s.recordId);
    if (s.user) g.users.add(s.user);
    if (s.share) g.shares.add(s.share);
    g.successes++;
    g.records.add(s.ref);
  }

  finish(): Insight[] {
    const connections = busiestFirst(this.connections.map).map((g) => [
      g.c.destAddress || '-',
      g.hosts.items.join(', ') || '-',
      g.c.destPort || '-',
      g.c.protocol || '-',
      g.c.direction || '-',
      oneLine(g.c.image, 500) || '-',
      topText(g.sources, 3) || '-',
      String(g.span.count),
      formatTime(g.span.first),
      formatTime(g.span.last),
      g.c.computer,
      g.records.items.join(', '),
    ]);
    const queries = busiestFirst(this.queries.map).map((g) => [
      oneLine(g.d.query, 300) || '-',
      oneLine(basename(g.d.image), 200) || '-',
      g.results.items.join('\n') || '-',
      topText(g.statuses, 3) || '-',
      String(g.span.count),
      formatTime(g.span.first),
      formatTime(g.span.last),
      g.d.computer,
      g.records.items.join(', '),
    ]);
    const sources = busiestFirst(this.sources.map).map((g) => [
      g.address,
      g.service,
      topText(g.users, 5) || '-',
      String(g.successes),
      String(g.failures),
      topText(g.shares, 5) || '-',
      formatTime(g.span.first),
      formatTime(g.span.last),
      g.computer,
      g.records.items.join(', '),
    ]);
    return [
      tableInsight('Network Analysis', CONNECTION_COLUMNS, cleanRows(connections), 'Network'),
      tableInsight('Network Analysis: DNS Queries', DNS_COLUMNS, cleanRows(queries), 'Network'),
      tableInsight('Network Analysis: Remote Access Sources', SOURCE_COLUMNS, cleanRows(sources), 'Network'),
    ];
  }
}
