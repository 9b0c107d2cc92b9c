/**
 * Collapsed sections open when something points into them, appended to the page's one script:
 * a link to a section (the header's navigation, a URL with `#id`) opens it, and any code that
 * scrolls to an element inside closed `<details>` calls `openAround` first (the graph's links to
 * table rows). Without the script every toggle still opens by hand.
 */
export const SECTIONS_SCRIPT = `
(function () {
  function openAround(node) {
    for (var d = node && node.closest ? node.closest('details') : null; d; d = d.parentElement ? d.parentElement.closest('details') : null)
      d.open = true;
  }
  window.taeOpenAround = openAround;
  function openHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    openAround(target);
    var body = target.querySelector(':scope > details.section-body');
    if (body) body.open = true;
  }
  window.addEventListener('hashchange', openHash);
  document.addEventListener('click', function (e) {
    var a = e.target && e.target.closest ? e.target.closest('a[href^="#"]') : null;
    if (a) setTimeout(openHash, 0);
  });
  openHash();
})();
`;
