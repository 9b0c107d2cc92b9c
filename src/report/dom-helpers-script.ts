/**
 * What the report's inline scripts (detections-script.ts, graph-tree-script.ts) both use, written
 * once and placed inside each (each is its own function scope): `el` makes an element with a
 * class and text (DOM and `textContent` only), `two` pads a date part.
 */
export const DOM_HELPERS = `  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function two(n) { return n < 10 ? '0' + n : String(n); }
`;
