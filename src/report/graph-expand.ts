/**
 * Expanding a summary node of the process graph, appended to the page's one script and style.
 * Summary nodes (their `<title>` is a key of the `pg-summary-data` block, graph-members.ts)
 * become buttons: a click, Enter or Space marks the node expanded and lists the processes it
 * stands for in a panel beside the graph (below it on narrow screens), grouped by image and in
 * record order, with a filter over all of them and at most LIMIT rows drawn at once, and a link
 * to the rows of other tables (key event timeline, notable executions) with the same record
 * number and image; Collapse, Escape or a second click closes it. Member ids are attacker text: they reach the page through
 * `JSON.parse` and `textContent` only.
 */
export const GRAPH_EXPAND_SCRIPT = `
(function () {
  var box = document.getElementById('process-graph');
  var block = document.getElementById('pg-summary-data');
  var svg = box && box.querySelector('svg');
  if (!svg || !block) return;
  var members;
  try { members = JSON.parse(block.textContent); } catch (e) { return; }
  if (!members || typeof members !== 'object') return;
  var LIMIT = 500;
  var ID = /^([\\s\\S]*):(\\d+|\\?)@(inferred|r(\\d+))(~\\d+)?$/;
  var own = Object.prototype.hasOwnProperty;
  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // The block's groups (graph-members.ts): [image, rest, rest, …], id = image + ':' + rest.
  function ids(groups) {
    var out = [];
    (Array.isArray(groups) ? groups : []).forEach(function (g) {
      if (!Array.isArray(g)) return;
      for (var i = 1; i < g.length; i++) out.push(g[0] === null ? String(g[i]) : g[0] + ':' + g[i]);
    });
    return out;
  }
  function parse(id) {
    var m = ID.exec(id);
    var p = m ? { id: id, image: m[1], pid: m[2], record: m[4] ? Number(m[4]) : -1 }
      : { id: id, image: id, pid: '', record: -1 };
    p.key = p.image.toLowerCase();
    p.text = id.toLowerCase();
    return p;
  }
  function byImageThenRecord(a, b) {
    if (a.key !== b.key) return a.key < b.key ? -1 : 1;
    return a.record - b.record;
  }

  var area = el('div', 'graph-area');
  box.parentNode.insertBefore(area, box);
  area.appendChild(box);
  var panel = el('div', 'pg-members');
  panel.id = 'pg-members';
  panel.hidden = true;
  panel.setAttribute('role', 'region');
  panel.setAttribute('aria-label', 'Processes in the expanded summary');
  var head = el('div', 'pg-members-head');
  var title = el('strong', 'pg-members-title');
  var collapse = el('button', 'pg-collapse', 'Collapse');
  collapse.type = 'button';
  head.appendChild(title);
  head.appendChild(collapse);
  var images = el('p', 'note pg-members-images');
  var filterLabel = el('label', 'pg-members-filter', 'Filter ');
  var filter = el('input');
  filter.type = 'search';
  filter.setAttribute('aria-label', 'Filter the processes of this summary');
  filterLabel.appendChild(filter);
  var count = el('p', 'note pg-members-count');
  count.setAttribute('aria-live', 'polite');
  var table = el('table', 'pg-members-table');
  var thead = el('thead');
  var headRow = el('tr');
  ['Image', 'PID', 'Record', 'Also in'].forEach(function (h) { headRow.appendChild(el('th', '', h)); });
  thead.appendChild(headRow);
  var tbody = el('tbody');
  table.appendChild(thead);
  table.appendChild(tbody);
  [head, images, filterLabel, count, table].forEach(function (e) { panel.appendChild(e); });
  area.appendChild(panel);

  // Rows elsewhere in the report by record number (a Record(s) column: "57" or "Sysmon/Operational#57, …").
  // Several files can share a number, so a link also needs the row to name the member's image.
  var rowsByRecord = null;
  function indexRows() {
    rowsByRecord = {};
    Array.prototype.slice.call(document.querySelectorAll('main table')).forEach(function (t) {
      if (t === table || !t.tHead || !t.tHead.rows[0] || !t.tBodies[0]) return;
      var column = -1;
      Array.prototype.forEach.call(t.tHead.rows[0].cells, function (th, i) {
        if (/^records?$/i.test(th.textContent.trim())) column = i;
      });
      if (column < 0) return;
      var heading = t.closest('.scroll') || t;
      while (heading && heading.tagName !== 'H3') heading = heading.previousElementSibling;
      var name = heading ? heading.textContent.replace(/^[^:]*: /, '') : 'table';
      Array.prototype.forEach.call(t.tBodies[0].rows, function (row) {
        var cell = row.cells[column];
        (cell ? cell.textContent.split(/[,\\s]+/) : []).forEach(function (token) {
          var m = /(?:^|#)(\\d+)$/.exec(token);
          if (!m) return;
          if (!own.call(rowsByRecord, m[1])) rowsByRecord[m[1]] = [];
          rowsByRecord[m[1]].push({ row: row, name: name });
        });
      });
    });
  }
  function linksTo(p) {
    if (p.record < 0) return [];
    if (rowsByRecord === null) indexRows();
    var seen = {};
    return (own.call(rowsByRecord, String(p.record)) ? rowsByRecord[String(p.record)] : []).filter(function (r) {
      if (own.call(seen, r.name) || r.row.textContent.toLowerCase().indexOf(p.key) < 0) return false;
      seen[r.name] = true;
      return true;
    });
  }
  function jump(target) {
    if (window.taeOpenAround) window.taeOpenAround(target.row);
    target.row.setAttribute('tabindex', '-1');
    target.row.scrollIntoView({ block: 'center' });
    target.row.focus({ preventScroll: true });
    target.row.classList.add('pg-flash');
    setTimeout(function () { target.row.classList.remove('pg-flash'); }, 2000);
    if (target.row.hidden) count.textContent = 'That row of ' + target.name + ' is hidden by its filter.';
  }

  var expanded = null;
  var list = [];
  function render() {
    var needle = filter.value.trim().toLowerCase();
    var shown = needle === '' ? list : list.filter(function (p) { return p.text.indexOf(needle) >= 0; });
    var fragment = document.createDocumentFragment();
    var group = null;
    var sizes = {};
    shown.forEach(function (p) { sizes[p.key] = (own.call(sizes, p.key) ? sizes[p.key] : 0) + 1; });
    shown.slice(0, LIMIT).forEach(function (p) {
      if (p.key !== group) {
        group = p.key;
        var g = el('tr', 'pg-group');
        var cell = el('th', '', p.image + ' (' + sizes[p.key] + ')');
        cell.colSpan = 4;
        g.appendChild(cell);
        fragment.appendChild(g);
      }
      var row = el('tr', 'pg-member');
      row.setAttribute('data-id', p.id);
      row.appendChild(el('td', '', p.image));
      row.appendChild(el('td', '', p.pid));
      row.appendChild(el('td', '', p.record >= 0 ? String(p.record) : 'inferred'));
      var also = el('td', 'pg-also');
      linksTo(p).forEach(function (target) {
        var button = el('button', 'pg-jump', target.name);
        button.type = 'button';
        button.title = 'Go to record ' + p.record + ' in ' + target.name;
        button.addEventListener('click', function () { jump(target); });
        also.appendChild(button);
      });
      row.appendChild(also);
      fragment.appendChild(row);
    });
    tbody.textContent = '';
    tbody.appendChild(fragment);
    var more = shown.length - Math.min(shown.length, LIMIT);
    count.textContent = (needle === '' ? list.length + ' processes' : shown.length + ' of ' + list.length + ' processes match') +
      (more > 0 ? '; first ' + LIMIT + ' listed, ' + more + ' more (the filter searches all)' : '');
  }
  function close() {
    if (!expanded) return;
    expanded.classList.remove('pg-expanded');
    expanded.setAttribute('aria-expanded', 'false');
    expanded = null;
    panel.hidden = true;
    area.classList.remove('pg-open');
  }
  function open(g, key) {
    close();
    expanded = g;
    g.classList.add('pg-expanded');
    g.setAttribute('aria-expanded', 'true');
    list = ids(members[key]).map(parse).sort(byImageThenRecord);
    var tally = {};
    var names = [];
    list.forEach(function (p) {
      if (!own.call(tally, p.key)) { tally[p.key] = 0; names.push(p); }
      tally[p.key]++;
    });
    title.textContent = g.getAttribute('data-label') + ' (' + key + ')';
    images.textContent = names.length + (names.length === 1 ? ' image: ' : ' images: ') +
      names.slice(0, 12).map(function (p) { return p.image + ' \\u00d7' + tally[p.key]; }).join(', ') +
      (names.length > 12 ? ', \\u2026' : '');
    filter.value = '';
    filterLabel.hidden = list.length <= 20;
    render();
    area.classList.add('pg-open');
    panel.hidden = false;
    panel.scrollTop = 0;
    // Narrow screens stack the panel under a shorter graph box: keep the node in view in both.
    g.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    panel.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
  function toggle(g, key) {
    if (expanded === g) close(); else open(g, key);
  }
  var summaries = 0;
  Array.prototype.slice.call(svg.querySelectorAll('g.node')).forEach(function (g) {
    var t = g.querySelector('title');
    var key = t ? t.textContent : '';
    if (!own.call(members, key) || !Array.isArray(members[key])) return;
    summaries++;
    var label = Array.prototype.map.call(g.querySelectorAll('text'), function (x) { return x.textContent; }).join(' / ');
    g.classList.add('pg-summary');
    g.setAttribute('data-label', label);
    g.setAttribute('data-summary', key);
    g.setAttribute('tabindex', '0');
    g.setAttribute('role', 'button');
    g.setAttribute('aria-expanded', 'false');
    g.setAttribute('aria-controls', 'pg-members');
    g.setAttribute('aria-label', label + ': list its ' + ids(members[key]).length + ' processes');
    g.addEventListener('click', function () { toggle(g, key); });
    g.addEventListener('keydown', function (e) {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      toggle(g, key);
    });
  });
  filter.addEventListener('input', render);
  collapse.addEventListener('click', function () {
    var g = expanded;
    close();
    if (g) g.focus();
  });
  panel.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') collapse.click();
  });
  if (summaries > 0) {
    var hint = el('p', 'note pg-hint', summaries + (summaries === 1 ? ' summary node' : ' summary nodes') +
      ' (3-D boxes): click one, or Tab to it and press Enter, to list the processes it stands for.');
    area.parentNode.insertBefore(hint, area);
  }
})();
`;

