/**
 * One host's process tree, below the cross-host graph: the analysis's processes table (every
 * process with its parent) travels as a JSON data block, host, image and user names once each;
 * choosing a host (here or in the graph's host list) draws that host's tree as nested lists,
 * parents above their children. Summarising happens only inside the host: three or more
 * siblings of one image become one line (`svchost.exe ×40`) that expands into them, each with
 * its own subtree. A command line shows on hover and, with the record, on a click. Subtrees are
 * built when opened, so a host of thousands of processes costs what is on screen. Strings are
 * sanitised here and reach the page by `textContent` only.
 */
import { clip, PROCESSES_COLUMNS } from '../analysis/index.js';
import { displayBlock } from '../display/index.js';
import { scriptJson } from './graph-members.js';

/** Command lines in the block are cut here (hover text; the results keep 200 characters). */
const MAX_COMMAND = 100;
const show = (s: unknown, max: number) => displayBlock(clip(String(s ?? ''), max));

/**
 * `{ hosts, images, users, commands, channels, rows: [host, parent row or -1, image, pid, user,
 * command, start ms or null, channel, record] }` from the table's rows (header first), in its
 * order (a row's position is its `data-row` in the page); null when it has none. Names repeat
 * (3,171 processes of the corpus have 1,864 distinct command lines), so each is stored once.
 */
export function processTreeBlock(data: readonly (readonly string[])[]): string | null {
  const [head, ...rows] = data;
  if (head === undefined || rows.length === 0) return null;
  const col = (name: (typeof PROCESSES_COLUMNS)[number]) => head.indexOf(name);
  const [host, id, parent, image, pid, user, command, start, record] = PROCESSES_COLUMNS.map(col);
  const names = {
    hosts: [] as string[],
    images: [] as string[],
    users: [] as string[],
    commands: [] as string[],
    channels: [] as string[],
  };
  const at = new Map<string, number>();
  const intern = (k: keyof typeof names, s: string) => {
    const key = `${k}\u0000${s}`;
    let i = at.get(key);
    if (i === undefined) {
      i = names[k].length;
      names[k].push(s);
      at.set(key, i);
    }
    return i;
  };
  // Parents by id within a host (ids are unique per case).
  const rowOf = new Map(rows.map((r, n) => [`${r[host!] ?? ''}\u0000${r[id!] ?? ''}`, n]));
  const out = rows.map((r) => {
    const p = rowOf.get(`${r[host!] ?? ''}\u0000${r[parent!] ?? ''}`);
    const ms = Date.parse(`${String(r[start!] ?? '').replace(' ', 'T')}Z`);
    const ref = /^(.*)#(\d+)$/.exec(String(r[record!] ?? ''));
    return [
      intern('hosts', show(r[host!], 200)),
      r[parent!] && p !== undefined ? p : -1,
      intern('images', show(r[image!], 300)),
      Number(r[pid!]) || r[pid!] || '',
      intern('users', show(r[user!], 120)),
      intern('commands', show(r[command!], MAX_COMMAND)),
      Number.isFinite(ms) ? ms : null,
      intern('channels', show(ref ? ref[1] : r[record!], 80)),
      ref ? Number(ref[2]) : 0,
    ];
  });
  return scriptJson({ ...names, rows: out });
}

/** The tree's place in the graph section, and its data. */
export function processTreeHtml(data: readonly (readonly string[])[]): string {
  const block = processTreeBlock(data);
  if (block === null) return '';
  return (
    '<h3>Process tree per host</h3>' +
    '<div id="pt-bar" class="filters"></div><div id="pt-tree" class="pt-tree"></div>' +
    `<script type="application/json" id="pt-data">${block}</script>`
  );
}

export const GRAPH_TREE_STYLE = `
.pt-tree { border: 1px solid var(--line); padding: 6px 10px; max-height: 900px; overflow: auto; font-size: 12.5px; }
.pt-tree:empty { display: none; }
.pt-tree ul { list-style: none; margin: 0; padding-left: 18px; border-left: 1px dotted var(--line); }
.pt-tree > ul { padding-left: 0; border-left: 0; }
.pt-tree li { margin: 1px 0; }
.pt-toggle { all: unset; cursor: pointer; display: inline-block; width: 1.2em; color: var(--accent); }
.pt-toggle:focus-visible, .pt-label:focus-visible { outline: 2px solid var(--accent); }
.pt-label { all: unset; cursor: pointer; }
.pt-label .pt-image { font-weight: 600; }
.pt-label .pt-meta { color: var(--muted); margin-left: 6px; }
.pt-summary > .pt-label { color: var(--accent); font-style: italic; }
.pt-detail { display: block; margin: 2px 0 4px 1.2em; padding: 3px 6px; background: var(--band); white-space: pre-wrap; overflow-wrap: anywhere; }
`;
