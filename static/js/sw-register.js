/* Registers the service worker (/sw.js, templates/sw.js) on every page, so the phone
   keeps the app shell and the scorepads it opens for when there is no connection. The
   worker's address comes from the page (data-sw on this script). Browsers without
   service workers, or pages outside a secure context, just work online. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  var url = script.dataset.sw;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url).catch(function () {
      // private windows and some settings refuse workers: the site works online anyway
    });
  });
})();
