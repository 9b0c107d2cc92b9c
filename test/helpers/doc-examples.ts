/**
 * The `@example` blocks of doc comments in declaration files (what an editor shows a consumer),
 * as programs: the comment's `*` margins taken off, up to the next tag or the comment's end.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface DocExample {
  /** The declaration file, relative to the folder searched. */
  readonly file: string;
  readonly code: string;
}

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return declarationFiles(p);
    return e.name.endsWith('.d.ts') ? [p] : [];
  });
}

export function docExamples(dir: string): DocExample[] {
  const out: DocExample[] = [];
  for (const path of declarationFiles(dir).sort()) {
    for (const [comment] of readFileSync(path, 'utf8').matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      const lines = comment.split('\n').map((l) => l.replace(/^\s*\*(?: |$)/, '').replace(/\s*\*\/$/, ''));
      for (let i = lines.findIndex((l) => l.startsWith('@example')); i !== -1; ) {
        const end = lines.findIndex((l, j) => j > i && (l.startsWith('@') || /^\s*\*\/\s*$/.test(l)));
        const body = lines.slice(i + 1, end === -1 ? undefined : end);
        out.push({ file: relative(dir, path), code: `${body.join('\n').trim()}\n` });
        i = end !== -1 && lines[end]!.startsWith('@example') ? end : -1;
      }
    }
  }
  return out;
}
