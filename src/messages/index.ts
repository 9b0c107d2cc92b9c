/**
 * Windows messages without Windows, and an event's row in the search results' Event Table
 * (pure). Apart from the analysis so that a decode worker making index rows loads only this.
 */
export { type Descriptions, describerOf, descriptionKey } from './descriptions.js';
export { indexTableRow } from './index-row.js';
export { type DescribeEvent, renderMessage, resolveParameters, summarizeFields } from './message.js';
export { clip, formatTime, isBlank, oneLine } from './text.js';
