/** The two lookup modules, their columns, and the filter-field names each accepts. */
export const LOOKUP_MODULES = ['event_id', 'file_name'] as const;
export type LookupModule = (typeof LOOKUP_MODULES)[number];

/** The spec's six event-id columns first; further columns follow (channel, category, provenance). */
export const EVENT_ID_COLUMNS = [
  'Event ID',
  'OS Version',
  'Version',
  'Provider',
  'Description Short',
  'Data Fields',
  'Channel',
  'Category',
  'Applies To',
  'Source',
] as const;

export const FILE_NAME_COLUMNS = [
  'File Name',
  'File Path',
  'Description',
  'Product Name',
  'Company Name',
  'Runtime Window Title',
] as const;

export const COLUMNS: Readonly<Record<LookupModule, readonly string[]>> = {
  event_id: EVENT_ID_COLUMNS,
  file_name: FILE_NAME_COLUMNS,
};

/** The spec's example response names the first column `EventID`; filters accept it as an alias. */
export const FIELD_ALIASES: Readonly<Record<LookupModule, Readonly<Record<string, string>>>> = {
  event_id: { EventID: 'Event ID' },
  file_name: {},
};

/** Columns an imported table must provide (the rest default to empty). */
export const REQUIRED_COLUMNS: Readonly<Record<LookupModule, readonly string[]>> = {
  event_id: EVENT_ID_COLUMNS.slice(0, 6),
  file_name: FILE_NAME_COLUMNS.slice(0, 1),
};

export const isLookupModule = (v: unknown): v is LookupModule =>
  typeof v === 'string' && (LOOKUP_MODULES as readonly string[]).includes(v);

/** Column index of a filter field name (or alias), or -1. */
export function columnIndex(module: LookupModule, field: string): number {
  const name = FIELD_ALIASES[module][field] ?? field;
  return COLUMNS[module].indexOf(name);
}
