/**
 * The report's table controls, appended to the page's one script (so the CSP still allows it
 * by hash): every table in `main` gets click-to-sort headers (numeric-aware, stable, asc/desc,
 * `aria-sort`) and, unless it has its own filters (the key event timeline), a text box that
 * hides rows not containing the text, with a count of shown rows. The controls are built with
 * the DOM and `textContent` only: cell text, which is attacker text, is never parsed as HTML.
 * Without the script the tables read the same, in their built order.
 */
export const TABLE_SCRIPT = `
(function () {
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  var NUMBER = /^[-+]?(\\d+(\\.\\d*)?|\\.\\d+)(e[-+]?\\d+)?$/i;
  function cellText(row, column) {
    var cell = row.cells[column];
    return cell ? cell.textContent.trim() : '';
  }
  function compare(a, b) {
    if (a === b) return 0;
    if (a === '') return 1;
    if (b === '') return -1;
    if (NUMBER.test(a) && NUMBER.test(b)) return Number(a) - Number(b);
    return collator.compare(a, b);
  }
  function sortable(table) {
    var body = table.tBodies[0];
    var head = table.tHead && table.tHead.rows[0];
    if (!body || !head) return;
    var original = Array.prototype.slice.call(body.rows);
    var headers = Array.prototype.slice.call(head.cells);
    var current = -1;
    var ascending = true;
    function sortBy(column) {
      ascending = column === current ? !ascending : true;
      current = column;
      var keyed = original.map(function (row, index) {
        return { row: row, key: cellText(row, column), index: index };
      });
      keyed.sort(function (x, y) {
        var c = compare(x.key, y.key);
        if (c !== 0 && x.key !== '' && y.key !== '' && !ascending) c = -c;
        return c || x.index - y.index;
      });
      var fragment = document.createDocumentFragment();
      keyed.forEach(function (k) { fragment.appendChild(k.row); });
      body.appendChild(fragment);
      headers.forEach(function (th, i) {
        th.setAttribute('aria-sort', i === column ? (ascending ? 'ascending' : 'descending') : 'none');
      });
    }
    headers.forEach(function (th, column) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (th.firstChild) button.appendChild(th.firstChild);
      button.title = 'Sort by this column';
      th.appendChild(button);
      th.setAttribute('aria-sort', 'none');
      button.addEventListener('click', function () { sortBy(column); });
    });
  }
  function filterable(table) {
    var body = table.tBodies[0];
    if (!body) return;
    var rows = Array.prototype.slice.call(body.rows);
    var texts = null;
    var box = document.createElement('div');
    box.className = 'filters table-filter';
    var label = document.createElement('label');
    label.textContent = 'Filter ';
    var input = document.createElement('input');
    input.type = 'search';
    input.setAttribute('aria-label', 'Filter rows');
    label.appendChild(input);
    var count = document.createElement('span');
    count.className = 'note table-count';
    count.setAttribute('aria-live', 'polite');
    box.appendChild(label);
    box.appendChild(count);
    var anchor = table.parentNode && table.parentNode.classList.contains('scroll') ? table.parentNode : table;
    anchor.parentNode.insertBefore(box, anchor);
    function apply() {
      var needle = input.value.trim().toLowerCase();
      if (needle !== '' && texts === null)
        texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
      var shown = 0;
      rows.forEach(function (row, i) {
        var visible = needle === '' || texts[i].indexOf(needle) >= 0;
        row.hidden = !visible;
        if (visible) shown++;
      });
      count.textContent = shown + ' of ' + rows.length + ' rows shown';
    }
    input.addEventListener('input', apply);
    apply();
  }
  Array.prototype.slice.call(document.querySelectorAll('main table')).forEach(function (table) {
    if (table.getAttribute('data-controls') === 'own') return; // the detections draw their own
    sortable(table);
    if (table.id !== 'timeline-table') filterable(table);
  });
})();
`;

/** The look of the controls above, appended to the page's one stylesheet. */
export const TABLE_STYLE = `
th[aria-sort] { padding: 0; }
th button.sort { all: unset; display: block; box-sizing: border-box; width: 100%; padding: 3px 18px 3px 8px; cursor: pointer; position: relative; font-weight: 600; }
th button.sort:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
th button.sort::after { content: "\\2195"; position: absolute; right: 5px; color: var(--muted); font-weight: 400; }
th[aria-sort="ascending"] button.sort::after { content: "\\2191"; color: var(--fg); }
th[aria-sort="descending"] button.sort::after { content: "\\2193"; color: var(--fg); }
.table-filter { margin: 4px 0 6px; }
`;
