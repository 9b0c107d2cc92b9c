/** Importance ranks, and the Sigma level/status → importance rule (docs/sigma-semantics.md §6). */
import { IMPORTANCE, type Importance } from '../insights/index.js';

export const importanceRank = (i: Importance): number => IMPORTANCE.indexOf(i);

export const maxImportance = (a: Importance, b: Importance): Importance =>
  importanceRank(a) >= importanceRank(b) ? a : b;

const BY_LEVEL: Readonly<Record<string, Importance>> = {
  informational: 'Informational',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};

/** Statuses whose rules "may be noisy" or are not meant to run as is: they cannot confirm a threat. */
const UNCONFIRMED_STATUS = new Set(['experimental', 'deprecated', 'unsupported']);

/**
 * Sigma `level` → importance, one to one; a missing or unknown level is Informational (as
 * Chainsaw does). Critical means "confirmed", so a critical rule whose status is experimental,
 * deprecated or unsupported is capped at High.
 */
export function importanceOfSigma(level: string | null | undefined, status?: string | null): Importance {
  const i = BY_LEVEL[String(level ?? '').toLowerCase()] ?? 'Informational';
  if (i === 'Critical' && UNCONFIRMED_STATUS.has(String(status ?? '').toLowerCase())) return 'High';
  return i;
}

/** Sigma levels as analysts write them, in order, for sorting match tables. */
export const sigmaLevelRank = (level: string | null | undefined): number =>
  importanceRank(BY_LEVEL[String(level ?? '').toLowerCase()] ?? 'Informational');
