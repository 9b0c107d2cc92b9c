/**
 * Which variants a compiled rule set made of each rule, remembered per rule object (weakly), so
 * that reading a match's evidence (evidence.ts) reuses the rule set's variants, filters merged,
 * instead of mapping the rule again: about 0.5 ms a rule, 250 ms over SigmaHQ's matched rules.
 */
import type { RuleVariant } from './logsource/index.js';
import type { SigmaRule } from './model.js';

const byRule = new WeakMap<SigmaRule, readonly RuleVariant[]>();

export function rememberVariants(variants: readonly RuleVariant[]): void {
  const grouped = new Map<SigmaRule, RuleVariant[]>();
  for (const v of variants) {
    const list = grouped.get(v.rule);
    if (list === undefined) grouped.set(v.rule, [v]);
    else list.push(v);
  }
  for (const [rule, list] of grouped) byRule.set(rule, list);
}

export const rememberedVariants = (rule: SigmaRule): readonly RuleVariant[] | undefined => byRule.get(rule);
