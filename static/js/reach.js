// Issue 29: "n" anywhere on the site goes to the next game waiting on you (the header's link,
// #next-game-waiting), never while typing in a field or with a dialog open.
(function () {
  "use strict";
  function typing(el) {
    return !!el && el.matches && (el.matches("input, select, textarea") || el.isContentEditable);
  }
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    if (e.key !== "n" && e.key !== "N") return;
    if (document.querySelector("dialog[open]")) return;
    var link = document.getElementById("next-game-waiting");
    if (!link) return;
    e.preventDefault();
    window.location.assign(link.href);
  });
})();
