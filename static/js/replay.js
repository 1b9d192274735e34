// The finished match's replay (templates/matches/match.html), a file rather than an
// inline script because the Content-Security-Policy runs no inline code.
(function () {
  "use strict";

  // Step through the replay with the keyboard (← → Home End) and by swiping the board.
  // Each does what its link does: the links work without JavaScript, and with htmx they
  // swap only #replay.
  document.addEventListener("DOMContentLoaded", function () {
    var KEYS = {ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last"};
    function go(key) {
      var link = document.querySelector('#replay a[data-nav="' + key + '"]');
      if (!link || link.getAttribute("aria-disabled") === "true") { return; }
      // a key pressed just after a swap may come before htmx wires the new links (it does
      // on settling): wired now, the link swaps #replay instead of loading a new page
      if (window.htmx) { htmx.process(link); }
      link.click();  // sets `used`
    }
    // Only while the focus is in the replay: elsewhere the keys keep their own work
    // (scrolling a wide table or the page, moving in a field).
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
      if (!target || !target.closest || !target.closest("#replay")) { return; }
      var key = KEYS[event.key];
      if (!key) { return; }
      event.preventDefault();
      go(key);
    });
    // htmx swaps #replay whole, so the link just used is gone: the focus goes back to the
    // new one of the same kind (a step, or a round's), and #replay-announcer (outside the
    // swap) reads the step.
    var used = null;  // a selector of the link used
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest(
        "#replay a[data-nav], #replay a[data-round-link]");
      if (!link) { return; }
      used = link.hasAttribute("data-nav")
        ? '#replay a[data-nav="' + link.getAttribute("data-nav") + '"]'
        : '#replay a[data-round-link="' + link.getAttribute("data-round-link") + '"]';
    });
    // afterSwap, not afterSettle: in the same task as the swap, so a key pressed next
    // already finds the focus in the replay
    document.addEventListener("htmx:afterSwap", function () {
      if (!document.getElementById("replay")) { return; }
      if (used) {
        var again = document.querySelector(used);
        if (again) { again.focus({preventScroll: true}); }
        used = null;
      }
      var step = document.getElementById("replay-step");
      var announcer = document.getElementById("replay-announcer");
      if (step && announcer) { announcer.textContent = step.textContent.replace(/\s+/g, " ").trim(); }
    });
    var startX = null, startY = null;
    document.addEventListener("touchstart", function (event) {
      var touch = event.changedTouches[0];
      if (!event.target.closest || !event.target.closest("#replay .board-wrap")) { startX = null; return; }
      startX = touch.clientX; startY = touch.clientY;
    }, {passive: true});
    document.addEventListener("touchend", function (event) {
      if (startX === null) { return; }
      var touch = event.changedTouches[0];
      var dx = touch.clientX - startX, dy = touch.clientY - startY;
      startX = null;
      // a swipe across, not a scroll down the page: left goes forward, right goes back
      if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) { go(dx < 0 ? "forward" : "back"); }
    }, {passive: true});
  });
})();
