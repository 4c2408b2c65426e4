// The site's service worker, for Web Push only (notifications/push.py): it shows each push as
// a system notification and opens (or focuses) the page it links to when clicked. Served from
// /notifications/push/sw.js with the scope "/" (notifications/views.py: service_worker).
"use strict";

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(data.title || "", {
    body: data.body || "",
    tag: data.tag || undefined,
    icon: "/static/img/favicon.svg",
    data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].url === url && "focus" in list[i]) return list[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});
