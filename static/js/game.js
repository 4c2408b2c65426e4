// The game page's little bit of JavaScript: everything works without it (forms post and
// redirect); with it, moves are pushed (or polled for), deadlines count down and arrow keys
// step replays, focus stays on a sensible control after each swap, a live region says what
// changed, keys press the frequent buttons, and a deed's card opens in a dialog.
(function () {
  "use strict";

  // The poll waits while the player builds a trade, so that a refresh never wipes the offer
  // they are putting together. A field being typed in (a bid) does not hold it: the other
  // players' moves arrive, and what is typed is kept across the swap (keepFields, below).
  // (Not an hx-trigger filter: those are eval'd, and the Content-Security-Policy allows no
  // eval.) Cancelling htmx:confirm skips one poll.
  function gameIdle() {
    if (document.visibilityState === "hidden") return false;
    var game = document.getElementById("game");
    if (!game) return false;
    if (game.querySelector("details[data-hold-poll][open]")) return false;
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
      if (checkNow) { checkNow = false; return; }  // (a page shown again: below)
      if (!gameIdle()) { e.preventDefault(); return; }
      // While pushed to, a poll tick only fetches a version heard but not yet fetched, and
      // not while a request (that fetch itself, a move) is on its way.
      if (pushOpen && (!(heard > shownVersion()) || inFlight > 0)) e.preventDefault();
    }
  });

  // A game page shown again from the browser's page cache (Back, Forward) shows the position it
  // had when it was left: it asks for its version at once, not at the next poll tick (seconds
  // away, or none while the event stream reconnects).
  var checkNow = false;
  window.addEventListener("pageshow", function (e) {
    var game = document.getElementById("game");
    if (!e.persisted || !game || !game.hasAttribute("data-poll") || !window.htmx) return;
    checkNow = true;
    htmx.ajax("GET", game.getAttribute("hx-get"), { source: game, target: game, swap: "outerHTML" });
  });

  // A move's answer, and the poll's, hold only the parts that differ from what the page shows
  // (games/views/page/parts.py): the page sends the marks of what it shows, and each answer says
  // the new version and marks, which the page keeps on #game; the poll and the push ask from them.
  document.addEventListener("game:moved", function (e) {
    var game = document.getElementById("game");
    if (!game || !e.detail) return;
    if (e.detail.version) game.setAttribute("data-version", String(e.detail.version));
    if (e.detail.marks) game.setAttribute("data-marks", e.detail.marks);
  });
  function shownMarks(game) {
    return game.getAttribute("data-marks") || "1";
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt, game = document.getElementById("game");
    if (!game || !elt) return;
    if (elt.id === "game-push" || elt.hasAttribute("data-poll")) {
      e.detail.path = e.detail.path.replace(/([?&]v=)\d+/, "$1" + shownVersion());
      // Only what differs from what the page shows, as a move's answer (play.py: poll).
      e.detail.headers["X-Game-Parts"] = shownMarks(game);
    } else if (game.contains(elt) && e.detail.verb === "post") {
      e.detail.headers["X-Game-Parts"] = shownMarks(game);
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

  // ------------------------------------------------------------------------------------------
  // After a swap of #game (a move, a poll, a refusal): focus and the live region.
  // ------------------------------------------------------------------------------------------

  // What identifies a control across swaps: its id, else a move button's name, value and square
  // (the buttons of "Your properties" share names), else the <summary> of a <details> with an id.
  function keyOf(el) {
    if (!el || el === document.body || !el.matches) return null;
    if (el.id) return { id: el.id };
    if (el.matches("button[name]")) {
      var sq = el.form && el.form.querySelector("input[name=square]");
      return { name: el.name, value: el.value, square: sq ? sq.value : null,
               decision: !!el.closest("#decision") };
    }
    if (el.matches("summary") && el.parentElement && el.parentElement.id) return { summaryOf: el.parentElement.id };
    if (el.matches("[data-deed]")) return { deed: el.getAttribute("data-deed") };
    return null;
  }

  function findKey(game, key) {
    if (key.id) { var byId = document.getElementById(key.id); return byId && game.contains(byId) ? byId : null; }
    if (key.summaryOf) { var d = document.getElementById(key.summaryOf); return d && game.contains(d) ? d.querySelector("summary") : null; }
    if (key.deed) return game.querySelector('a[data-deed="' + key.deed + '"]');
    var buttons = game.querySelectorAll("button[name]");
    for (var i = 0; i < buttons.length; i++) {
      var b = buttons[i], sq = b.form && b.form.querySelector("input[name=square]");
      if (b.name === key.name && b.value === key.value && (sq ? sq.value : null) === key.square) return b;
    }
    return null;
  }

  // The next decision's first control, else the decision itself (#decision, tabindex -1).
  function decisionFocus() {
    var d = document.getElementById("decision");
    if (!d) return null;
    return d.querySelector(".choices button, .choices input:not([type=hidden]), .choices select, .offer button") || d;
  }

  // The trade meter's box (issue 30) is a polite live region that polls itself while its
  // estimate is refined: a poll that only moves the figures swaps in silence (aria-live off for
  // that swap); a screen reader hears the box again when its words change (the first figures,
  // a verdict reached, the final one, another trade's meter), each part's data-meter-say.
  function meterSay(root) {
    var el = root.querySelector("[data-meter-say]");
    return el ? el.getAttribute("data-meter-say") : null;
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    var box = e.detail.target;
    if (!box || !box.classList || !box.classList.contains("trade-meter")) return;
    var said = meterSay(box);
    var m = /data-meter-say="([^"]*)"/.exec(e.detail.serverResponse || "");
    var next = m ? m[1].replace(/&amp;/g, "&").replace(/&#39;/g, "'").replace(/&quot;/g, '"') : null;
    // (Set before every swap of the box, and left so until the next: a screen reader may look at
    // the region a moment after the change.)
    box.setAttribute("aria-live", said !== null && said === next ? "off" : "polite");
  });

  var swap = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var game = document.getElementById("game");
    var target = e.detail.target;
    // (Only the whole game's swap: the trade preview and "Older moves" swap a part and keep focus.)
    if (!game || target !== game) return;
    var a = document.activeElement;
    var inside = !!a && a !== document.body && game.contains(a);
    var config = e.detail.requestConfig || {};
    swap = { inside: inside, key: inside ? keyOf(a) : null, move: config.verb === "post",
             fields: config.verb === "post" ? [] : typedFields(game, a) };
  });

  // What the player is typing survives a fetched update (a poll, a push; not their own move,
  // whose answer holds the fields' new values): each field with an id that they changed, and
  // the focused one, is put back in place of its fresh copy, the fresh copy's attributes
  // (bounds, default value) taken over. The node itself goes back, so its value, its caret and
  // selection stay as they were, in a number box too (whose caret a script cannot read).
  function typedFields(game, active) {
    var kept = [];
    game.querySelectorAll("input[id], select[id], textarea[id]").forEach(function (f) {
      if (f.type === "hidden") return;
      var changed;
      if (f.type === "checkbox" || f.type === "radio") changed = f.checked !== f.defaultChecked;
      else if (f.tagName === "SELECT") {
        changed = Array.prototype.some.call(f.options, function (o) { return o.selected !== o.defaultSelected; });
      } else changed = f.typedIn === true || f.value !== f.defaultValue;
      var caret = null;
      try { if (f === active && f.selectionStart !== null) caret = [f.selectionStart, f.selectionEnd, f.selectionDirection]; } catch (e) { caret = null; }
      if (changed || f === active) kept.push({ field: f, changed: changed, caret: caret });
    });
    return kept;
  }

  document.addEventListener("input", function (e) {
    var f = e.target;
    if (f && f.closest && f.closest("#game")) f.typedIn = true;
  });

  function keepFields(kept) {
    kept.forEach(function (k) {
      var old = k.field, fresh = document.getElementById(old.id);
      if (!fresh || fresh === old || old.isConnected || fresh.tagName !== old.tagName || fresh.type !== old.type) return;
      if (!k.changed) return;  // (untouched: the fresh one, with its new default, is right)
      Array.prototype.slice.call(old.attributes).forEach(function (at) { old.removeAttribute(at.name); });
      Array.prototype.forEach.call(fresh.attributes, function (at) { old.setAttribute(at.name, at.value); });
      if (old.tagName === "SELECT") {
        // (Its options may have changed: keep the choice if it is still offered.)
        var chosen = old.value;
        old.innerHTML = fresh.innerHTML;
        if (Array.prototype.some.call(old.options, function (o) { return o.value === chosen; })) old.value = chosen;
      }
      fresh.replaceWith(old);
      if (k.caret) { old.focus(); old.setSelectionRange(k.caret[0], k.caret[1], k.caret[2]); }
    });
  }

  document.addEventListener("htmx:afterSettle", function () {
    var s = swap;
    swap = null;
    var game = document.getElementById("game");
    if (!s || !game) return;
    keepFields(s.fields);
    announce(game, true);
    labelShortcuts(game);
    // Focus was elsewhere (the chat, the header): a poll leaves it there.
    if (!s.inside || document.querySelector("dialog[open]")) return;
    var el = null;
    // After a move made from the decision, its next decision; else the same control again.
    if (s.key && !(s.move && s.key.decision)) el = findKey(game, s.key);
    el = el || decisionFocus();
    if (el) el.focus();
  });

  // The live region: what the newest log entries say (those the page had not shown yet), then the
  // decision if it changed. Cleared first, so that the same words twice are said twice.
  var seen = { seq: null, decision: null };
  function announce(game, speak) {
    var region = document.getElementById("game-announcer");
    var entries = game.querySelectorAll(".log-list .log-entry");
    var parts = [];
    var newest = null;
    for (var i = 0; i < entries.length && i < 6; i++) {
      var seqEl = entries[i].querySelector(".log-seq");
      var seq = seqEl ? parseInt(seqEl.textContent, 10) : NaN;
      if (isNaN(seq)) continue;
      if (newest === null) newest = seq;
      if (seen.seq === null || seq <= seen.seq) break;
      var lines = [];
      entries[i].querySelectorAll(".log-text p").forEach(function (p) { lines.push(p.textContent.trim()); });
      parts.unshift(sentences(lines));
    }
    if (newest !== null) seen.seq = newest;
    var d = game.querySelector(".decision-text");
    var text = d ? d.textContent.trim() : "";
    if (text && text !== seen.decision) parts.push(text);
    seen.decision = text;
    if (speak && region && parts.length) say(region, sentences(parts));
  }

  // Sentences said one after the other: a full stop between two only where the first has none
  // of its own ("Alice buys Boardwalk. Bob to roll", never "Boardwalk.. Bob").
  function sentences(list) {
    var out = "";
    list.forEach(function (s) {
      s = (s || "").trim();
      if (!s) return;
      if (out) out += /[.!?:…»”)]$/.test(out) ? " " : ". ";
      out += s;
    });
    return out;
  }

  // A replay's step, once shown (an arrow key, a button, the slider): where it is and what the
  // move did, in the replay's live region.
  document.addEventListener("htmx:afterSettle", function () {
    var replay = document.getElementById("replay");
    var region = document.getElementById("replay-announcer");
    if (!replay || !region) return;
    var parts = [];
    [".replay-step", ".replay-turn", ".replay-action"].forEach(function (sel) {
      var el = replay.querySelector(sel);
      if (el) parts.push(el.textContent.replace(/\s+/g, " ").trim());
    });
    replay.querySelectorAll(".replay-events li").forEach(function (li) { parts.push(li.textContent.trim()); });
    say(region, sentences(parts));
  });

  function say(region, text) {
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 100);
  }

  // ------------------------------------------------------------------------------------------
  // Shortcut keys: each presses the button it names when the game offers it (the list is in the
  // "Keyboard shortcuts" dialog, game_dialogs.html); never while typing in a field.
  // ------------------------------------------------------------------------------------------
  var SHORTCUTS = { r: "roll", b: "buy", d: "decline", e: "end_turn", p: "pass" };

  function shortcutButton(game, type) {
    return game.querySelector('#decision button[name=type][value="' + type + '"]');
  }

  function labelShortcuts(game) {
    Object.keys(SHORTCUTS).forEach(function (k) {
      var b = shortcutButton(game, SHORTCUTS[k]);
      if (b) b.setAttribute("aria-keyshortcuts", k);
    });
    var bid = game.querySelector("#bid-amount");
    if (bid) bid.setAttribute("aria-keyshortcuts", "a");
  }

  function typing(el) {
    return !!el && el.matches && (el.matches("input, select, textarea") || el.isContentEditable);
  }

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    if (document.querySelector("dialog[open]")) return;  // (Escape closes it: the browser's own)
    // Enter on a focused deed square (a tap focuses it) opens its card, as a click does.
    if (e.key === "Enter" && e.target.matches && e.target.matches("#game .sq[data-deed]")) {
      if (openDeed(e.target.getAttribute("data-deed"), e.target)) e.preventDefault();
      return;
    }
    var game = document.getElementById("game");
    if (!game) return;
    var key = e.key;
    if (key === "?") {
      var help = document.getElementById("shortcut-help");
      if (help) { e.preventDefault(); openDialog(help, document.activeElement); }
      return;
    }
    key = key.length === 1 ? key.toLowerCase() : key;
    var el = null, press = false;
    if (SHORTCUTS[key]) { el = shortcutButton(game, SHORTCUTS[key]); press = true; }
    else if (key === "a") el = game.querySelector("#bid-amount");
    else if (key === "g") el = decisionFocus();  // (goes there only: never presses a button)
    else return;
    e.preventDefault();
    if (!el) {
      var region = document.getElementById("game-announcer");
      if (region) say(region, region.getAttribute("data-unavailable"));
    } else if (press) {
      el.focus();
      el.click();
    } else {
      el.focus();
      if (el.select) el.select();
    }
  });

  // ------------------------------------------------------------------------------------------
  // Dialogs (<dialog>: the browser keeps focus inside a modal one and closes it on Escape): the
  // shortcut list and a deed's card. Closing one puts focus back where it was.
  // ------------------------------------------------------------------------------------------
  function openDialog(dialog, opener) {
    dialog.returnTo = opener && opener !== document.body ? opener : null;
    if (!dialog.open) dialog.showModal();
    var first = dialog.querySelector("[data-close]");
    if (first) first.focus();
  }

  document.addEventListener("close", function (e) {
    var dialog = e.target;
    if (!dialog.matches || !dialog.matches("dialog.game-dialog")) return;
    var back = dialog.returnTo;
    var game = document.getElementById("game");
    // (A swap while it was open may have replaced the control it came from.)
    if (back && !back.isConnected && game) back = findKey(game, keyOf(back) || {}) || null;
    if (back && back.isConnected) back.focus();
    else if (game) { var d = decisionFocus(); if (d) d.focus(); }
  }, true);

  function openDeed(sq, opener) {
    var dialog = document.getElementById("deed-dialog");
    if (!dialog || !window.htmx) return false;
    var body = dialog.querySelector("[data-deed-body]");
    var url = dialog.getAttribute("data-url").replace(/0\/$/, sq + "/");
    body.textContent = dialog.getAttribute("data-loading");
    openDialog(dialog, opener);
    window.htmx.ajax("get", url, { target: body, swap: "innerHTML" }).then(function () {
      if (!body.querySelector(".deed-card")) dialog.close();
    });
    return true;
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    var opener = e.target.closest("[data-open-dialog]");
    if (opener) {
      var dialog = document.getElementById(opener.getAttribute("data-open-dialog"));
      if (dialog) { e.preventDefault(); openDialog(dialog, opener); }
      return;
    }
    // A click on the backdrop (outside the dialog's box) closes it, as Escape does.
    if (e.target.matches("dialog.game-dialog[open]")) {
      var r = e.target.getBoundingClientRect();
      if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) e.target.close();
      return;
    }
    var deed = e.target.closest("#game [data-deed]");
    if (!deed || e.target.closest(".sq-pick")) return;  // (a highlighted square picks, not opens)
    var focusable = deed.matches("a") ? deed : null;
    if (openDeed(deed.getAttribute("data-deed"), focusable || document.activeElement)) e.preventDefault();
  });

  document.addEventListener("DOMContentLoaded", function () {
    var game = document.getElementById("game");
    if (!game) return;
    announce(game, false);
    labelShortcuts(game);
    document.querySelectorAll("[data-open-dialog]").forEach(function (b) { b.hidden = false; });
  });

  // The trade builder is not redrawn by a move's answer when only its contents change (cash,
  // deeds: page/parts.py): opened on a page that has moved on since it was drawn, it is fetched
  // afresh (the tools slot alone), comes back open, and focus goes back to its summary.
  // ("toggle" does not bubble: listened for in the capture phase.)
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d || d.id !== "trade" || !d.open || !d.hasAttribute("data-refresh")) return;
    if (!(parseInt(d.getAttribute("data-version"), 10) < shownVersion())) return;
    var url = d.getAttribute("data-refresh");
    var hadFocus = d.contains(document.activeElement);
    d.removeAttribute("data-refresh");  // (one fetch, however often it is toggled meanwhile)
    // Until the fresh one is in, the old contents can be seen (dimmed) but not used: ticks and
    // cash typed into them would be lost with them.
    d.setAttribute("aria-busy", "true");
    Array.prototype.forEach.call(d.children, function (c) { if (c.tagName !== "SUMMARY") c.inert = true; });
    htmx.ajax("GET", url, { target: "#game-tools", swap: "outerHTML" }).then(function () {
      var fresh = document.querySelector("#trade summary");
      if (fresh && hadFocus) fresh.focus();
    });
  }, true);

  // Replays: the left and right arrow keys step through the moves, Page Up and Page Down
  // through the turns.
  document.addEventListener("keydown", function (e) {
    if (e.target.matches && e.target.matches("input, select, textarea")) return;
    var link = document.querySelector('.replay-nav [data-key="' + e.key + '"]');
    if (link) { e.preventDefault(); link.click(); }
  });
})();
