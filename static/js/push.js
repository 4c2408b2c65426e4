// The notification settings' "browser notifications" switch (Web Push, notifications/push.py).
// Where the browser has no push support, or the site no VAPID key, the section stays hidden:
// e-mail is the reliable path and needs none of this. Its words come from the page's data-*
// attributes, in the reader's language.
(function () {
  "use strict";

  var box = document.querySelector("[data-push]");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  var button = box.querySelector("[data-push-toggle]");
  var status = box.querySelector("[data-push-status]");
  var csrf = (document.querySelector("[name=csrfmiddlewaretoken]") || {}).value || "";

  function key(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function say(name) { status.textContent = box.getAttribute("data-" + name) || ""; }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body)
    }).then(function (r) {
      if (r.ok) return r;
      // The site's own words for a refusal (too many browsers, another account's), if it gave any.
      return r.json().catch(function () { return {}; }).then(function (answer) {
        var error = new Error("HTTP " + r.status);
        error.words = answer && answer.error;
        throw error;
      });
    });
  }

  function show(subscribed) {
    box.hidden = false;
    button.textContent = box.getAttribute(subscribed ? "data-turn-off" : "data-turn-on");
    button.setAttribute("aria-pressed", subscribed ? "true" : "false");
    say(subscribed ? "on" : "off");
  }

  var registration = null;
  navigator.serviceWorker.register(box.getAttribute("data-worker"), { scope: "/" }).then(function (reg) {
    registration = reg;
    return reg.pushManager.getSubscription();
  }).then(function (sub) { show(!!sub); }).catch(function () { box.hidden = true; });

  button.addEventListener("click", function () {
    if (!registration) return;
    button.disabled = true;
    registration.pushManager.getSubscription().then(function (sub) {
      if (sub) {
        return post(box.getAttribute("data-unsubscribe"), { endpoint: sub.endpoint })
          .then(function () { return sub.unsubscribe(); }).then(function () { show(false); });
      }
      return Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { say("denied"); return null; }
        return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(box.getAttribute("data-key")) })
          .then(function (s) {
            return post(box.getAttribute("data-subscribe"), s.toJSON()).catch(function (error) {
              // Refused by the site: the browser's subscription goes too, so that both agree.
              return s.unsubscribe().then(function () { throw error; }, function () { throw error; });
            });
          })
          .then(function () { show(true); });
      });
    }).catch(function (error) {
      if (error && error.words) { status.textContent = error.words; } else { say("failed"); }
    }).then(function () { button.disabled = false; });
  });
})();
