/**
 * The page's one stylesheet and one script, inlined and allowed by their SHA-256 in the CSP
 * (no 'unsafe-inline'). The script only filters the key event timeline: rows carry their
 * category and importance rank as data attributes, so the page reads fine without it.
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
#timeline-table td:nth-child(-n+4) { white-space: nowrap; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; white-space: pre-wrap; word-break: break-word; }
.chart text { font-size: 11px; fill: var(--fg); }
.chart .bar rect { fill: var(--accent); }
.graph { overflow: auto; border: 1px solid var(--line); max-height: 900px; background: #fff; }
.filters { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: center; margin: 6px 0 10px; }
.filters label { color: var(--muted); }
.badge { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: 11.5px; font-weight: 600; color: #fff; background: #7a8594; }
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
`;

export const SCRIPT = `
(function () {
  var category = document.getElementById('tl-category');
  var importance = document.getElementById('tl-importance');
  var text = document.getElementById('tl-text');
  var count = document.getElementById('tl-count');
  if (!category || !importance || !text || !count) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll('#timeline-table tbody tr'));
  function apply() {
    var shown = 0;
    var min = Number(importance.value);
    var needle = text.value.trim().toLowerCase();
    rows.forEach(function (row) {
      var visible = (category.value === '' || row.getAttribute('data-category') === category.value) &&
        Number(row.getAttribute('data-rank')) >= min &&
        (needle === '' || row.textContent.toLowerCase().indexOf(needle) >= 0);
      row.hidden = !visible;
      if (visible) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' key events shown';
  }
  category.addEventListener('change', apply);
  importance.addEventListener('change', apply);
  text.addEventListener('input', apply);
  apply();
})();
`;
