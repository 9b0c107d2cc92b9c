/**
 * Finding one's way in a large process graph, appended to the page's one script and style: a
 * host list (the graph's clusters; nodes outside the chosen host are dimmed and the box scrolls
 * to it) and a process search over the node text (matches are outlined, Enter moves to the next
 * and scrolls it into view; a summary node also matches the processes it stands for). Hosts are told apart by geometry, since Graphviz puts nodes beside
 * their cluster, not inside it. Controls are built with the DOM and `textContent` only.
 */
export const GRAPH_SCRIPT = `
(function () {
  var box = document.getElementById('process-graph');
  var svg = box && box.querySelector('svg');
  if (!svg) return;
  var nodes = Array.prototype.slice.call(svg.querySelectorAll('g.node'));
  var edges = Array.prototype.slice.call(svg.querySelectorAll('g.edge'));
  var clusters = Array.prototype.slice.call(svg.querySelectorAll('g.cluster')).map(function (g) {
    var label = g.querySelector('text');
    return { box: g.getBBox(), name: label ? label.textContent : '' };
  });
  function hostOf(g) {
    var b = g.getBBox();
    var x = b.x + b.width / 2;
    var y = b.y + b.height / 2;
    for (var i = 0; i < clusters.length; i++) {
      var c = clusters[i].box;
      if (x >= c.x && x <= c.x + c.width && y >= c.y && y <= c.y + c.height) return i;
    }
    return -1;
  }
  var nodeHost = nodes.map(hostOf);
  var edgeHost = edges.map(hostOf);
  // A summary node is found by the processes it stands for, too (graph-expand's data block).
  var members = {};
  var block = document.getElementById('pg-summary-data');
  try { members = (block && JSON.parse(block.textContent)) || {}; } catch (e) { members = {}; }
  var texts = nodes.map(function (g) {
    var t = g.querySelector('title');
    var key = t ? t.textContent : '';
    var groups = Object.prototype.hasOwnProperty.call(members, key) && Array.isArray(members[key]) ? members[key] : [];
    var ids = groups.map(function (group) {
      if (!Array.isArray(group)) return '';
      return group.slice(1).map(function (rest) { return group[0] === null ? rest : group[0] + ':' + rest; }).join(' ');
    });
    return (g.textContent + ' ' + ids.join(' ')).toLowerCase();
  });

  var bar = document.createElement('div');
  bar.className = 'filters graph-nav';
  var hostLabel = document.createElement('label');
  hostLabel.textContent = 'Host ';
  var host = document.createElement('select');
  host.id = 'pg-host';
  var all = document.createElement('option');
  all.value = '';
  all.textContent = 'All hosts (' + clusters.length + ')';
  host.appendChild(all);
  clusters.forEach(function (c, i) {
    var option = document.createElement('option');
    option.value = String(i);
    option.textContent = c.name || 'host ' + (i + 1);
    host.appendChild(option);
  });
  hostLabel.appendChild(host);
  var searchLabel = document.createElement('label');
  searchLabel.textContent = 'Find process ';
  var search = document.createElement('input');
  search.type = 'search';
  search.id = 'pg-search';
  search.setAttribute('aria-label', 'Find a process in the graph');
  searchLabel.appendChild(search);
  var count = document.createElement('span');
  count.className = 'note';
  count.id = 'pg-count';
  count.setAttribute('aria-live', 'polite');
  bar.appendChild(hostLabel);
  bar.appendChild(searchLabel);
  bar.appendChild(count);
  box.parentNode.insertBefore(bar, box);

  var hits = [];
  var current = -1;
  function show(g) {
    nodes.forEach(function (n) { n.classList.remove('pg-current'); });
    g.classList.add('pg-current');
    g.scrollIntoView({ block: 'center', inline: 'center' });
  }
  function applyHost() {
    var chosen = host.value === '' ? -1 : Number(host.value);
    nodes.forEach(function (g, i) { g.classList.toggle('pg-dim', chosen >= 0 && nodeHost[i] !== chosen); });
    edges.forEach(function (g, i) { g.classList.toggle('pg-dim', chosen >= 0 && edgeHost[i] !== chosen); });
    if (chosen >= 0) {
      var first = nodes.filter(function (g, i) { return nodeHost[i] === chosen; })[0];
      if (first) first.scrollIntoView({ block: 'nearest', inline: 'start' });
    }
    applySearch();
  }
  function applySearch() {
    var needle = search.value.trim().toLowerCase();
    var chosen = host.value === '' ? -1 : Number(host.value);
    hits = [];
    nodes.forEach(function (g, i) {
      var hit = needle !== '' && (chosen < 0 || nodeHost[i] === chosen) && texts[i].indexOf(needle) >= 0;
      g.classList.toggle('pg-hit', hit);
      g.classList.remove('pg-current');
      if (hit) hits.push(g);
    });
    current = hits.length > 0 ? 0 : -1;
    if (current >= 0) show(hits[0]);
    count.textContent = needle === '' ? nodes.length + ' processes' : hits.length + ' of ' + nodes.length + ' processes match';
  }
  host.addEventListener('change', applyHost);
  search.addEventListener('input', applySearch);
  search.addEventListener('keydown', function (e) {
    if (e.key !== 'Enter' || hits.length === 0) return;
    e.preventDefault();
    current = (current + (e.shiftKey ? hits.length - 1 : 1)) % hits.length;
    show(hits[current]);
    count.textContent = (current + 1) + ' of ' + hits.length + ' matches (Enter for the next)';
  });
  applySearch();
})();
`;

export const GRAPH_STYLE = `
.graph g.pg-dim { opacity: 0.15; }
.graph g.pg-hit polygon, .graph g.pg-hit path, .graph g.pg-hit ellipse { stroke: #d18b00; stroke-width: 3px; }
.graph g.pg-current polygon, .graph g.pg-current path, .graph g.pg-current ellipse { stroke: #c0532b; stroke-width: 5px; }
`;
