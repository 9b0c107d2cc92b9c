/**
 * Locating the shared folder (`../shared` beside the repository, or TAE_SHARED) and its corpus
 * (`<shared>/corpus`, or TAE_CORPUS).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const SHARED = resolve(
  process.env.TAE_SHARED ?? join(import.meta.dirname, '..', '..', '..', 'shared'),
);
export const CORPUS = resolve(process.env.TAE_CORPUS ?? join(SHARED, 'corpus'));
/** The service interface every endpoint follows. */
export const SPEC_FILE = join(SHARED, 'spec', 'service-interface.md');
export const EVTX_DIR = join(CORPUS, 'evtx');
export const hasCorpus = existsSync(join(EVTX_DIR, 'expected-evtx-dump', 'INDEX.tsv'));
export const SKIP_NO_CORPUS = hasCorpus ? false : `corpus not found at ${CORPUS}`;

export interface CorpusFile {
  readonly rel: string;
  readonly path: string;
  readonly records: number;
  readonly recordErrors: number;
}

export function corpusIndex(): CorpusFile[] {
  const lines = readFileSync(join(EVTX_DIR, 'expected-evtx-dump', 'INDEX.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  return lines.map((l) => {
    const [rel, records, errors] = l.split('\t') as [string, string, string];
    return { rel, path: join(EVTX_DIR, rel), records: Number(records), recordErrors: Number(errors) };
  });
}

/** evtx_dump's JSONL output for a corpus file, one string per record. */
export function expectedJsonl(rel: string): string[] {
  const gz = readFileSync(join(EVTX_DIR, 'expected-evtx-dump', `${rel}.jsonl.gz`));
  return gunzipSync(gz).toString('utf8').split('\n').filter(Boolean);
}

/** Every .evtx file of the corpus (not the oracle outputs or the bench file), sorted; `maxBytes` filters large ones. */
export function corpusEvtxFiles(maxBytes = Number.POSITIVE_INFINITY): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (f === 'expected-evtx-dump' || f === 'bench') continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.evtx') && statSync(p).size <= maxBytes) files.push(p);
    }
  };
  if (hasCorpus) walk(EVTX_DIR);
  return files.sort();
}
