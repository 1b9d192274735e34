/* What the site's scripts share: static/js/scorepad.js, offline.js and watch.js on the
   pages, and the service worker (templates/sw.js imports this file), so nothing here may
   touch a page when it runs. Loaded before them (templates/base.html). */
(function (scope) {
  "use strict";
  var shared = scope.Scorekeeper = scope.Scorekeeper || {};

  // a proxy's answers that say "not now": too many requests from this address (nginx's
  // rate limit: the app never saw the request), or the app is down behind it. No answer
  // from the app, then: what was sent is sent again, never taken for the app's refusal
  var NOT_NOW = [429, 502, 503, 504];
  shared.notNow = function (status) { return NOT_NOW.indexOf(status) >= 0; };

  // said by the page's announcer (#announcer, role=status), which stays on the page: a
  // live region that appears with its words is not read. Emptied first, so that the same
  // words twice are news twice
  shared.announce = function (words) {
    var announcer = document.getElementById("announcer");
    if (!announcer || !words) { return; }
    announcer.textContent = "";
    setTimeout(function () { announcer.textContent = words; }, 100);
  };
})(self);
