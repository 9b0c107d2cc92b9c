/**
 * The per-host process tree's script (graph-tree.ts), appended to the page's one script after
 * the graph's: a host list (hosts by process count; choosing a host in the graph's own list
 * chooses it here too) and the chosen host's tree. Siblings of one image, SUMMARY or more of
 * them, show as one summary line that expands into them. A process's line has its command line
 * as hover text; clicking it shows the command line, user, start and record. `Expand all` opens
 * every subtree and summary of the host (up to LIMIT processes). DOM and `textContent` only.
 */
import { DOM_HELPERS } from './dom-helpers-script.js';

export const GRAPH_TREE_SCRIPT = `
(function () {
  var block = document.getElementById('pt-data');
  var bar = document.getElementById('pt-bar');
  var tree = document.getElementById('pt-tree');
  if (!block || !bar || !tree) return;
  var data;
  try { data = JSON.parse(block.textContent); } catch (e) { return; }
  var SUMMARY = 3;
  var LIMIT = 5000;
  var rows = data.rows;
  var children = rows.map(function () { return []; });
  var roots = data.hosts.map(function () { return []; });
  var counts = data.hosts.map(function () { return 0; });
  rows.forEach(function (r, i) {
    counts[r[0]]++;
    if (r[1] >= 0 && rows[r[1]] && rows[r[1]][0] === r[0]) children[r[1]].push(i);
    else roots[r[0]].push(i);
  });
${DOM_HELPERS}  function time(ms) {
    var d = new Date(ms);
    return d.getUTCFullYear() + '-' + two(d.getUTCMonth() + 1) + '-' + two(d.getUTCDate()) + ' ' +
      two(d.getUTCHours()) + ':' + two(d.getUTCMinutes()) + ':' + two(d.getUTCSeconds());
  }
  function base(path) { var m = /[^\\\\/]*$/.exec(path); return m ? m[0] : path; }
  function imageKey(i) { return base(data.images[rows[i][2]] || '').toLowerCase(); }

  var label = el('label', '', 'Host ');
  var select = el('select');
  select.id = 'pt-host';
  var none = el('option', '', 'Choose a host (' + data.hosts.length + ')');
  none.value = '';
  select.appendChild(none);
  data.hosts.map(function (h, i) { return i; })
    .sort(function (a, b) { return counts[b] - counts[a] || (data.hosts[a] < data.hosts[b] ? -1 : 1); })
    .forEach(function (i) {
      var o = el('option', '', (data.hosts[i] || '(none)') + ' (' + counts[i] + ')');
      o.value = String(i);
      select.appendChild(o);
    });
  label.appendChild(select);
  var expandAll = el('button', 'page', 'Expand all');
  expandAll.type = 'button';
  expandAll.id = 'pt-expand-all';
  var count = el('span', 'note');
  count.id = 'pt-count';
  [label, expandAll, count].forEach(function (e) { bar.appendChild(e); });

  // One list of lines for siblings: summaries for SUMMARY or more of one image, in first-seen
  // order; a summary's own list (members) shows each of them.
  function list(ids, members) {
    var ul = el('ul');
    if (members) { ids.forEach(function (i) { ul.appendChild(process(i)); }); return ul; }
    var groups = {};
    var order = [];
    ids.forEach(function (i) {
      var k = imageKey(i);
      if (!Object.prototype.hasOwnProperty.call(groups, k)) { groups[k] = []; order.push(k); }
      groups[k].push(i);
    });
    order.forEach(function (k) {
      var g = groups[k];
      if (g.length >= SUMMARY) ul.appendChild(summary(g));
      else g.forEach(function (i) { ul.appendChild(process(i)); });
    });
    return ul;
  }
  function toggle(li, build) {
    var button = el('button', 'pt-toggle', '\\u25b8');
    button.type = 'button';
    button.setAttribute('aria-expanded', 'false');
    button.addEventListener('click', function () { open(li, build, button.getAttribute('aria-expanded') !== 'true'); });
    return button;
  }
  function open(li, build, state) {
    var button = li.querySelector(':scope > .pt-toggle');
    var sub = li.querySelector(':scope > ul');
    if (state && !sub) { sub = build(); li.appendChild(sub); }
    if (sub) sub.hidden = !state;
    if (button) { button.setAttribute('aria-expanded', state ? 'true' : 'false'); button.textContent = state ? '\\u25be' : '\\u25b8'; }
  }
  function summary(group) {
    var li = el('li', 'pt-summary');
    li.setAttribute('data-summary', imageKey(group[0]));
    var build = function () { return list(group, true); };
    li.appendChild(toggle(li, build));
    var text = el('button', 'pt-label');
    text.type = 'button';
    text.appendChild(el('span', 'pt-image', base(data.images[rows[group[0]][2]]) + ' \\u00d7' + group.length));
    text.appendChild(el('span', 'pt-meta', 'summary of ' + group.length + ' sibling processes: expand'));
    text.addEventListener('click', function () { open(li, build, true); });
    li.appendChild(text);
    return li;
  }
  function process(i) {
    var r = rows[i];
    var li = el('li', 'pt-proc');
    li.setAttribute('data-row', String(i));
    li.setAttribute('data-parent', String(r[1]));
    var kids = children[i];
    if (kids.length > 0) li.appendChild(toggle(li, function () { return list(kids); }));
    else li.appendChild(el('span', 'pt-toggle', ''));
    var text = el('button', 'pt-label');
    text.type = 'button';
    var command = data.commands[r[5]] || '';
    var record = data.channels[r[7]] + (r[8] ? '#' + r[8] : '');
    text.title = command || data.images[r[2]];
    text.appendChild(el('span', 'pt-image', base(data.images[r[2]]) || '?'));
    text.appendChild(el('span', 'pt-meta', 'pid ' + (r[3] || '?') + (data.users[r[4]] ? ' \\u00b7 ' + data.users[r[4]] : '') +
      (r[6] !== null ? ' \\u00b7 ' + time(r[6]) : '') + (kids.length ? ' \\u00b7 ' + kids.length + ' children' : '')));
    text.addEventListener('click', function () {
      var d = li.querySelector(':scope > .pt-detail');
      if (d) { d.remove(); return; }
      d = el('span', 'pt-detail', (command || '(no command line)') + '\\n' + data.images[r[2]] +
        (data.users[r[4]] ? '\\nuser ' + data.users[r[4]] : '') + (r[6] !== null ? '\\nstarted ' + time(r[6]) + ' UTC' : '') +
        '\\nrecord ' + record);
      li.insertBefore(d, li.querySelector(':scope > ul'));
    });
    li.appendChild(text);
    return li;
  }
  function draw() {
    tree.textContent = '';
    var h = select.value === '' ? -1 : Number(select.value);
    if (h < 0) { count.textContent = 'Choose a host to draw its process tree.'; expandAll.disabled = true; return; }
    tree.appendChild(list(roots[h]));
    // The first two levels open by themselves; summaries stay closed until asked.
    Array.prototype.slice.call(tree.querySelectorAll(':scope > ul > li.pt-proc')).forEach(function (li) {
      var b = li.querySelector(':scope > button.pt-toggle');
      if (b) b.click();
    });
    expandAll.disabled = false;
    count.textContent = counts[h] + ' processes on ' + (data.hosts[h] || '(none)') + ', ' + roots[h].length + ' without a known parent';
  }
  expandAll.addEventListener('click', function () {
    var opened = 0;
    for (;;) {
      var closed = tree.querySelectorAll('button.pt-toggle[aria-expanded="false"]');
      if (closed.length === 0 || opened > LIMIT) break;
      Array.prototype.forEach.call(closed, function (b) { if (opened++ <= LIMIT) b.click(); });
    }
  });
  select.addEventListener('change', draw);
  var graphHost = document.getElementById('pg-host');
  if (graphHost) graphHost.addEventListener('change', function () {
    var name = graphHost.value === '' ? null : graphHost.options[graphHost.selectedIndex].textContent;
    var i = name === null ? -1 : data.hosts.indexOf(name);
    select.value = i < 0 ? '' : String(i);
    draw();
  });
  draw();
})();
`;
