/* Keep the phone's screen on while a scorer's scorepad is open (a screen wake lock), so
   it does not go dark between taps at the table. Loaded by templates/matches/scorepad.html
   for scorers only. Released when the match is over: #live, swapped by htmx after each
   tap, then carries data-match-over. The browser drops the lock itself whenever the page
   is hidden; it is asked for again when the page is shown. Where the API is missing (or
   refused: battery saver, Permissions-Policy) nothing happens. */
(function () {
  "use strict";
  if (!("wakeLock" in navigator) || typeof navigator.wakeLock.request !== "function") {
    return;
  }
  var lock = null;
  var asking = false;

  function over() {
    return document.querySelector("#live[data-match-over]") !== null;
  }

  function request() {
    if (lock !== null || asking || over() || document.visibilityState !== "visible") {
      return;
    }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      if (typeof sentinel.addEventListener === "function") {
        sentinel.addEventListener("release", function () {
          if (lock === sentinel) {
            lock = null;
          }
        });
      }
      if (over()) { // the match ended while the browser was answering
        release();
      }
    }, function () {
      asking = false; // refused: the screen follows the phone's own settings
    });
  }

  function release() {
    if (lock === null) {
      return;
    }
    var sentinel = lock;
    lock = null;
    sentinel.release().catch(function () {});
  }

  function check() {
    if (over()) {
      release();
    } else {
      request();
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      check();
    } else {
      lock = null; // the browser released it: ask again when the page is back
    }
  });
  document.addEventListener("htmx:afterSettle", check);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", check);
  } else {
    check();
  }
})();
