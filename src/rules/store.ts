/** Every SQL statement of the library, parameterised, behind typed methods. */
import type { SqliteDatabase, SqliteStatement } from '../../native/sqlite.js';
import type {
  PackDiagnostic,
  PackDiagnosticCode,
  PackFormat,
  PackInfo,
  RuleKind,
  RuleSummary,
} from './types.js';

export interface PackRow {
  readonly id: number;
  readonly name: string;
  readonly format: PackFormat;
  readonly source: string;
  readonly position: number;
  readonly fingerprint: string;
  readonly indexed_at: string;
}

/** The columns of one rule as the indexer writes them. */
export interface RuleFields {
  readonly kind: RuleKind;
  /** The file stem (listings show it). */
  readonly name: string;
  /** Every name the file is retrieved by (`retrievalNames`), the stem included. */
  readonly names: readonly string[];
  readonly path: string;
  readonly hash: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly author: string | null;
  readonly tags: string;
  readonly level: string | null;
  readonly status: string | null;
  readonly rule_id: string | null;
}

interface RuleRow extends RuleFields {
  readonly pack: string;
}

export interface RuleTextRow extends RuleRow {
  /** With a names filter: the requested name this row answers (a file can answer several). */
  readonly matched: string | null;
  readonly text: string;
  readonly yara_checker: string | null;
  readonly yara_error: string | null;
}

const RULE_COLUMNS = `r.kind, r.name, r.path, r.hash, r.title, r.description, r.author, r.tags, r.level,
  r.status, r.rule_id, p.name AS pack`;
const IN_JSON = (column: string) => `${column} IN (SELECT value FROM json_each(?))`;

export function summaryOf(row: RuleRow): RuleSummary {
  const optional = {
    title: row.title,
    description: row.description,
    author: row.author,
    level: row.level,
    status: row.status,
    ruleId: row.rule_id,
  };
  const out: Record<string, unknown> = {
    kind: row.kind,
    name: row.name,
    pack: row.pack,
    path: row.path,
    hash: row.hash,
    tags: JSON.parse(row.tags) as string[],
  };
  for (const [k, v] of Object.entries(optional)) if (v !== null) out[k] = v;
  return out as unknown as RuleSummary;
}

/** The `rules` columns after `pack_id`, in the order INSERT and UPDATE name them. */
const ruleValues = (f: RuleFields) =>
  [
    f.kind,
    f.name,
    f.path,
    f.hash,
    f.title,
    f.description,
    f.author,
    f.tags,
    f.level,
    f.status,
    f.rule_id,
  ] as const;

export class RuleStore {
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(readonly db: SqliteDatabase) {}

  /** Prepared once per SQL text: indexing a pack runs the same few statements thousands of times. */
  private sql<P extends unknown[] = unknown[], R = unknown>(text: string): SqliteStatement<P, R> {
    let s = this.statements.get(text);
    if (s === undefined) {
      s = this.db.prepare(text);
      this.statements.set(text, s);
    }
    return s as unknown as SqliteStatement<P, R>;
  }

  packs(): PackInfo[] {
    const rows = this.sql<[], PackRow & { sigma: number; yara: number }>(
      `SELECT p.*, (SELECT count(*) FROM rules r WHERE r.pack_id = p.id AND r.kind = 'sigma') AS sigma,
           (SELECT count(*) FROM rules r WHERE r.pack_id = p.id AND r.kind = 'yara') AS yara
         FROM packs p ORDER BY p.position`,
    ).all();
    return rows.map((r) => ({
      name: r.name,
      format: r.format,
      source: r.source,
      position: r.position,
      fingerprint: r.fingerprint,
      sigma: r.sigma,
      yara: r.yara,
      indexedAt: r.indexed_at,
    }));
  }

  packBy(column: 'name' | 'source', value: string): PackRow | undefined {
    const sql =
      column === 'name' ? 'SELECT * FROM packs WHERE name = ?' : 'SELECT * FROM packs WHERE source = ?';
    return this.sql<[string], PackRow>(sql).get(value);
  }

