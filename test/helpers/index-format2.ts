/**
 * An event index of format 2, as builds before format 3 left it: the same tables, with the
 * trigram blocks in contentless FTS5 tables (`events_text_<k>`, the layout of src/search at that
 * time) instead of `events_grams`. Made from a current index (copied, then converted in place):
 * each block's rows' folded text, as the build fed FTS5. Tests open it with today's EventIndex.
 */
import { copyFileSync } from 'node:fs';
import { openSqlite } from '../../native/sqlite.js';
import { storedText } from '../../src/search/text-match.js';

export function writeFormat2Index(current: string, path: string): void {
  copyFileSync(current, path);
  const db = openSqlite(path);
  try {
    const meta = (key: string) => Number(db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key));
    const blocks = meta('text_blocks');
    const blockRows = meta('text_block_rows');
    const titles = new Map(db.prepare('SELECT no, title FROM rules').raw().all() as [number, string][]);
    const rows = db.prepare(
      'SELECT n, event_id, record_id, time, provider, computer, message, data, channel, user_sid, sigma FROM events WHERE n BETWEEN ? AND ? ORDER BY n',
    );
    db.transaction(() => {
      for (let k = 0; k < blocks; k++) {
        const t = `events_text_${k}`;
        db.exec(
          `CREATE VIRTUAL TABLE ${t} USING fts5(body, content='', tokenize='trigram', detail='none', columnsize=0)`,
        );
        const insert = db.prepare(`INSERT INTO ${t}(rowid, body) VALUES (?, ?)`);
        for (const [n, ...columns] of rows.raw().all(k * blockRows + 1, (k + 1) * blockRows) as unknown[][])
          insert.run(n, storedText(titles, ...columns));
        db.exec(`INSERT INTO ${t}(${t}) VALUES ('optimize')`);
      }
      db.exec('DROP TABLE events_grams');
      db.prepare("UPDATE meta SET value = '2' WHERE key = 'format'").run();
    })();
  } finally {
    db.close();
  }
}
