/**
 * Nesting bounds on everything the Sigma path reads from a caller. Every walk over rule text
 * or event data recurses at most this deep, so hostile input is refused with a coded error
 * instead of exhausting the stack (a RangeError would surface as a 500 or an `internal`
 * diagnostic). Real rules and events stay far below them: the evtx crate's event JSON is 5
 * levels deep, and no condition of the public Sigma corpus nests more than 2 parentheses.
 */

/** JSON and XML test data (objects, arrays, elements), counted from the top-level value. */
export const MAX_DATA_DEPTH = 100;

/** YAML maps and lists of a rule file (js-yaml's `maxDepth`): bounds every walk of a detection. */
export const MAX_YAML_DEPTH = 100;

/** Parentheses and `not`s of one condition: bounds parsing, binding and evaluation alike. */
export const MAX_CONDITION_DEPTH = 64;

// Correlations that reference correlations are ordered on an explicit stack (correlate/order.ts):
// a chain needs no bound of its own.
