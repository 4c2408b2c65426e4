// The browser tab says when games wait on you (issue 14), on every page: "(2) Your turn — …"
// in the title and a count on the favicon. The number comes with the header's bell (its htmx
// fragment carries data-waiting and, in the reader's language, data-label), so it costs no
// request of its own. The favicon is drawn on a canvas from the site's own icon (img-src
// allows data: URLs); without JavaScript the tab simply stays as it is.
(function () {
  "use strict";

  var original = null; // the page's own title, before any count
  var icon = null; // the <link rel="icon">, and its own address
  var plainIcon = null;
  var drawn = {}; // count -> data URL

  function drawIcon(count, done) {
    if (drawn[count]) { done(drawn[count]); return; }
    var img = new Image();
    img.onload = function () {
      var size = 64;
      var canvas = document.createElement("canvas");
      canvas.width = size;
      canvas.height = size;
      var ctx = canvas.getContext("2d");
      if (!ctx) return;
      ctx.drawImage(img, 0, 0, size, size);
      ctx.beginPath();
      ctx.arc(size * 0.7, size * 0.3, size * 0.3, 0, 2 * Math.PI);
      ctx.fillStyle = "#d8342c";
      ctx.fill();
      ctx.lineWidth = size * 0.05;
      ctx.strokeStyle = "#ffffff";
      ctx.stroke();
      ctx.fillStyle = "#ffffff";
      ctx.font = "bold " + Math.round(size * 0.4) + "px sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(count > 9 ? "9+" : String(count), size * 0.7, size * 0.32);
      drawn[count] = canvas.toDataURL("image/png");
      done(drawn[count]);
    };
    img.src = plainIcon;
  }

  function show(count, label) {
    if (original === null) original = document.title;
    icon = icon || document.querySelector("link[rel~='icon']");
    if (icon && plainIcon === null) plainIcon = icon.getAttribute("href");
    if (count > 0) {
      document.title = "(" + count + ") " + label + " — " + original;
      if (icon) {
        drawIcon(count, function (url) {
          icon.setAttribute("type", "image/png");
          icon.setAttribute("href", url);
          document.documentElement.setAttribute("data-tab-badge", String(count));
        });
      }
    } else {
      document.title = original;
      if (icon && plainIcon) {
        icon.setAttribute("type", "image/svg+xml");
        icon.setAttribute("href", plainIcon);
      }
      document.documentElement.removeAttribute("data-tab-badge");
    }
  }

  function read(root) {
    var el = root.querySelector ? root.querySelector("[data-waiting]") : null;
    if (!el) return;
    show(parseInt(el.getAttribute("data-waiting"), 10) || 0, el.getAttribute("data-label") || "");
  }

  document.addEventListener("htmx:afterSwap", function (e) {
    var bell = e.target && e.target.closest ? e.target.closest(".nav-bell") : null;
    if (bell) read(bell);
  });

  // A move of one's own (any htmx POST that went through, outside the bell) may end a wait:
  // the bell, and so the tab, is asked again at once rather than at its next minute.
  document.addEventListener("htmx:afterRequest", function (e) {
    var config = e.detail.requestConfig || {};
    var elt = e.detail.elt;
    if (!e.detail.successful || String(config.verb).toLowerCase() !== "post") return;
    if (elt && elt.closest && elt.closest(".nav-bell")) return;
    if (window.htmx) window.htmx.trigger(document.body, "waiting-changed");
  });
})();
