/**
 * One event as the event index stores it, and back (pure): the row, its searchable text, and
 * rows packed where they are made (a decode worker) to be staged elsewhere without the event.
 */
export { type PackedRows, packedEvent, RowPacker, type RowRef, stagedValues } from './pack.js';
export {
  FOLDS_TO_ASCII,
  type IndexRow,
  indexRow,
  restoreEvent,
  type StoredEvent,
} from './row.js';
export { fold, joinSearchable, SEPARATOR, searchableText } from './text.js';
