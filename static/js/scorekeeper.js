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

  // -- the newest table stays ---------------------------------------------------------
  // Answers may come in another order than their requests: a re-read of the table asked
  // for just before a tap can be answered after the tap's answer. Every answer that
  // draws the table carries the match version it shows (#live's data-version: one more
  // with every write, undo and restore included), so one older than the table the page
  // shows is not swapped in: the page already has something newer.
  shared.versionOf = function (root) {
    var live = root && root.querySelector("#live[data-version]");
    var version = live ? parseInt(live.getAttribute("data-version"), 10) : NaN;
    return isNaN(version) ? null : version;
  };
  // the version an answer's HTML shows, or null (an answer that is not the table);
  // parsed in an inert template: nothing in it runs or loads
  shared.versionIn = function (html) {
    if (typeof html !== "string" || html.indexOf("data-version") < 0) { return null; }
    var holder = document.createElement("template");
    holder.innerHTML = html;
    return shared.versionOf(holder.content);
  };

  // Called once by a page that swaps the table (scorepad.js, watch.js); it listens first
  // (capturing), so the page's own listeners see detail.shouldSwap false for an answer
  // kept out. A read answered while a tap is still awaited is kept out too, if its swap
  // would take away the part of the page the tap's answer goes to: htmx would put that
  // answer in a part no longer shown, and the page would stay on the read's older table.
  // Should the tap's answer not come (or not be swapped in), ``readAgain`` asks the
  // server for the table again.
  shared.keepNewest = function (readAgain) {
    var awaited = [];  // the targets of the writes sent and not yet answered
    var keptOut = null;  // the newest version a read brought while they were awaited
    document.addEventListener("htmx:beforeSend", function (event) {
      var config = event.detail.requestConfig;
      var xhr = event.detail.xhr;
      if (!config || config.verb === "get" || !xhr) { return; }
      var target = event.detail.target;
      awaited.push(target);
      // after htmx's own handling of the answer (its swap), whatever came of it
      xhr.addEventListener("loadend", function () {
        awaited.splice(awaited.indexOf(target), 1);
        if (awaited.length || keptOut === null) { return; }
        var shown = shared.versionOf(document);
        var brought = keptOut;
        keptOut = null;
        if (readAgain && (shown === null || shown < brought)) { readAgain(); }
      });
    }, true);
    document.addEventListener("htmx:beforeSwap", function (event) {
      var detail = event.detail;
      if (!detail.shouldSwap) { return; }
      var shown = shared.versionOf(document);
      var incoming = shown === null ? null : shared.versionIn(detail.serverResponse);
      if (incoming === null) { return; }
      if (incoming < shown) {
        detail.shouldSwap = false;
        return;
      }
      var read = detail.requestConfig && detail.requestConfig.verb === "get";
      var target = detail.target;
      if (read && target && awaited.some(function (el) {
        return document.contains(el) && target.contains(el);
      })) {
        detail.shouldSwap = false;
        keptOut = keptOut === null ? incoming : Math.max(keptOut, incoming);
      }
    }, true);
  };
})(self);
