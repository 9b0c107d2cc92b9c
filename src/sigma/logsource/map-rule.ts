/**
 * `mapRule`: a rule's logsource to its variants (§3.4), or the reason it has none. Unknown
 * categories and services are reported, never guessed; a category or service the table knows
 * maps with or without `product: windows`.
 */
import { type RuleDiagnostic, RuleError } from '../diagnostics.js';
import type { LogSource, SigmaFilter, SigmaRule } from '../model.js';
import type { PlaceholderValues } from '../modifiers/index.js';
import { filterApplies, mergeFilters } from './filters.js';
import type { EventSelector } from './selector.js';
import {
  CATEGORIES,
  CATEGORY_ALIASES,
  NOT_EVENT_LOG_CATEGORIES,
  NOT_EVENT_LOG_SERVICES,
  SERVICE_ALIASES,
  SERVICES,
  type SourceRow,
  UNSUPPORTED_CATEGORIES,
} from './table.js';
import { buildVariant, type DroppedVariant, type RuleVariant, type VariantSource } from './variant.js';

export interface MappingOptions {
  /** Values for `|expand` placeholders (the same the rules were loaded with). */
  readonly placeholders?: PlaceholderValues;
  /** Derive a Security 4688 variant for process_creation rules (default true). */
  readonly security4688?: boolean;
  /** Also match `ForwardedEvents` by provider where §3.4 names one (default true). */
  readonly forwardedEvents?: boolean;
  /** Filters to consider; those naming the rule and covering its logsource are merged in. */
  readonly filters?: readonly SigmaFilter[];
}

export type RuleMapping =
  | {
      readonly ok: true;
      readonly variants: readonly RuleVariant[];
      readonly dropped: readonly DroppedVariant[];
      readonly filters: readonly SigmaFilter[];
    }
  | { readonly ok: false; readonly diagnostic: RuleDiagnostic; readonly dropped: readonly DroppedVariant[] };

type Resolution =
  | { readonly ok: true; readonly sources: readonly VariantSource[] }
  | { readonly ok: false; readonly code: RuleDiagnostic['code']; readonly message: string };

const lookup = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

function toSource(row: SourceRow, forwarded: boolean): VariantSource {
  const selector: EventSelector = {
    channels: row.channels,
    eventIds: row.eventIds ?? 'any',
    where: row.where ?? {},
    providers: forwarded ? (row.providers ?? []) : [],
  };
  return { name: row.variant, service: row.service, selector, fields: row.fields };
}

const ALL_WINDOWS: VariantSource = {
  name: 'windows',
  service: undefined,
  selector: { channels: 'any', eventIds: 'any', where: {}, providers: [] },
  fields: undefined,
};

const channelsOf = (row: SourceRow): Set<string> => new Set(row.channels.map((c) => c.name.toLowerCase()));

