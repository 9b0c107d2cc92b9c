/**
 * One event as the event index stores it, and back (pure): the row, its searchable text, and
 * rows packed where they are made (a decode worker) to be staged elsewhere without the event.
 */
export { NUMS, type PackedRows, RowPacker, type RowRef, STRIDE, TEXTS } from './pack.js';
export { EXTRA_EXACT, type Exact, FOLDS_TO_ASCII, type IndexRow, indexRow, UNNAMED } from './row.js';
export { fold, joinSearchable, SEPARATOR } from './text.js';
