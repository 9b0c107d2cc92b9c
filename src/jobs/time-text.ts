/** The interface's date text: `YYYY-MM-DD HH:MM:SS UTC` (UTC, whole seconds). */
export function utcText(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
