/**
 * Where the CLI's human text goes. Everything a person reads on stdout or stderr (messages,
 * warnings, diagnostics, summaries, tables) is written through here and so through the one
 * sanitiser (src/display): event data, file names and rule text are attacker-written, and a
 * raw ESC, BEL or bidi override would drive or deceive the analyst's terminal. A message is
 * one line: a newline inside it is shown as `\n`, so input cannot forge a line of its own.
 * Machine formats (JSON, CSV, EVTX renderings) keep their own escaping and are written by
 * `Output`. test/architecture.test.ts checks that no other CLI file writes to the two streams.
 */
import { displayBlock, displayJson, displayLine } from '../display/index.js';

/** One message line on stderr. */
export function errLine(text: string): void {
  process.stderr.write(`${displayLine(text)}\n`);
}

/** Several lines on stderr (a report, a stack, commander's usage text), newlines kept. */
export function printErr(text: string): void {
  process.stderr.write(displayBlock(text));
}

/** One line on stdout meant for a person. */
export function outLine(text: string): void {
  process.stdout.write(`${displayLine(text)}\n`);
}

/** A small JSON document on stdout, indented, its C1 and bidi characters as `\u` escapes. */
export function outJson(value: unknown): void {
  process.stdout.write(`${displayJson(JSON.stringify(value, null, 2))}\n`);
}

/**
 * The terminal's own control bytes (a progress line's `\r` and erase), never data: callers
 * pass constants, and text they made safe with `displayLine`.
 */
export function controlErr(sequence: string): void {
  process.stderr.write(sequence);
}
