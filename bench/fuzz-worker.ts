/** Fuzz worker (run by piscina): decodes one mutant; a crash comes back as its stack. */
import { readFileSync } from 'node:fs';
import { isTaeError, parseEvtx } from '../src/index.js';
import { type MutationKind, mutate } from '../test/helpers/mutate.js';

export interface FuzzJob {
  readonly file: string;
  readonly kind: MutationKind;
  readonly seed: number;
}

export type FuzzOutcome =
  | { kind: 'ok'; records: number }
  | { kind: 'coded-error' }
  | { kind: 'crash'; stack: string };

const files = new Map<string, Uint8Array>();

export default async function fuzzOne(job: FuzzJob): Promise<FuzzOutcome> {
  let bytes = files.get(job.file);
  if (bytes === undefined) {
    bytes = readFileSync(job.file);
    files.set(job.file, bytes);
  }
  try {
    const parse = parseEvtx(mutate(bytes, job.kind, job.seed), { outputs: ['event', 'json', 'xml'] });
    let records = 0;
    for await (const _ of parse) records++;
    return { kind: 'ok', records };
  } catch (e) {
    if (isTaeError(e)) return { kind: 'coded-error' };
    return { kind: 'crash', stack: (e as Error).stack ?? String(e) };
  }
}