export const GRAPH_EXPAND_STYLE = `
.graph-area { display: flex; gap: 12px; align-items: flex-start; }
.graph-area > .graph { flex: 1 1 auto; min-width: 0; }
.graph g.pg-summary { cursor: pointer; }
:where(.graph g.pg-summary:hover) polygon { stroke: var(--accent); stroke-width: 2px; }
.graph g.pg-summary:focus { outline: none; }
.graph g.pg-summary:focus-visible polygon, .graph g.pg-summary:focus-visible polyline { stroke: var(--accent); stroke-width: 3px; stroke-dasharray: 4 2; }
.graph g.pg-expanded polygon, .graph g.pg-expanded polyline { stroke: var(--accent); stroke-width: 4px; }
.graph g.pg-expanded polygon { fill: #dce8f4; }
.pg-members { flex: 0 0 380px; position: sticky; top: 8px; max-height: min(900px, calc(100vh - 16px)); overflow: auto; border: 1px solid var(--line); border-top: 3px solid var(--accent); padding: 6px 10px 10px; background: #fff; }
.pg-members-head { display: flex; justify-content: space-between; align-items: baseline; gap: 8px; }
.pg-members-title { overflow-wrap: anywhere; }
.pg-members p { margin: 4px 0; overflow-wrap: anywhere; }
.pg-members-filter { display: block; margin: 4px 0; color: var(--muted); }
.pg-members-table { font-size: 12px; }
.pg-members-table td, .pg-members-table th { white-space: normal; overflow-wrap: anywhere; }
.pg-members-table tr.pg-group th { position: static; background: var(--band); font-weight: 600; }
.pg-jump { all: unset; cursor: pointer; color: var(--accent); text-decoration: underline; display: block; }
.pg-jump:focus-visible { outline: 2px solid var(--accent); }
tr.pg-flash td { background: #ffe08a; }
@media (max-width: 1100px) {
  .graph-area { display: block; }
  .graph-area.pg-open > .graph { max-height: 58vh; }
  .pg-members { position: static; margin-top: 10px; max-height: 38vh; }
}
`;
