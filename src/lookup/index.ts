/**
 * Offline reference lookups (`POST /analysis/lookup`): Windows event ids and Windows file
 * names, from data shipped with the package, extendable with a user's own exports.
 */
export {
  COLUMNS,
  EVENT_ID_COLUMNS,
  FIELD_ALIASES,
  FILE_NAME_COLUMNS,
  LOOKUP_MODULES,
  type LookupModule,
} from './columns.js';
export {
  builtinLookupDataset,
  type CreateLookupDatasetOptions,
  createLookupDataset,
  LookupDataset,
  type LookupRow,
} from './dataset.js';
export { type EventDescriber, eventDescriber, eventDescriptions, isBuiltinDescriber } from './describe.js';
export { FILTER_OPERATORS, type FilterOperator } from './filters.js';
export type { ImportDiagnostic, ImportResult } from './import/common.js';
export { IMPORT_LIMITS } from './import/common.js';
export { importProviderXml, type ProviderXmlImportOptions } from './import/provider-xml.js';
export { importLookupCsv, importLookupJson, type TableImportOptions } from './import/table-import.js';
export { importVersionInfo, type VersionInfoImportOptions } from './import/version-info.js';
export { type LookupOptions, lookup, lookupSync } from './lookup.js';
export {
  LIMITS as LOOKUP_LIMITS,
  type LookupFilter,
  type LookupRequest,
  type LookupResult,
} from './types.js';
export { UNKNOWN_MODULE_MESSAGE, VALIDATION_FAILED_MESSAGE } from './validate.js';
