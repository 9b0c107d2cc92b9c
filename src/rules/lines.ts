/**
 * Rule text as the service returns it: one string per line. A line ends at `\n` or `\r\n`
 * and the terminator is not part of the line; a final terminator does not start an empty
 * line, so `lines.join('\n')` is the file with LF endings. A UTF-8 byte-order mark is not
 * part of the first line. Files that are not valid UTF-8 are not indexed.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The file's text, or undefined when its bytes are not UTF-8. */
export function decodeRuleText(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function ruleLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}