function resolve(ls: LogSource, options: MappingOptions): Resolution {
  const product = ls.product?.toLowerCase();
  const category = ls.category?.toLowerCase();
  const service = ls.service?.toLowerCase();
  const notApplicable = (what: string): Resolution => ({
    ok: false,
    code: 'logsource.not_applicable',
    message: `${what} is not a Windows event log`,
  });
  if (product !== undefined && product !== 'windows') return notApplicable(`product '${ls.product}'`);
  if (category !== undefined && NOT_EVENT_LOG_CATEGORIES.has(category))
    return notApplicable(`category '${ls.category}'`);
  if (service !== undefined && NOT_EVENT_LOG_SERVICES.has(service))
    return notApplicable(`service '${ls.service}'`);

  const serviceRow =
    service === undefined ? undefined : lookup(SERVICES, lookup(SERVICE_ALIASES, service) ?? service);
  if (service !== undefined && serviceRow === undefined)
    return { ok: false, code: 'logsource.unknown', message: `unknown Windows service '${ls.service}'` };
  const forwarded = options.forwardedEvents !== false;

  if (category !== undefined) {
    const name = lookup(CATEGORY_ALIASES, category) ?? category;
    const unsupported = lookup(UNSUPPORTED_CATEGORIES, name);
    if (unsupported !== undefined)
      return {
        ok: false,
        code: 'logsource.unsupported',
        message: `category '${ls.category}': ${unsupported}`,
      };
    let rows = lookup(CATEGORIES, name);
    if (rows === undefined)
      return { ok: false, code: 'logsource.unknown', message: `unknown Windows category '${ls.category}'` };
    rows = rows.filter((r) => r.option === undefined || options[r.option] !== false);
    if (serviceRow !== undefined) {
      // Both given: the logsource fields AND, so keep the category's rows in that service's channels.
      const wanted = channelsOf(serviceRow);
      rows = rows.filter((r) => [...channelsOf(r)].some((c) => wanted.has(c)));
    }
    if (rows.length === 0)
      return {
        ok: false,
        code: 'logsource.unsupported',
        message: `category '${ls.category}' has no event log source${service === undefined ? ' with these options' : ` in service '${ls.service}'`}`,
      };
    return { ok: true, sources: rows.map((r) => toSource(r, forwarded)) };
  }
  if (serviceRow !== undefined) return { ok: true, sources: [toSource(serviceRow, forwarded)] };
  if (product === 'windows') return { ok: true, sources: [ALL_WINDOWS] };
  return {
    ok: false,
    code: 'logsource.unknown',
    message: 'the logsource names no product, category or service',
  };
}

/**
 * Resolutions by logsource and options: a rule set's thousands of rules share a few dozen
 * logsources, and the sources (with their selectors, which are read-only) can be shared too.
 */
const resolutions = new Map<string, Resolution>();
const MAX_RESOLUTIONS = 1_000;

function resolveShared(ls: LogSource, options: MappingOptions): Resolution {
  const key = JSON.stringify([
    ls.product,
    ls.category,
    ls.service,
    options.security4688,
    options.forwardedEvents,
  ]);
  let r = resolutions.get(key);
  if (r === undefined) {
    r = resolve(ls, options);
    if (resolutions.size >= MAX_RESOLUTIONS) resolutions.clear();
    resolutions.set(key, r);
  }
  return r;
}

function diagnostic(rule: SigmaRule, code: RuleDiagnostic['code'], message: string): RuleDiagnostic {
  return {
    source: rule.source,
    document: rule.document,
    ...(rule.id === undefined ? {} : { ruleId: rule.id }),
    title: rule.title,
    code,
    message,
  };
}

/** Whether the table maps this logsource to any Windows event (`mapRule` may still drop it). */
export const mapsLogSource = (ls: LogSource, options: MappingOptions = {}): boolean =>
  resolveShared(ls, options).ok;

export function mapRule(rule: SigmaRule, options: MappingOptions = {}): RuleMapping {
  const resolved = resolveShared(rule.logsource, options);
  if (!resolved.ok)
    return { ok: false, diagnostic: diagnostic(rule, resolved.code, resolved.message), dropped: [] };
  const filters = (options.filters ?? []).filter((f) => filterApplies(f, rule));
  const variants: RuleVariant[] = [];
  const dropped: DroppedVariant[] = [];
  try {
    const merged = mergeFilters(rule.detection, filters);
    for (const source of resolved.sources) {
      const built = buildVariant(rule, source, merged, filters, options.placeholders ?? {});
      if ('test' in built) variants.push(built);
      else dropped.push(built);
    }
  } catch (e) {
    const [code, message] = e instanceof RuleError ? [e.code, e.message] : (['internal', String(e)] as const);
    return { ok: false, diagnostic: diagnostic(rule, code, message), dropped };
  }
  if (variants.length === 0) {
    const reasons = dropped.map((d) => d.message).join('; ');
    return { ok: false, diagnostic: diagnostic(rule, 'logsource.fields_unavailable', reasons), dropped };
  }
  return { ok: true, variants, dropped, filters };
}