  /** User packs follow the builtin pack (0) in the order they were first added. */
  nextPosition(): number {
    const row = this.sql<[], { p: number | null }>('SELECT max(position) AS p FROM packs').get();
    return Math.max(row?.p ?? 0, 0) + 1;
  }

  createPack(p: Omit<PackRow, 'id'>): number {
    return Number(
      this.sql(
        'INSERT INTO packs (name, format, source, position, fingerprint, indexed_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(p.name, p.format, p.source, p.position, p.fingerprint, p.indexed_at).lastInsertRowid,
    );
  }

  setPackSource(id: number, source: string): void {
    this.sql('UPDATE packs SET source = ? WHERE id = ?').run(source, id);
  }

  markIndexed(id: number, fingerprint: string, at: string): void {
    this.sql('UPDATE packs SET fingerprint = ?, indexed_at = ? WHERE id = ?').run(fingerprint, at, id);
  }

  deletePack(id: number): void {
    this.sql('DELETE FROM packs WHERE id = ?').run(id);
    this.pruneContents();
  }

  filesOf(packId: number): { id: number; path: string; hash: string }[] {
    return this.sql<[number], { id: number; path: string; hash: string }>(
      'SELECT id, path, hash FROM rules WHERE pack_id = ?',
    ).all(packId);
  }

  putContent(hash: string, text: string): void {
    this.sql('INSERT OR IGNORE INTO contents (hash, text) VALUES (?, ?)').run(hash, text);
  }

  insertRule(packId: number, f: RuleFields): void {
    const id = this.sql(
      `INSERT INTO rules (pack_id, kind, name, path, hash, title, description, author, tags, level, status, rule_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(packId, ...ruleValues(f)).lastInsertRowid;
    this.setNames(Number(id), f.names);
  }

  updateRule(id: number, f: RuleFields): void {
    this.sql(
      `UPDATE rules SET kind = ?, name = ?, path = ?, hash = ?, title = ?, description = ?, author = ?, tags = ?,
           level = ?, status = ?, rule_id = ? WHERE id = ?`,
    ).run(...ruleValues(f), id);
    this.setNames(id, f.names);
  }

  private setNames(id: number, names: readonly string[]): void {
    this.sql('DELETE FROM rule_names WHERE rule_id = ?').run(id);
    const insert = this.sql('INSERT OR IGNORE INTO rule_names (rule_id, name) VALUES (?, ?)');
    for (const n of names) insert.run(id, n);
  }

  /**
   * Names for rules indexed before `rule_names` existed (every indexed file has at least its
   * stem there), from their stored text: one transaction, once per older index.
   */
  backfillNames(namesOf: (row: { kind: RuleKind; name: string; text: string }) => readonly string[]): void {
    const rows = this.sql<[], { id: number; kind: RuleKind; name: string; text: string }>(
      `SELECT r.id, r.kind, r.name, c.text FROM rules r JOIN contents c ON c.hash = r.hash
         WHERE NOT EXISTS (SELECT 1 FROM rule_names n WHERE n.rule_id = r.id)`,
    ).all();
    if (rows.length === 0) return;
    this.db.transaction(() => {
      for (const r of rows) this.setNames(r.id, namesOf(r));
    })();
  }

  deleteRule(id: number): void {
    this.sql('DELETE FROM rules WHERE id = ?').run(id);
  }

  /** Contents no rule refers to any more. */
  pruneContents(): void {
    this.sql('DELETE FROM contents WHERE hash NOT IN (SELECT hash FROM rules)').run();
  }

  /** Drops the pack's diagnostics except those of the given paths. */
  clearDiagnosticsExcept(packId: number, keep: readonly string[]): void {
    this.sql(`DELETE FROM diagnostics WHERE pack_id = ? AND NOT ${IN_JSON('path')}`).run(
      packId,
      JSON.stringify(keep),
    );
  }

  addDiagnostic(packId: number, path: string, code: PackDiagnosticCode, message: string): void {
    this.sql('INSERT INTO diagnostics (pack_id, path, code, message) VALUES (?, ?, ?, ?)').run(
      packId,
      path,
      code,
      message,
    );
  }

  /** Stored diagnostics, then YARA files the given checker rejected, in pack order. */
  diagnostics(checkerId: string | undefined): PackDiagnostic[] {
    const stored = this.sql<[], { pack: string; path: string; code: PackDiagnosticCode; message: string }>(
      `SELECT p.name AS pack, d.path, d.code, d.message FROM diagnostics d JOIN packs p ON p.id = d.pack_id
         ORDER BY p.position, d.path, d.id`,
    ).all();
    const rejected =
      checkerId === undefined
        ? []
        : this.sql<[string], { pack: string; path: string; message: string }>(
            `SELECT p.name AS pack, r.path, c.yara_error AS message FROM rules r
               JOIN packs p ON p.id = r.pack_id JOIN contents c ON c.hash = r.hash
               WHERE r.kind = 'yara' AND c.yara_checker = ? AND c.yara_error IS NOT NULL
               ORDER BY p.position, r.path`,
          ).all(checkerId);
    return [
      ...stored.map((d) => ({
        pack: d.pack,
        ...(d.path === '' ? {} : { path: d.path }),
        code: d.code,
        message: d.message,
      })),
      ...rejected.map((d) => ({
        pack: d.pack,
        path: d.path,
        code: 'yara.compile' as const,
        message: d.message,
      })),
    ];
  }

  /**
   * Rules of one kind with their text, in precedence order: pack position, then path; with a
   * names filter, files whose stem is the name come before files that only declare it.
   * Without `withText`, each row's text is '' (the rule cache needs only the hashes).
   */
  rulesWithText(
    kind: RuleKind,
    filter: { packs?: readonly string[]; names?: readonly string[] },
    withText = true,
  ): RuleTextRow[] {
    const where = ['r.kind = ?'];
    const params: string[] = [kind];
    if (filter.packs !== undefined) {
      where.push(IN_JSON('p.name'));
      params.push(JSON.stringify(filter.packs));
    }
    let names = 'NULL AS matched';
    // With names, the lookup starts from rule_names' name index (CROSS JOIN fixes that order).
    if (filter.names !== undefined) {
      names = 'n.name AS matched';
      where.push(IN_JSON('n.name'));
      params.push(JSON.stringify(filter.names));
    }
    return this.sql<string[], RuleTextRow>(
      `SELECT ${RULE_COLUMNS}, ${names}, ${withText ? 'c.text, c.yara_checker, c.yara_error' : "'' AS text, NULL AS yara_checker, NULL AS yara_error"}
         FROM ${filter.names === undefined ? 'rules r' : 'rule_names n CROSS JOIN rules r ON r.id = n.rule_id'}
         JOIN packs p ON p.id = r.pack_id${withText ? ' JOIN contents c ON c.hash = r.hash' : ''}
         WHERE ${where.join(' AND ')}
         ORDER BY ${filter.names === undefined ? '' : 'n.name <> r.name, '}p.position, r.path, matched`,
    ).all(...params);
  }

  summaries(filter: { kind?: RuleKind; pack?: string }): RuleSummary[] {
    const rows = this.sql<[{ kind: string | null; pack: string | null }], RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules r JOIN packs p ON p.id = r.pack_id
         WHERE (@kind IS NULL OR r.kind = @kind) AND (@pack IS NULL OR p.name = @pack)
         ORDER BY r.kind, r.name, p.position, r.path`,
    ).all({ kind: filter.kind ?? null, pack: filter.pack ?? null });
    return rows.map(summaryOf);
  }

  /** Records the checker's verdict on one content (null error: it compiles). */
  setYaraVerdict(hash: string, checkerId: string, error: string | null): void {
    this.sql('UPDATE contents SET yara_checker = ?, yara_error = ? WHERE hash = ?').run(
      checkerId,
      error,
      hash,
    );
  }
}
