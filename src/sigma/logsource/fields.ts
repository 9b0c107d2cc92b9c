/**
 * Field translations from Sigma's field names (the Sysmon taxonomy) to another source's
 * (sigma-semantics.md §3.2), as data: a rename, a rename with a value conversion, the
 * account split, or "this source never has the field".
 */

export type ValueConversion = 'hex' | 'integrity_sid';

export type FieldTranslation =
  | { readonly kind: 'rename'; readonly to: string }
  /** Renamed, and plain rule values rewritten one by one; values that do not convert stay. */
  | { readonly kind: 'convert'; readonly to: string; readonly conversion: ValueConversion }
  /** `DOMAIN\user` in one field becomes two fields. */
  | { readonly kind: 'account'; readonly user: string; readonly domain: string }
  /** The source's events never carry the field (see `translate.ts` for what that means). */
  | { readonly kind: 'unavailable' };

export type FieldMapName = 'security4688' | 'defender';

export interface FieldMap {
  /** How the source is named in messages. */
  readonly source: string;
  readonly fields: ReadonlyMap<string, FieldTranslation>;
}

/** Well-known mandatory-label SIDs (4688's MandatoryLabel) for Sysmon's IntegrityLevel names. */
const INTEGRITY_SIDS: Readonly<Record<string, string>> = {
  untrusted: 'S-1-16-0',
  low: 'S-1-16-4096',
  medium: 'S-1-16-8192',
  'medium plus': 'S-1-16-8448',
  high: 'S-1-16-12288',
  system: 'S-1-16-16384',
};

/** Text in, converted text out, or `undefined` to keep the value as written. */
export const VALUE_CONVERSIONS: Readonly<Record<ValueConversion, (text: string) => string | undefined>> = {
  // Sysmon writes process ids in decimal, 4688 in hex (`0x1a4`).
  hex: (text) => {
    if (!/^\d{1,15}$/.test(text)) return undefined;
    return `0x${Number(text).toString(16)}`;
  },
  integrity_sid: (text) =>
    Object.hasOwn(INTEGRITY_SIDS, text.toLowerCase()) ? INTEGRITY_SIDS[text.toLowerCase()] : undefined,
};

/**
 * Sysmon EID 1 fields Security 4688 has no counterpart for (§3.2), plus the taxonomy's hash
 * sub-fields. A field missing from both lists keeps its name and plain "absent" semantics.
 */
const SYSMON_ONLY_PROCESS_FIELDS = [
  'OriginalFileName',
  'Description',
  'Product',
  'Company',
  'FileVersion',
  'Hashes',
  'md5',
  'sha1',
  'sha256',
  'Imphash',
  'CurrentDirectory',
  'ParentCommandLine',
  'ProcessGuid',
  'ParentProcessGuid',
  'LogonGuid',
  'TerminalSessionId',
  'ParentUser',
  'RuleName',
  'UtcTime',
] as const;

const SECURITY_4688: ReadonlyMap<string, FieldTranslation> = new Map<string, FieldTranslation>([
  ['Image', { kind: 'rename', to: 'NewProcessName' }],
  ['ParentImage', { kind: 'rename', to: 'ParentProcessName' }],
  ['LogonId', { kind: 'rename', to: 'SubjectLogonId' }],
  ['ProcessId', { kind: 'convert', to: 'NewProcessId', conversion: 'hex' }],
  ['ParentProcessId', { kind: 'convert', to: 'ProcessId', conversion: 'hex' }],
  ['IntegrityLevel', { kind: 'convert', to: 'MandatoryLabel', conversion: 'integrity_sid' }],
  ['User', { kind: 'account', user: 'SubjectUserName', domain: 'SubjectDomainName' }],
  ...SYSMON_ONLY_PROCESS_FIELDS.map((f): [string, FieldTranslation] => [f, { kind: 'unavailable' }]),
]);

const DEFENDER: ReadonlyMap<string, FieldTranslation> = new Map<string, FieldTranslation>([
  ['Signature', { kind: 'rename', to: 'ThreatName' }],
  ['Filename', { kind: 'rename', to: 'Path' }],
]);

export const FIELD_MAPS: Readonly<Record<FieldMapName, FieldMap>> = {
  security4688: { source: 'Security 4688', fields: SECURITY_4688 },
  defender: { source: 'Windows Defender', fields: DEFENDER },
};
