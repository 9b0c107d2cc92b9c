/** The Table and Error elements of the Sigma data endpoint's `results`. */
import type { SigmaCorrelation, SigmaRule } from '../model.js';

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

const SIGMA_EXTENSION = /\.ya?ml$/i;

/**
 * A Sigma rule's name from its file's base name: the name without `.yml`/`.yaml`. The rule
 * library indexes files by it (rules/names.ts) and results show it, so each name retrieves.
 */
export function ruleStem(baseName: string): string {
  const ext = SIGMA_EXTENSION.exec(baseName);
  return ext !== null && ext.index > 0 ? baseName.slice(0, ext.index) : baseName;
}

/** The file's base name in a source label: a path, or a library's `<pack>:<path>` (pack names have no `:`). */
function labelBaseName(source: string): string {
  const cut = Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\'));
  return cut >= 0 ? source.slice(cut + 1) : source.slice(source.indexOf(':') + 1);
}

/** The name of the rule file a source label points at (`ruleStem` of its base name). */
export const ruleFileStem = (source: string): string => ruleStem(labelBaseName(source));

/** A community rule is named as it is retrieved: its file stem; a label that is no rule file, its title. */
export function ruleName(rule: SigmaRule | SigmaCorrelation): string {
  const base = labelBaseName(rule.source);
  const stem = ruleStem(base);
  return stem !== base ? stem : rule.title;
}

export function communityTable(rules: readonly (SigmaRule | SigmaCorrelation)[]): SigmaDataResult {
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
