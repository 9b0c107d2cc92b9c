/** The Table and Error elements of the Sigma data endpoint's `results`. */
import type { SigmaRule } from '../model.js';

export type SigmaDataResult =
  | {
      readonly type: 'Table';
      readonly title: string;
      readonly data: string[][];
      readonly category: 'Sigma';
    }
  | { readonly type: 'Error'; readonly message: string };

export const SIGMA_TABLE_TITLE = 'Sigma Analysis Results';
export const COMMUNITY_COLUMNS = ['Rule', 'Description', 'Author', 'Tags', 'Level'];
export const CUSTOM_COLUMNS = ['Rule'];

/** A community rule is named as it is retrieved: its file stem, else its title. */
export function ruleName(rule: SigmaRule): string {
  const stem = /([^/\\]+?)(\.ya?ml)?$/i.exec(rule.source)?.[1];
  return stem && stem !== 'rule' ? stem : rule.title;
}

export function communityTable(rules: readonly SigmaRule[]): SigmaDataResult {
  const rows = rules.map((r) => [
    ruleName(r),
    r.description ?? '',
    r.author ?? '',
    r.tags.join(', '),
    r.level ?? '',
  ]);
  return { type: 'Table', title: SIGMA_TABLE_TITLE, data: [COMMUNITY_COLUMNS, ...rows], category: 'Sigma' };
}

export function customTable(titles: readonly string[]): SigmaDataResult {
  return {
    type: 'Table',
    title: SIGMA_TABLE_TITLE,
    data: [CUSTOM_COLUMNS, ...titles.map((t) => [t])],
    category: 'Sigma',
  };
}
