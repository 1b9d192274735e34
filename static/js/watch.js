// The public (watcher's) page: htmx fetches the scorepad again every 5 s and swaps it
// whole, which a screen reader does not read out. When the table moved on (#live's
// data-version went up), #announcer, which stays on the page, says what changed: the
// last placement's award and the scores. (Once the match is over, the poll loads the
// match's own page instead.) Nothing here decides a rule; the words are the page's own.
(function () {
  "use strict";

  function text(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function scores() {
    var board = document.querySelector("#scorepad .scoreboard");
    if (!board) { return ""; }
    var sides = Array.prototype.map.call(board.querySelectorAll(".side"), function (side) {
      return text(side.querySelector(".side-names")) + " " + text(side.querySelector(".score"));
    });
    return board.getAttribute("aria-label") + ": " + sides.join(", ") + ".";
  }

  function state() {
    return {
      version: Scorekeeper.versionOf(document),
      award: text(document.getElementById("last-award")),
      scores: scores(),
    };
  }

  // a refresh with no answer: the page says its scores may be behind, once, and stops
  // saying it when a refresh comes again
  function stale(shown) {
    var note = document.getElementById("watch-stale");
    if (!note || note.hidden === !shown) { return; }
    note.hidden = !shown;
    if (shown) { Scorekeeper.announce(text(note)); }
  }
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function () { stale(true); });
  });
  // the app down behind nginx (502-504), or its rate limit (429): no answer either
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (Scorekeeper.notNow(status)) { stale(true); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) { stale(false); }
  });
  window.addEventListener("offline", function () { stale(true); });

  // a refresh answered after a later one is kept out (static/js/scorekeeper.js)
  Scorekeeper.keepNewest();
  var was = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.shouldSwap) { was = state(); }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!was) { return; }
    var now = state();
    var before = was;
    was = null;
    if (now.version === null || before.version === null || now.version <= before.version) {
      return;
    }
    var said = [];
    if (now.award && now.award !== before.award) { said.push(now.award); }
    if (now.scores !== before.scores) { said.push(now.scores); }
    Scorekeeper.announce(said.join(" "));
  });
})();
