/** What a pack holds before indexing: its candidate rule files (with bytes) and the files it could not take. */
import { createHash } from 'node:crypto';
import type { PackDiagnosticCode, RuleKind } from './types.js';

export interface CandidateFile {
  /** Path inside the pack, `/`-separated. */
  readonly path: string;
  readonly kind: RuleKind;
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface ScanProblem {
  readonly path: string;
  readonly code: PackDiagnosticCode;
  readonly message: string;
}

export interface PackScan {
  readonly files: CandidateFile[];
  readonly problems: ScanProblem[];
}

export const sha256 = (bytes: Uint8Array | string): string =>
  createHash('sha256').update(bytes).digest('hex');

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Sorted by path so that a pack's fingerprint and its variants' order do not depend on the walk. */
export function sortScan(scan: PackScan): PackScan {
  return { files: [...scan.files].sort(byPath), problems: [...scan.problems].sort(byPath) };
}

/** Hashes each file once; the fingerprint covers files and problems, so any change shows. */
export function fingerprintOf(scan: PackScan): { fingerprint: string; hashes: Map<string, string> } {
  const hashes = new Map<string, string>();
  const whole = createHash('sha256');
  for (const f of scan.files) {
    const h = sha256(f.bytes);
    hashes.set(f.path, h);
    whole.update(`f\0${f.path}\0${h}\n`);
  }
  for (const p of scan.problems) whole.update(`p\0${p.path}\0${p.code}\0${p.message}\n`);
  return { fingerprint: whole.digest('hex'), hashes };
}
