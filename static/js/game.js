// The game page's little bit of JavaScript: everything works without it (forms post and
// redirect); with it, htmx polls for moves, deadlines count down and arrow keys step replays.
(function () {
  "use strict";

  // The poll waits while the player is filling a form: typing a bid, or building a trade, so
  // that a refresh never wipes what they entered. (Not an hx-trigger filter: those are eval'd,
  // and the Content-Security-Policy allows no eval.) Cancelling htmx:confirm skips one poll.
  function gameIdle() {
    if (document.visibilityState === "hidden") return false;
    var game = document.getElementById("game");
    if (!game) return false;
    if (game.querySelector("details[data-hold-poll][open]")) return false;
    var a = document.activeElement;
    if (a && game.contains(a) && a.matches("input, select, textarea")) return false;
    return true;
  }
  document.addEventListener("htmx:confirm", function (e) {
    var elt = e.detail && e.detail.elt;
    if (elt && elt.hasAttribute("data-poll") && !gameIdle()) e.preventDefault();
  });

  function format(ms) {
    if (ms <= 0) return "0:00";
    var s = Math.floor(ms / 1000);
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d > 0) return d + " d " + h + " h";
    if (h > 0) return h + " h " + m + " min";
    var sec = s % 60;
    return m + ":" + (sec < 10 ? "0" : "") + sec;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[data-deadline]").forEach(function (el) {
      var t = Date.parse(el.getAttribute("datetime"));
      if (!isNaN(t)) el.textContent = format(t - now);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);

  // Replays: the left and right arrow keys step through the moves, Page Up and Page Down
  // through the turns.
  document.addEventListener("keydown", function (e) {
    if (e.target.matches && e.target.matches("input, select, textarea")) return;
    var link = document.querySelector('.replay-nav [data-key="' + e.key + '"]');
    if (link) { e.preventDefault(); link.click(); }
  });
})();
