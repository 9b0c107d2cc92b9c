/**
 * The HTML report: one self-contained file (inline style, script and SVG; no network) built
 * from a parse job's insights and Sigma rule details. Imports only errors and analysis.
 */
export { buildReport } from './build.js';
export { sanitizeSvg } from './graph.js';
export { esc as escapeHtml } from './html.js';
export type { ReportInput, ReportMatch, ReportRule } from './types.js';
