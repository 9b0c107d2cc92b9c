/**
 * The detections table's script, appended to the page's one script (allowed by hash): reads the
 * `det-data` block (detections.ts), filters by level, host and text, sorts by a clicked column,
 * and draws PAGE rows at a time with Previous/Next. A rule's name opens its details (from the
 * `rule-data` block) in a panel below the table, as do the rule names of the rules table.
 * Everything is built with the DOM and `textContent`: no data string is ever parsed as HTML.
 */
import { DOM_HELPERS } from './dom-helpers-script.js';

export const DETECTIONS_SCRIPT = `
(function () {
  var block = document.getElementById('det-data');
  var table = document.getElementById('detections-table');
  if (!block || !table) return;
  var data, details;
  try {
    data = JSON.parse(block.textContent);
    details = JSON.parse(document.getElementById('rule-data').textContent);
  } catch (e) { return; }
  var PAGE = 50;
  var LEVELS = ['critical', 'high', 'medium', 'low', 'informational'];
  var own = Object.prototype.hasOwnProperty;
${DOM_HELPERS}  function time(ms) {
    if (ms === null) return '';
    var d = new Date(ms);
    return d.getUTCFullYear() + '-' + two(d.getUTCMonth() + 1) + '-' + two(d.getUTCDate()) + ' ' +
      two(d.getUTCHours()) + ':' + two(d.getUTCMinutes()) + ':' + two(d.getUTCSeconds());
  }
  function rank(level) { var i = LEVELS.indexOf(level); return i < 0 ? LEVELS.length : i; }
  // [title, level, MITRE, matches] of each rule, from the rule details block.
  var rules = details.map(function (d) { return [d[0], String(d[1]).toLowerCase(), d[12], d[11]]; });
  var rulesBody = document.querySelector('#rules-table tbody');
  if (rulesBody) {
    var list = document.createDocumentFragment();
    rules.forEach(function (rule, i) {
      var tr = el('tr');
      var lv = el('td');
      lv.appendChild(el('span', 'badge l-' + (rank(rule[1]) < LEVELS.length ? rule[1] : 'none'), rule[1] || 'none'));
      tr.appendChild(lv);
      var name = el('td');
      var link = el('button', 'rule-link', rule[0]);
      link.type = 'button';
      link.setAttribute('data-rule', String(i));
      name.appendChild(link);
      tr.appendChild(name);
      tr.appendChild(el('td', 'n', String(rule[3])));
      tr.appendChild(el('td', '', rule[2]));
      list.appendChild(tr);
    });
    rulesBody.appendChild(list);
  }
  var rows = data.rows.map(function (r, i) {
    var rule = rules[r[2]] || ['', '', '', 0];
    var text = null;
    return { r: r, i: i, rule: rule, text: function () {
      if (text === null) {
        var ev = r[6].map(function (f) { return [f[0]].concat(f.slice(2)).join(' '); }).join(' ');
        text = [time(r[0]), data.hosts[r[1]], rule[0], rule[1], rule[2], ev, data.files[r[3]], data.channels[r[4]], r[5]].join(' ').toLowerCase();
      }
      return text;
    } };
  });

  var controls = document.getElementById('det-controls');
  var pager = document.getElementById('det-pager');
  function select(label, id, options) {
    var l = el('label', '', label + ' ');
    var s = el('select');
    s.id = id;
    options.forEach(function (o) { var opt = el('option', '', o[1]); opt.value = o[0]; s.appendChild(opt); });
    l.appendChild(s);
    controls.appendChild(l);
    return s;
  }
  var level = select('Level', 'det-level', [['', 'All']].concat(LEVELS.map(function (l, i) {
    return [String(i), i === 0 ? l : l + ' and above'];
  })));
  var hostList = data.hosts.map(function (h, i) { return [String(i), h || '(none)']; })
    .sort(function (a, b) { return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0; });
  var host = select('Host', 'det-host', [['', 'All hosts (' + data.hosts.length + ')']].concat(hostList));
  var textLabel = el('label', '', 'Text ');
  var text = el('input');
  text.type = 'search';
  text.id = 'det-text';
  text.setAttribute('aria-label', 'Filter detections by text');
  textLabel.appendChild(text);
  controls.appendChild(textLabel);
  var count = el('span', 'note');
  count.id = 'det-count';
  count.setAttribute('aria-live', 'polite');
  controls.appendChild(count);
  var prev = el('button', 'page', 'Previous');
  prev.type = 'button';
  prev.id = 'det-prev';
  var next = el('button', 'page', 'Next');
  next.type = 'button';
  next.id = 'det-next';
  var where = el('span', 'note');
  where.id = 'det-page';
  pager.appendChild(prev);
  pager.appendChild(where);
  pager.appendChild(next);

  var KEYS = [
    function (x) { return x.r[0] === null ? Infinity : x.r[0]; },
    function (x) { return data.hosts[x.r[1]].toLowerCase(); },
    function (x) { return rank(x.rule[1]); },
    function (x) { return x.rule[0].toLowerCase(); },
    function (x) { return x.rule[2]; },
    null,
    function (x) { return data.channels[x.r[4]] + '#' + x.r[5]; },
  ];
  var sortColumn = 0;
  var ascending = true;
  var shown = rows;
  var page = 0;
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  headers.forEach(function (th, column) {
    if (!KEYS[column]) return;
    var button = el('button', 'sort');
    button.type = 'button';
    while (th.firstChild) button.appendChild(th.firstChild);
    button.title = 'Sort by this column';
    th.appendChild(button);
    th.setAttribute('aria-sort', column === 0 ? 'ascending' : 'none');
    button.addEventListener('click', function () {
      ascending = column === sortColumn ? !ascending : true;
      sortColumn = column;
      headers.forEach(function (h, i) {
        if (KEYS[i]) h.setAttribute('aria-sort', i === column ? (ascending ? 'ascending' : 'descending') : 'none');
      });
      apply();
    });
  });

  function evidence(cell, fields) {
    fields.forEach(function (f) {
      var line = el('span', 'ev' + (f[1] ? ' hit' : ''));
      line.appendChild(el('span', 'k', f[0]));
      line.appendChild(document.createTextNode(' '));
      for (var i = 2; i < f.length; i++) {
        if (f[i] === '') continue;
        if ((i - 2) % 2 === 1) line.appendChild(el('mark', '', f[i]));
        else line.appendChild(document.createTextNode(f[i]));
      }
      cell.appendChild(line);
    });
  }
  function draw() {
    var body = table.tBodies[0];
    var fragment = document.createDocumentFragment();
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    if (page >= pages) page = pages - 1;
    shown.slice(page * PAGE, page * PAGE + PAGE).forEach(function (x) {
      var r = x.r;
      var tr = el('tr');
      tr.appendChild(el('td', 'nowrap', time(r[0])));
      tr.appendChild(el('td', '', data.hosts[r[1]]));
      var lv = el('td');
      lv.appendChild(el('span', 'badge l-' + (rank(x.rule[1]) < LEVELS.length ? x.rule[1] : 'none'), x.rule[1] || 'none'));
      tr.appendChild(lv);
      var rc = el('td');
      var link = el('button', 'rule-link', x.rule[0]);
      link.type = 'button';
      link.setAttribute('data-rule', String(r[2]));
      rc.appendChild(link);
      tr.appendChild(rc);
      tr.appendChild(el('td', '', x.rule[2]));
      var ev = el('td', 'evidence');
      evidence(ev, r[6]);
      tr.appendChild(ev);
      var rec = el('td', 'record');
      rec.appendChild(el('span', 'ref', (data.channels[r[4]] || '?') + '#' + r[5]));
      rec.appendChild(el('span', 'file', data.files[r[3]]));
      tr.appendChild(rec);
      fragment.appendChild(tr);
    });
    body.textContent = '';
    body.appendChild(fragment);
    var from = shown.length === 0 ? 0 : page * PAGE + 1;
    var to = Math.min(shown.length, page * PAGE + PAGE);
    where.textContent = 'Rows ' + from + '\\u2013' + to + ' of ' + shown.length + ' (page ' + (page + 1) + ' of ' + pages + ')';
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
    count.textContent = shown.length === rows.length ? rows.length + ' detections' : shown.length + ' of ' + rows.length + ' detections match';
  }
  function apply() {
    var min = level.value === '' ? LEVELS.length : Number(level.value);
    var h = host.value === '' ? -1 : Number(host.value);
    var needle = text.value.trim().toLowerCase();
    shown = rows.filter(function (x) {
      return (level.value === '' || rank(x.rule[1]) <= min) && (h < 0 || x.r[1] === h) &&
        (needle === '' || x.text().indexOf(needle) >= 0);
    });
    var key = KEYS[sortColumn];
    var keyed = shown.map(function (x) { return { x: x, k: key(x) }; });
    keyed.sort(function (a, b) {
      var c = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
      return (ascending ? c : -c) || a.x.i - b.x.i;
    });
    shown = keyed.map(function (k) { return k.x; });
    page = 0;
    draw();
  }
  level.addEventListener('change', apply);
  host.addEventListener('change', apply);
  text.addEventListener('input', apply);
  prev.addEventListener('click', function () { page--; draw(); });
  next.addEventListener('click', function () { page++; draw(); });

  var panel = document.getElementById('rule-panel');
  function openRule(i) {
    var d = details[i];
    if (!d) return;
    panel.textContent = '';
    var head = el('div', 'rule-panel-head');
    head.appendChild(el('strong', '', d[0]));
    var close = el('button', 'page', 'Close');
    close.type = 'button';
    close.addEventListener('click', function () { panel.hidden = true; });
    head.appendChild(close);
    panel.appendChild(head);
    if (d[7]) panel.appendChild(el('p', '', d[7]));
    var dl = el('dl', 'meta');
    [['Level', d[1]], ['Status', d[2]], ['Rule ID', d[3]], ['Kind', d[4]], ['Author', d[5]],
     ['Source', d[6]], ['Matches', String(d[11])], ['MITRE ATT&CK', d[12]], ['Other tags', d[8].join(', ')],
     ['References', d[9].join('\\n')], ['False positives', d[10].join('\\n')]]
      .forEach(function (kv) {
        if (!kv[1]) return;
        dl.appendChild(el('dt', '', kv[0]));
        dl.appendChild(el('dd', '', kv[1]));
      });
    panel.appendChild(dl);
    panel.hidden = false;
    panel.scrollIntoView({ block: 'nearest' });
  }
  document.addEventListener('click', function (e) {
    var t = e.target;
    if (!t || !t.classList || !t.classList.contains('rule-link')) return;
    var i = Number(t.getAttribute('data-rule'));
    if (own.call(details, i)) openRule(i);
  });
  apply();
})();
`;

export const DETECTIONS_STYLE = `
.rule-link { all: unset; cursor: pointer; color: var(--accent); text-decoration: underline; }
.rule-link:focus-visible { outline: 2px solid var(--accent); }
.det-scroll { max-height: none; }
#detections-table td.evidence, #detections-table td.record { overflow-wrap: anywhere; }
#detections-table td:nth-child(2) { min-width: 8em; }
#detections-table td.evidence { min-width: 22em; }
#detections-table td:nth-child(4) { min-width: 11em; }
#detections-table td.record { min-width: 10em; }
#detections-table td.record .file { display: block; color: var(--muted); font-size: 11.5px; overflow-wrap: anywhere; }
.nowrap { white-space: nowrap; }
.pager { margin-top: 6px; }
button.page { font: inherit; padding: 1px 10px; }
.rule-panel { border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: 8px 12px; margin: 10px 0; background: #fff; }
.rule-panel-head { display: flex; justify-content: space-between; gap: 10px; margin-bottom: 6px; }
.rule-panel p { white-space: pre-wrap; overflow-wrap: break-word; }
`;
