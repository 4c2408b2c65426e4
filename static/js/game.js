// The game page's little bit of JavaScript: everything works without it (forms post and
// redirect); with it, moves are pushed (or polled for), deadlines count down and arrow keys
// step replays.
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
  // Push (issue 12): with an event stream open (htmx's SSE extension on #game-live), each
  // "version" event fetches the game only if it is newer than the page; the poll then waits,
  // and takes over while the stream is down (no Redis on the site, a dropped connection: the
  // extension reconnects). A version heard while the player is busy, or while one of the page's
  // own requests is on its way, is fetched later, by the next poll tick.
  var pushOpen = false, heard = 0, inFlight = 0;
  function shownVersion() {
    var game = document.getElementById("game");
    return game ? parseInt(game.getAttribute("data-version"), 10) || 0 : 0;
  }
  function setPush(open) {
    pushOpen = open;
    var live = document.getElementById("game-live");
    if (live) live.setAttribute("data-push", open ? "open" : "closed");
  }
  document.addEventListener("htmx:sseOpen", function () { setPush(true); });
  document.addEventListener("htmx:sseError", function () { setPush(false); });
  document.addEventListener("htmx:sseClose", function () { setPush(false); });
  document.addEventListener("htmx:beforeRequest", function () { inFlight++; });
  document.addEventListener("htmx:afterRequest", function () {
    inFlight = Math.max(0, inFlight - 1);
    // A version heard while this request was on its way: fetch it once the answer is in.
    window.setTimeout(function () {
      var push = document.getElementById("game-push");
      if (push && pushOpen && inFlight === 0 && heard > shownVersion() && gameIdle()) {
        htmx.trigger(push, "sse:version", { data: String(heard) });
      }
    }, 50);
  });

  document.addEventListener("htmx:confirm", function (e) {
    var elt = e.detail && e.detail.elt;
    if (!elt) return;
    if (elt.id === "game-push") {
      var trig = e.detail.triggeringEvent, msg = trig && trig.detail;
      var v = msg && parseInt(msg.data, 10);
      if (v > heard) heard = v;
      // Our own move's answer, or a fetch, may be on its way with this very version.
      if (!(heard > shownVersion()) || inFlight > 0 || !gameIdle()) e.preventDefault();
      return;
    }
    if (elt.hasAttribute("data-chat-poll")) {
      // The chat's lines: fetched on a "chat" event; their timer only while the stream is down.
      var t = e.detail.triggeringEvent;
      if (pushOpen && !(t && t.type === "sse:chat")) e.preventDefault();
      return;
    }
    if (elt.hasAttribute("data-poll")) {
      if (!gameIdle()) { e.preventDefault(); return; }
      // While pushed to, a poll tick only fetches a version heard but not yet fetched, and
      // not while a request (that fetch itself, a move) is on its way.
      if (pushOpen && (!(heard > shownVersion()) || inFlight > 0)) e.preventDefault();
    }
  });

  // A move's answer holds only the parts that changed (games/views/move_parts.py): it says the
  // new version, which the page keeps on #game; the poll and the push ask from that version.
  document.addEventListener("game:moved", function (e) {
    var game = document.getElementById("game");
    if (game && e.detail && e.detail.version) game.setAttribute("data-version", String(e.detail.version));
  });
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt, game = document.getElementById("game");
    if (!game || !elt) return;
    if (elt.id === "game-push" || elt.hasAttribute("data-poll")) {
      e.detail.path = e.detail.path.replace(/([?&]v=)\d+/, "$1" + shownVersion());
    } else if (game.contains(elt) && e.detail.verb === "post") {
      e.detail.headers["X-Game-Parts"] = "1";
      // A panel that a move's answer left as it was still holds the version it was drawn at;
      // what the player sees is the page's version.
      if (e.detail.parameters.version !== undefined) e.detail.parameters.version = String(shownVersion());
    }
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

  // Replays: the left and right arrow keys step through the moves.
  document.addEventListener("keydown", function (e) {
    if (e.target.matches && e.target.matches("input, select, textarea")) return;
    var link = document.querySelector('.replay-nav [data-key="' + e.key + '"]');
    if (link) { e.preventDefault(); link.click(); }
  });
})();
