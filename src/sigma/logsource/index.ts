/** Windows logsource mapping: the §3.4 table as data, `mapRule` and the derived variants. */
export { conditionText } from './condition-text.js';
export { FIELD_MAPS, type FieldMap, type FieldMapName, type FieldTranslation } from './fields.js';
export { filterApplies, filterCovers, filterNames, mergeFilters } from './filters.js';
export { type MappingOptions, mapRule, mapsLogSource, type RuleMapping } from './map-rule.js';
export type { EventSelector } from './selector.js';
export {
  CATEGORIES,
  CATEGORY_ALIASES,
  type ChannelRef,
  FORWARDED_CHANNEL,
  type ProviderRef,
  SERVICE_ALIASES,
  SERVICES,
  type SourceRow,
  SYSMON_CHANNEL,
  UNSUPPORTED_CATEGORIES,
} from './table.js';
export type { DroppedVariant, RuleVariant } from './variant.js';
