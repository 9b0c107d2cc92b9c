import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { type CompileOutcome, YaraEngine } from '../src/yara/index.js';
import { CORPUS } from './helpers/corpus.js';

const YARA_DIR = join(CORPUS, 'yara');
const SETS = ['reversinglabs', 'signature-base', 'yara-rules'] as const;
const SKIP = existsSync(YARA_DIR) ? false : `YARA corpus not found at ${YARA_DIR}`;
/** The external variables signature-base's rules read (its README's list for yara/thor). */
const SIGNATURE_BASE_VARIABLES = { filename: '', filepath: '', extension: '', filetype: '', owner: '' };

const engine = new YaraEngine({ threads: 2, cacheEntries: 0 });
after(() => engine.close());

function ruleFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? ruleFiles(join(dir, e.name)) : /\.ya?ra?$/.test(e.name) ? [join(dir, e.name)] : [],
    )
    .sort();
}

describe('YARA corpus', { skip: SKIP }, () => {
  for (const set of SETS) {
    test(`every ${set} rule file compiles or is reported with the compiler's message`, async (t) => {
      const files = ruleFiles(join(YARA_DIR, set));
      assert.ok(files.length > 0);
      const outcomes = await Promise.all(
        files.map((f) =>
          engine
            .compile({ sources: readFileSync(f, 'utf8'), variables: SIGNATURE_BASE_VARIABLES })
            .then((o): [string, CompileOutcome] => [relative(YARA_DIR, f), o]),
        ),
      );
      const failed = outcomes.filter(([, o]) => o.kind === 'failed');
      /** Failed files by the code of their first error. */
      const codes = new Map<string, number>();
      for (const [file, o] of failed) {
        assert.ok(o.kind === 'failed' && o.errors.length > 0, `${file} failed without a report`);
        for (const e of o.kind === 'failed' ? o.errors : []) {
          assert.match(e.code, /^E\d{3}$/, file);
          assert.match(e.text, new RegExp(`^error\\[${e.code}\\]: `), file);
        }
        const first = o.kind === 'failed' ? o.errors[0]!.code : '';
        codes.set(first, (codes.get(first) ?? 0) + 1);
      }
      t.diagnostic(
        `${set}: ${files.length - failed.length} of ${files.length} files compiled` +
          (codes.size
            ? `; failed files by first error: ${[...codes].map(([c, n]) => `${c}×${n}`).join(', ')}`
            : ''),
      );
    });
  }
});
