// The site's JavaScript for every page (the Content-Security-Policy allows no inline script):
// the error bar of htmx requests, and small helpers of some pages. Pages work without it.
(function () {
  "use strict";

  // ------------------------------------------------------------------------------------------
  // When an htmx request fails (a 5xx, a 429, no network), htmx swaps nothing in and the click
  // would seem to do nothing: the bar says what happened and offers to send it again. Its words
  // come from base.html, in the reader's language.
  // ------------------------------------------------------------------------------------------
  var failed = null;

  function bar() { return document.getElementById("request-error"); }

  function show(kind, detail) {
    var el = bar();
    if (!el) return;
    failed = detail;
    el.querySelector("[data-text]").textContent = el.getAttribute("data-" + kind) || el.getAttribute("data-server");
    // A refusal (a 4xx other than 429) would only be refused again: reloading is the way out.
    var retryable = kind !== "refused";
    el.querySelector("[data-retry]").hidden = !retryable;
    el.querySelector("[data-reload]").hidden = retryable;
    el.hidden = false;
  }

  function hide() {
    var el = bar();
    if (el) el.hidden = true;
    failed = null;
  }

  document.addEventListener("htmx:responseError", function (e) {
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    var kind = status === 429 ? "busy" : status >= 500 ? "server" : "refused";
    show(kind, e.detail);
  });
  document.addEventListener("htmx:sendError", function (e) { show("network", e.detail); });
  document.addEventListener("htmx:timeout", function (e) { show("network", e.detail); });

  // The same request answering again (a poll once the server is back) clears its own error.
  document.addEventListener("htmx:afterRequest", function (e) {
    if (failed && e.detail.successful && e.detail.elt === failed.elt) hide();
  });

  function retry() {
    var detail = failed;
    hide();
    if (!detail || !window.htmx) return;
    var config = detail.requestConfig || {};
    var source = detail.elt && detail.elt.isConnected ? detail.elt : null;
    var target = detail.target && detail.target.isConnected ? detail.target : null;
    if (!source || !target) {
      // What sent it was swapped away since: the page itself is the safe retry.
      window.location.reload();
      return;
    }
    // The same verb, address, values and target. A move carries the version it was made on,
    // so one that did go through the first time is refused as stale and the board refreshed.
    window.htmx.ajax(config.verb || "get", config.path, {
      source: source, target: target, values: config.formData, headers: config.headers
    });
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    if (e.target.closest("#request-error [data-retry]")) { e.preventDefault(); retry(); }
    else if (e.target.closest("#request-error [data-reload]")) { e.preventDefault(); window.location.reload(); }
    else if (e.target.closest("#request-error [data-dismiss]")) { e.preventDefault(); hide(); }
  });

  // ------------------------------------------------------------------------------------------
  // Small helpers, each active where its markup is.
  // ------------------------------------------------------------------------------------------

  // A read-only field with data-select-on-click (the invitation link) selects itself.
  document.addEventListener("click", function (e) {
    if (e.target.matches && e.target.matches("input[data-select-on-click]")) e.target.select();
  });

  // The invitation link's "Copy" button, shown only where the clipboard can be written.
  function revealCopy() {
    if (!navigator.clipboard) return;
    document.querySelectorAll("[data-copy]").forEach(function (b) { b.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", revealCopy);
  document.addEventListener("htmx:afterSwap", revealCopy);
  document.addEventListener("click", function (event) {
    if (!navigator.clipboard || !event.target.closest) return;
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.dataset.copy);
    if (!input) return;
    navigator.clipboard.writeText(input.value).then(function () {
      button.textContent = button.dataset.done || "✓";
    });
  });

  // Settings: offer the browser's own time zone as a one-click choice.
  document.addEventListener("DOMContentLoaded", function () {
    var hint = document.getElementById("browser-time-zone");
    var input = document.getElementById("id_time_zone");
    if (!hint || !input || !window.Intl) return;
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // (A zone the list does not offer, an old alias some browsers give, is not suggested.)
    var offered = !input.options || Array.prototype.some.call(input.options, function (o) { return o.value === zone; });
    if (!zone || input.value === zone || !offered) return;
    var button = hint.querySelector("[data-time-zone]");
    button.textContent = zone;
    button.addEventListener("click", function () { input.value = zone; });
    hint.hidden = false;
  });
})();
