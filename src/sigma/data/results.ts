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

/**
 * The file stem of a rule's source label, as the rule library names rules: the last path
 * part without `.yml`/`.yaml`, whether the label is a path or a library's `<pack>:<path>`.
 */
export const ruleFileStem = (source: string): string => /([^/\\:]+?)(\.ya?ml)?$/i.exec(source)?.[1] ?? source;

/** A community rule is named as it is retrieved: its file stem, else its title. */
export function ruleName(rule: SigmaRule): string {
  const stem = ruleFileStem(rule.source);
  return stem !== '' && stem !== 'rule' ? stem : rule.title;
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
