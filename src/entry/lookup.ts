/**
 * `threat-analysis-engine/lookup`: Windows event ids and file names from bundled data, the
 * lookup endpoint as `lookup`, and datasets extended with a user's own exports.
 *
 * @module threat-analysis-engine/lookup
 */
// First: refuses an unsupported Node.js before any other module is evaluated.
import '../runtime/index.js';

export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export {
  type CreateLookupDatasetOptions,
  createLookupDataset,
  FILTER_OPERATORS,
  type FilterOperator,
  type ImportDiagnostic,
  type ImportResult,
  importLookupCsv,
  importLookupJson,
  importProviderXml,
  importVersionInfo,
  LOOKUP_MODULES,
  LookupDataset,
  type LookupFilter,
  type LookupModule,
  type LookupOptions,
  type LookupRequest,
  type LookupResult,
  type LookupRow,
  lookup,
  type ProviderXmlImportOptions,
  type TableImportOptions,
  type VersionInfoImportOptions,
} from '../lookup/index.js';
