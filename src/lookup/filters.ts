/** The six filter operators as pure predicates over lower-cased cell text and value. */
export const FILTER_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'does_not_contain',
  'starts_with',
  'ends_with',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const OPERATOR_TESTS: Readonly<Record<FilterOperator, (cell: string, value: string) => boolean>> = {
  equals: (c, v) => c === v,
  not_equals: (c, v) => c !== v,
  contains: (c, v) => c.includes(v),
  does_not_contain: (c, v) => !c.includes(v),
  starts_with: (c, v) => c.startsWith(v),
  ends_with: (c, v) => c.endsWith(v),
};

export const isFilterOperator = (v: unknown): v is FilterOperator =>
  typeof v === 'string' && (FILTER_OPERATORS as readonly string[]).includes(v);
