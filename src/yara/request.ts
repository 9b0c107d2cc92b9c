/**
 * The data endpoint's request, validated at the door with the spec's statuses and plain-text
 * bodies: 400 `Invalid test data format`, 422 `Rule is required`. Base64 is checked strictly
 * (Buffer's decoder silently skips foreign characters).
 */
import { base64ByteLength, cleanBase64, decodeRuleText } from '../base64/index.js';
import { TaeError } from '../errors/index.js';

export type YaraOperation = 'run_rule' | 'run_community_rules';

export interface YaraDataRequest {
  /** Base64 of the data to scan. */
  readonly test_data: string;
  readonly operation: YaraOperation;
  /** Base64 of a YARA-X rule; required for `run_rule`. */
  readonly rule?: string;
}

export type ResolvedDataRequest =
  | { readonly operation: 'run_rule'; readonly testData: string; readonly rule: string }
  | { readonly operation: 'run_community_rules'; readonly testData: string };

/** Decodes straight into shared memory, so the scan worker reads it without a copy. */
export function decodeBase64Shared(clean: string): Uint8Array {
  const out = Buffer.from(new SharedArrayBuffer(base64ByteLength(clean)));
  const written = out.write(clean, 'base64');
  return out.subarray(0, written);
}

const testDataError = () =>
  new TaeError('INVALID_ARGUMENT', 'Invalid test data format', { status: 400, bodyFormat: 'text' });

export const ruleRequiredError = (): TaeError =>
  new TaeError('VALIDATION_FAILED', 'Rule is required', { status: 422, bodyFormat: 'text' });

export function resolveDataRequest(request: unknown): ResolvedDataRequest {
  if (request === null || typeof request !== 'object') throw testDataError();
  const r = request as Partial<Record<keyof YaraDataRequest, unknown>>;
  const testData = cleanBase64(r.test_data);
  if (testData === null || testData === '') throw testDataError();
  switch (r.operation) {
    case 'run_community_rules':
      return { operation: 'run_community_rules', testData };
    case 'run_rule': {
      const rule = decodeRuleText(r.rule);
      if (rule === null) throw ruleRequiredError();
      return { operation: 'run_rule', testData, rule };
    }
    default:
      // The same text as the Sigma data endpoint; the context names the accepted values.
      throw new TaeError('INVALID_ARGUMENT', 'Invalid operation', {
        status: 400,
        bodyFormat: 'text',
        context: { expected: 'run_rule or run_community_rules' },
      });
  }
}
