/**
 * The public API report: every name each published entry point exports, with its declared
 * signature, read from the built .d.ts files by the TypeScript compiler API (TypeScript 7's
 * `typescript/unstable/sync`). Sorted and comment-free, so the text changes only when the
 * surface does. The same program, with `skipLibCheck: false`, reports whether the published
 * types compile in a strict consumer.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { API, NodeBuilderFlags, SymbolFlags } from 'typescript/unstable/sync';

const ROOT = resolve(import.meta.dirname, '..', '..');

interface ExportTarget {
  readonly types: string;
}

/** Subpath → .d.ts file, from package.json `exports` (the map a consumer resolves through). */
export function publishedEntries(): [subpath: string, dts: string][] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, ExportTarget | string>;
  };
  return Object.entries(pkg.exports)
    .filter((e): e is [string, ExportTarget] => typeof e[1] === 'object')
    .map(([sub, target]) => [
      sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`,
      join(ROOT, target.types),
    ]);
}

const KINDS: [SymbolFlags, string][] = [
  [SymbolFlags.Class, 'class'],
  [SymbolFlags.Function, 'function'],
  [SymbolFlags.Interface, 'interface'],
  [SymbolFlags.TypeAlias, 'type'],
  [SymbolFlags.Enum, 'enum'],
  [SymbolFlags.Variable, 'const'],
];

/** Declaration text without comments, indented under its name. */
const tidy = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .map((l) => `    ${l}`)
    .join('\n');

export interface ApiReport {
  readonly text: string;
  /** Type errors in the published declarations under a strict consumer (`skipLibCheck: false`). */
  readonly diagnostics: string[];
}

export function apiReport(): ApiReport {
  const entries = publishedEntries();
  const dir = join(ROOT, 'dist', 'api-report');
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023'],
        types: ['node'],
        skipLibCheck: false,
        noEmit: true,
      },
      files: entries.map(([, dts]) => dts),
    }),
  );
  const api = new API({ cwd: ROOT });
  try {
    const snapshot = api.updateSnapshot({ openProjects: [config] });
    const project = snapshot.getProject(config) ?? snapshot.getProjects()[0];
    if (project === undefined) throw new Error(`no project for ${config}`);
    const { program, checker, emitter } = project;
    const sections: string[] = [];
    for (const [subpath, dts] of [...entries].sort((a, b) => a[0].localeCompare(b[0]))) {
      const file = program.getSourceFile(dts);
      const module = file && checker.getSymbolAtLocation(file);
      if (module === undefined) throw new Error(`${dts} is not a module`);
      const lines = [`## ${subpath}`];
      const exported = [...checker.getExportsOfModule(module)].sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const s of exported) {
        const target = s.flags & SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        const kinds = KINDS.filter(([f]) => target.flags & f).map(([, k]) => k);
        lines.push(`${s.name}: ${kinds.join(' & ') || `flags ${target.flags}`}`);
        if (target.flags & (SymbolFlags.Variable | SymbolFlags.Function)) {
          const type = checker.getTypeOfSymbol(target);
          if (type) lines.push(`    ${checker.typeToString(type, undefined, NodeBuilderFlags.NoTruncation)}`);
        }
        if (
          target.flags &
          (SymbolFlags.Class | SymbolFlags.Interface | SymbolFlags.TypeAlias | SymbolFlags.Enum)
        )
          for (const d of target.declarations) {
            const node = d.resolve(project);
            if (node !== undefined) lines.push(tidy(emitter.printNode(node)));
          }
        if (target.flags & SymbolFlags.TypeAlias) {
          // The alias expanded, so a change in an unexported type it names shows too.
          const type = checker.getDeclaredTypeOfSymbol(target);
          lines.push(
            `    = ${checker.typeToString(type, undefined, NodeBuilderFlags.NoTruncation | NodeBuilderFlags.InTypeAlias)}`,
          );
        }
      }
      sections.push(lines.join('\n'));
    }
    const diagnostics = program
      .getSemanticDiagnostics()
      .concat(program.getSyntacticDiagnostics())
      .map((d) => `${d.fileName ?? '?'}:${d.pos}: TS${d.code} ${d.text}`);
    return { text: `${sections.join('\n\n')}\n`, diagnostics };
  } finally {
    api.close();
  }
}
