/**
 * The page's one stylesheet and the key event timeline's script, inlined and allowed by their
 * SHA-256 in the CSP (no 'unsafe-inline'). The script builds the timeline's rows from its data
 * block (timeline.ts) and filters them: each row carries its category, importance rank and host
 * as data attributes.
 */

export const STYLE = `
:root { --fg: #1d232b; --muted: #5b6573; --line: #d8dde4; --bg: #ffffff; --band: #f4f6f9; --accent: #2f5d8a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 18px 28px 10px; border-bottom: 1px solid var(--line); background: var(--band); }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; color: var(--muted); }
nav { margin-top: 10px; display: flex; flex-wrap: wrap; gap: 4px 14px; }
nav a { color: var(--accent); text-decoration: none; }
main { padding: 8px 28px 40px; }
section { margin: 22px 0 30px; }
h2 { font-size: 18px; border-bottom: 2px solid var(--accent); padding-bottom: 3px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.scroll { overflow: auto; max-height: 640px; border: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
th, td { text-align: left; vertical-align: top; padding: 3px 8px; border-bottom: 1px solid var(--line); }
th { position: sticky; top: 0; background: var(--band); }
td { white-space: pre-wrap; word-break: break-word; }
#timeline-table th { white-space: nowrap; }
#timeline-table td:nth-child(-n+2) { min-width: 6.6em; }
#timeline-table td:nth-child(7) { min-width: 16em; }
#timeline-table td:last-child { min-width: 9em; }
#timeline-table td.record, #timeline-table td:nth-child(7) { overflow-wrap: anywhere; }
#timeline-table td:nth-child(5) { min-width: 8em; }
td .file { display: block; color: var(--muted); font-size: 11.5px; }
.nowrap { white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 6px 0 10px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
table.levels td.n, td.n { text-align: right; font-variant-numeric: tabular-nums; }
table.levels td.zero { color: #b8bfc9; }
ul.files { margin: 4px 0; padding-left: 18px; max-height: 420px; overflow: auto; font-size: 12.5px; }
details > summary { cursor: pointer; color: var(--accent); }
details.section-body > summary { font-size: 13px; margin: 4px 0 8px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; white-space: pre-wrap; word-break: break-word; }
.chart text { font-size: 11px; fill: var(--fg); }
.chart .bar rect { fill: var(--accent); }
.graph { overflow: auto; border: 1px solid var(--line); max-height: 900px; background: #fff; }
.filters { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: center; margin: 6px 0 10px; }
.filters label { color: var(--muted); }
.badge { white-space: nowrap; display: inline-block; padding: 0 6px; border-radius: 3px; font-size: 11.5px; font-weight: 600; color: #fff; background: #7a8594; }
.i-Low, .l-low { background: #4f8a5b; }
.i-Medium, .l-medium { background: #b7860b; }
.i-High, .l-high { background: #c0532b; }
.i-Critical, .l-critical { background: #9b1c31; }
.rule { border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: 8px 12px; margin: 12px 0; }
.rule h3 { margin: 0 0 6px; }
.empty, .note { color: var(--muted); }
.error { color: #9b1c31; }
.matches td:last-child { min-width: 28em; }
.ev { display: block; }
.ev .k { color: var(--muted); }
.ev.hit .k { color: var(--fg); font-weight: 600; }
mark { background: #ffe08a; color: inherit; padding: 0 1px; }
.l-informational { background: #5b7fa6; }
`;

export const SCRIPT = `
(function () {
  var category = document.getElementById('tl-category');
  var importance = document.getElementById('tl-importance');
  var text = document.getElementById('tl-text');
  var count = document.getElementById('tl-count');
  var host = document.getElementById('tl-host');
  var table = document.getElementById('timeline-table');
  var block = document.getElementById('tl-data');
  if (!category || !importance || !text || !count || !table || !block) return;
  var data;
  try { data = JSON.parse(block.textContent); } catch (e) { return; }
  function two(n) { return n < 10 ? '0' + n : String(n); }
  function time(ms) {
    if (typeof ms !== 'number') return '';
    var d = new Date(ms);
    return d.getUTCFullYear() + '-' + two(d.getUTCMonth() + 1) + '-' + two(d.getUTCDate()) + ' ' +
      two(d.getUTCHours()) + ':' + two(d.getUTCMinutes()) + ':' + two(d.getUTCSeconds());
  }
  function cell(row, text, className) {
    var td = document.createElement('td');
    if (className) td.className = className;
    if (text !== null) td.textContent = text;
    row.appendChild(td);
    return td;
  }
  // Rows are built once, at load, so the table script below sorts them like any other table.
  var fragment = document.createDocumentFragment();
  (Array.isArray(data.rows) ? data.rows : []).forEach(function (r) {
    var row = document.createElement('tr');
    var level = data.importance[r[2]] || 'Informational';
    row.setAttribute('data-category', data.categories[r[3]] || '');
    row.setAttribute('data-rank', String(r[2]));
    row.setAttribute('data-host', data.hosts[r[4]] || '');
    cell(row, time(r[0]));
    cell(row, time(r[1]));
    var badge = document.createElement('span');
    badge.className = 'badge i-' + level;
    badge.textContent = level;
    cell(row, null).appendChild(badge);
    cell(row, data.categories[r[3]] || '');
    cell(row, data.hosts[r[4]] || '');
    cell(row, r[5]);
    cell(row, r[6]);
    var record = cell(row, null, 'record');
    var ref = document.createElement('span');
    ref.className = 'ref';
    ref.textContent = r[7];
    record.appendChild(ref);
    if (data.files[r[8]]) {
      var file = document.createElement('span');
      file.className = 'file';
      file.textContent = data.files[r[8]];
      record.appendChild(file);
    }
    fragment.appendChild(row);
  });
  table.tBodies[0].appendChild(fragment);
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var texts = null;
  function apply() {
    var shown = 0;
    var min = Number(importance.value);
    var needle = text.value.trim().toLowerCase();
    if (needle !== '' && texts === null) texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
    rows.forEach(function (row, i) {
      var visible = (category.value === '' || row.getAttribute('data-category') === category.value) &&
        (!host || host.value === '' || row.getAttribute('data-host') === host.value) &&
        Number(row.getAttribute('data-rank')) >= min &&
        (needle === '' || texts[i].indexOf(needle) >= 0);
      row.hidden = !visible;
      if (visible) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' key events shown';
  }
  category.addEventListener('change', apply);
  importance.addEventListener('change', apply);
  if (host) host.addEventListener('change', apply);
  text.addEventListener('input', apply);
  apply();
})();
`;
