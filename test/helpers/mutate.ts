/** Seeded mutations of EVTX bytes, shared by the robustness test and the fuzz script. */

import { prng } from '../../fixtures/prng.js';

export const rng = prng;

export type MutationKind = 'flip' | 'truncate' | 'zero-run' | 'random-run' | 'splice-chunk' | 'byte-set';
export const MUTATIONS: readonly MutationKind[] = [
  'flip',
  'truncate',
  'zero-run',
  'random-run',
  'splice-chunk',
  'byte-set',
];

const INTERESTING = [
  0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x0c, 0x0d, 0x0e, 0x0f, 0x21, 0x41, 0x81, 0x7f, 0x80, 0xff,
];

export function mutate(input: Uint8Array, kind: MutationKind, seed: number): Uint8Array {
  const r = rng(seed);
  const at = (n: number) => Math.floor(r() * n);
  const b = Uint8Array.from(input);
  // Most mutations land past the file header, where the interesting structure is.
  const body = () => (b.length > 4096 ? 4096 + at(b.length - 4096) : at(Math.max(1, b.length)));
  switch (kind) {
    case 'flip':
      for (let i = 0, n = 1 + at(16); i < n && b.length > 0; i++) b[body()]! ^= 1 << at(8);
      return b;
    case 'truncate':
      return b.subarray(0, at(b.length + 1));
    case 'zero-run': {
      const s = body();
      b.fill(0, s, Math.min(b.length, s + 1 + at(512)));
      return b;
    }
    case 'random-run': {
      const s = body();
      for (let i = s; i < Math.min(b.length, s + 1 + at(256)); i++) b[i] = at(256);
      return b;
    }
    case 'splice-chunk': {
      // Copy one 64 KiB-aligned region over another: valid-looking chunks in the wrong place.
      const chunks = Math.floor((b.length - 4096) / 65536);
      if (chunks < 2) return b;
      const from = 4096 + at(chunks) * 65536 + at(65536);
      const to = 4096 + at(chunks) * 65536 + at(65536);
      const n = Math.min(1 + at(4096), b.length - from, b.length - to);
      b.copyWithin(to, from, from + n);
      return b;
    }
    case 'byte-set':
      for (let i = 0, n = 1 + at(8); i < n && b.length > 0; i++)
        b[body()] = INTERESTING[at(INTERESTING.length)]!;
      return b;
    default:
      return kind satisfies never;
  }
}
