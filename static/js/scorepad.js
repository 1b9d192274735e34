// The scorer's page at the table. The server sends every playable tile's ends with the
// sum and points each would make, so choosing a tile asks nothing of it: only the
// placement is a request. Nothing here decides a rule; the numbers come from the page,
// except the called round's preview (showCalled), which adds the ends the scorer keyed in
// (a double's two halves both) and looks the sum up in the points and the room the server
// gave; what counts is the server's own check of the entry.
(function () {
  "use strict";

  var script = document.getElementById("scorepad-script");
  var syncUrl = script ? script.dataset.syncUrl : location.pathname;

  // -- choosing a tile: the ends it may join appear in the bar, under the thumb --------

  function selectTile(tile) {
    var form = document.getElementById("place-form");
    if (!form) { return; }
    var set = form.querySelector('.choice-set[data-for="' + tile + '"]');
    document.querySelectorAll(".pick.selected").forEach(function (el) {
      el.classList.remove("selected");
      el.removeAttribute("aria-current");
    });
    var pick = document.querySelector('a.pick[data-tile="' + tile + '"]');
    if (pick) {
      pick.classList.add("selected");
      pick.setAttribute("aria-current", "true");
    }
    form.querySelectorAll(".choice-set").forEach(function (el) { el.hidden = el !== set; });
    form.querySelector(".pick-hint").hidden = true;
    var refused = form.querySelector(".pick-refused");
    refused.hidden = !!set;
    // the page gives the words in its language, "{tile}" standing for the tile
    refused.textContent = set ? "" : (refused.dataset.refusedText || "{tile} has no open end to join.")
      .replace("{tile}", tile);
    if (set) { refused.removeAttribute("role"); } else { refused.setAttribute("role", "alert"); }
    form.elements.tile.value = set ? tile : "";
    markTargets(set);
  }

  // the open ends the chosen tile may join light up on the board and take a tap too
  function markTargets(set) {
    var points = {};
    if (set) {
      set.querySelectorAll("button.choice").forEach(function (b) { points[b.dataset.point] = b; });
    }
    document.querySelectorAll(".board .open-end").forEach(function (dot) {
      dot.classList.toggle("target", !!points[dot.dataset.point]);
    });
  }

  document.addEventListener("click", function (event) {
    var pick = event.target.closest("a.pick[data-tile]");
    if (pick && document.getElementById("place-form")) {
      event.preventDefault();
      selectTile(pick.dataset.tile);
      // chosen by the keyboard (a click with no pointer: detail 0): the ends it may join
      // are the next thing to do, so the focus goes to the first, in the bar
      var end = document.querySelector(".choice-set:not([hidden]) button.choice");
      if (end && event.detail === 0) {
        end.focus();
      } else if (end) {
        // tapped (a screen reader's double tap is a pointer's click too): the focus stays
        // on the tile, so say where its ends are rather than leave the tap unanswered
        var words = document.querySelector("#place-form .pick-refused").dataset.chosenText;
        Scorekeeper.announce(words && words.replace("{tile}", pick.dataset.tile));
      }
      return;
    }
    var dot = event.target.closest(".board .open-end.target");
    if (dot) {
      var button = document.querySelector(
        '.choice-set:not([hidden]) button.choice[data-point="' + dot.dataset.point + '"]');
      if (button) { button.click(); }
      return;
    }
    var zoom = event.target.closest(".board-zoom");
    if (zoom) { toggleZoom(zoom); return; }
    var key = event.target.closest(".keypad button");
    if (key) { keypad(key); }
  });

  // -- the board: scaled to the width; enlarged, full size, scrolled to the newest tile --

  function toggleZoom(button) {
    var box = document.getElementById("board-box");
    var on = !box.classList.contains("zoomed");
    // set through the CSSOM, which the Content-Security-Policy allows (a style
    // attribute in the markup it would refuse)
    box.style.setProperty("--board-width", box.dataset.width + "px");
    box.style.setProperty("--board-height", box.dataset.height + "px");
    box.classList.toggle("zoomed", on);
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? (button.dataset.fitText || "Fit board")
      : (button.dataset.enlargeText || "Enlarge board");
    if (on) { showNewest(box); }
  }

  function showNewest(box) {
    var newest = box.querySelector(".newest");
    if (!newest) { return; }
    var tile = newest.getBoundingClientRect();
    var frame = box.getBoundingClientRect();
    box.scrollLeft += tile.left - frame.left - frame.width / 2 + tile.width / 2;
    box.scrollTop += tile.top - frame.top - frame.height / 2 + tile.height / 2;
  }

  // -- called rounds: one tap per scoring end on big keys -------------------------------

  function calledState(form) {
    var ends = [];
    var max = parseInt(form.dataset.maxEnds, 10);
    for (var i = 0; i < max; i++) {
      var value = form.elements["end_" + i].value;
      if (value === "") { break; }
      ends.push({value: parseInt(value, 10), double: form.elements["double_" + i].checked});
    }
    return ends;
  }

  function writeCalled(form, ends) {
    var max = parseInt(form.dataset.maxEnds, 10);
    for (var i = 0; i < max; i++) {
      form.elements["end_" + i].value = i < ends.length ? ends[i].value : "";
      form.elements["double_" + i].checked = i < ends.length && ends[i].double;
    }
    showCalled(form);
  }

  function showCalled(form) {
    var ends = calledState(form);
    var text = document.getElementById("called-sum");
    if (!text) { return; }
    // the words come from the page, in its language (data-*-text on #called-sum)
    if (!ends.length) { text.textContent = text.dataset.noneText || "No end yet"; return; }
    var sum = 0;
    var words = ends.map(function (end) {
      sum += end.double ? end.value * 2 : end.value;
      return end.double ? end.value + "-" + end.value : String(end.value);
    });
    var table = form.dataset.points.split(",");
    var points = sum < table.length ? parseInt(table[sum], 10) : 0;
    var bonus = form.elements.goes_out.checked ? parseInt(form.dataset.bonus, 10) : 0;
    text.textContent = (text.dataset.endsText || "Ends {ends}").replace("{ends}", words.join(" + ")) +
      " = " + sum + " → " + points + (bonus ? " + " + (text.dataset.bonusText ||
        "{bonus} for going out").replace("{bonus}", bonus) : "");
    // the engine's room for the chosen seat's side (data-room): an award past it is refused
    var room = form.dataset.room ? form.dataset.room.split(",")[form.elements.seat.value] : "";
    if (room && points + bonus > 0 && points + bonus > parseFloat(room)) {
      text.textContent += " — " + (text.dataset.pastText ||
        "{total} would pass the target: it does not count").replace("{total}", points + bonus);
    }
  }

  function keypad(key) {
    var form = key.closest("form");
    var ends = calledState(form);
    var double = form.querySelector(".key-double");
    if (key.classList.contains("key-double")) {
      double.setAttribute("aria-pressed",
                          double.getAttribute("aria-pressed") === "true" ? "false" : "true");
      return;
    }
    if (key.classList.contains("key-back")) {
      ends.pop();
    } else if (ends.length < parseInt(form.dataset.maxEnds, 10)) {
      ends.push({value: parseInt(key.dataset.value, 10),
                 double: double.getAttribute("aria-pressed") === "true"});
      double.setAttribute("aria-pressed", "false");
    }
    writeCalled(form, ends);
  }

  // -- counting by tiles: a tile is in one hand, and a hand the others leave is known --

  function syncHands(form) {
    var boxes = form.querySelectorAll("fieldset.hand input[type=checkbox]");
    var holder = {};
    boxes.forEach(function (box) { if (box.checked) { holder[box.value] = box.name; } });
    // a tile ticked in one hand cannot be ticked in another (a box already ticked stays
    // as it is: a count sent back refused keeps both, and the refusal says why)
    boxes.forEach(function (box) {
      box.disabled = !box.checked && holder[box.value] !== undefined &&
        holder[box.value] !== box.name;
      // a screen reader says why it cannot be ticked: "0-1: ticked for Ann"
      if (box.disabled) {
        var other = form.querySelector('input[type=checkbox][name="' + holder[box.value] +
                                        '"]').closest("fieldset.hand");
        box.setAttribute("aria-label", (form.dataset.heldText || "{tile}: ticked for {name}")
          .replace("{tile}", box.value).replace("{name}", other.dataset.name));
      } else {
        box.removeAttribute("aria-label");
      }
    });
    // where the tiles nobody holds yet are exactly the ones a hand still lacks (the
    // boneyard is empty), that hand is "the rest": one tap ticks them
    form.querySelectorAll("fieldset.hand[data-tiles]").forEach(function (hand) {
      var rest = hand.querySelector(".hand-rest");
      if (!rest) { return; }
      var free = hand.querySelectorAll("input[type=checkbox]:not(:checked):not(:disabled)");
      var mine = hand.querySelectorAll("input[type=checkbox]:checked").length;
      rest.hidden = !(free.length && mine + free.length === parseInt(hand.dataset.tiles, 10));
    });
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest(".settle-form");
    if (form && event.target.closest("fieldset.hand")) { syncHands(form); }
  });
  document.addEventListener("click", function (event) {
    var rest = event.target.closest && event.target.closest(".hand-rest");
    if (!rest) { return; }
    var hand = rest.closest("fieldset.hand");
    hand.querySelectorAll("input[type=checkbox]:not(:checked):not(:disabled)")
      .forEach(function (box) { box.checked = true; });
    syncHands(rest.closest(".settle-form"));
    var first = hand.querySelector("input[type=checkbox]:checked");
    if (first) { first.focus(); }  // the button is gone: the focus stays in the hand
  });

  function setUp(root) {
    root.querySelectorAll(".settle-form").forEach(syncHands);
    root.querySelectorAll(".call-form").forEach(function (form) {
      form.querySelector(".keypad").hidden = false;
      form.querySelector(".called-manual").hidden = true;
      form.elements.goes_out.addEventListener("change", function () { showCalled(form); });
      form.querySelectorAll('input[name="seat"]').forEach(function (seat) {
        seat.addEventListener("change", function () { showCalled(form); });
      });
      showCalled(form);
    });
    var form = document.getElementById("place-form");
    if (form && form.elements.tile.value) { selectTile(form.elements.tile.value); }
    fitBar();
  }

  // -- the bar: the page leaves room for it, so nothing hides under it -----------------

  // the bar grows and shrinks with what it says (a message, a banner, a refusal) without
  // a swap or a resize: watched, the page's room follows its real height at once
  var barWatch = "ResizeObserver" in window ? new ResizeObserver(fitBar) : null;
  var watched = null;
  function fitBar() {
    var bar = document.getElementById("thumb-bar");
    var pad = document.getElementById("scorepad");
    if (barWatch && bar !== watched) {  // a swap brought a new bar
      barWatch.disconnect();
      if (bar) { barWatch.observe(bar); }
      watched = bar;
    }
    if (bar && pad) {
      pad.style.setProperty("--bar-height", bar.offsetHeight + "px");
      // moving by keyboard, what the focus moves to is scrolled clear of the bar, not
      // under it; by touch nothing is scrolled for the page's sake
      document.documentElement.style.scrollPaddingBottom =
        byKeyboard ? (bar.offsetHeight + 8) + "px" : "";
    }
  }
  var byKeyboard = false;
  document.addEventListener("keydown", function (event) {
    if (event.key === "Tab" && !byKeyboard) { byKeyboard = true; fitBar(); }
  });
  document.addEventListener("pointerdown", function () {
    if (byKeyboard) { byKeyboard = false; fitBar(); }
  });

  // The page's own focus moves skip the scroll (it would jump on every tap): the control
  // is brought into view only if it is off screen or under the bar.
  function reveal(el) {
    var bar = document.getElementById("thumb-bar");
    if (!bar || bar.contains(el)) { return; }
    var rect = el.getBoundingClientRect();
    var above = window.innerHeight - bar.offsetHeight - 8;  // the bottom the bar leaves
    if (rect.bottom > above) {
      window.scrollBy(0, rect.bottom - above);
    } else if (rect.top < 0) {
      window.scrollBy(0, rect.top - 8);
    }
  }
  window.addEventListener("resize", fitBar);

  // -- each recorded tap is confirmed where the eyes and the hand are -------------------

  // an answer older than the table shown (a re-read overtaken by a tap's answer) is
  // kept out (static/js/scorekeeper.js); the listeners below see it unswapped
  Scorekeeper.keepNewest(function () {
    htmx.ajax("GET", syncUrl, {target: "#scorepad", swap: "outerHTML"});
  });

  var shownVersion = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.shouldSwap) { return; }
    shownVersion = Scorekeeper.versionOf(document);
  });
  document.addEventListener("htmx:afterSettle", function () {
    var live = document.getElementById("live");
    setUp(document);
    if (!live || shownVersion === null) { return; }
    if (Scorekeeper.versionOf(document) > shownVersion) {
      var bar = document.getElementById("thumb-bar");
      if (bar) {
        bar.classList.remove("recorded");
        void bar.offsetWidth;  // restart the flash
        bar.classList.add("recorded");
      }
      if (navigator.vibrate) { navigator.vibrate(30); }
    }
    shownVersion = null;
  });

  // -- after a swap: the focus and the spoken result ------------------------------------
  // htmx swaps #live whole, so the control just used is gone and the focus would fall
  // back to the page's start: it goes to the next thing to do instead (htmx itself keeps
  // it on a control with an id that is still there). A live region that arrives with its
  // text is not read out by every screen reader, so the news is said again by
  // #announcer, which stays on the page: a refusal and the messages, or what the tap
  // just did ([data-news]: a placement's award, a draw, a settlement, a win).

  var NEXT_CONTROLS = [".picker a.pick.selected", ".picker a.pick.playable",
                       ".keypad:not([hidden]) .key",
                       // a count: the hand a refusal named, else the first field still empty
                       "#settle-form [aria-describedby=scorepad-error] input:not(:disabled)",
                       "#settle-form input[type=number]:not([value])",
                       "#settle-form input:not([type=hidden]):not(:disabled)",
                       "#round-form input:checked", "#thumb-bar button"];
  var before = null;  // {focused, version} from the swap's start, until it settles
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.shouldSwap) { return; }
    var pad = document.getElementById("scorepad");
    var active = document.activeElement;
    before = {focused: !!(pad && pad.contains(active)),
              // a keyboard's focus (a tap's does not show): only it is brought into view
              keyboard: !!(active && active.matches && active.matches(":focus-visible")),
              version: Scorekeeper.versionOf(document)};
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!before) { return; }  // each swap once (an out-of-band swap settles too)
    var was = before;
    before = null;
    var focused = document.activeElement;
    // a refused count: to the field it names, even from a button that is still there
    var named = document.querySelector("#settle-form [aria-invalid=true]");
    if (was.focused && named) {
      named.focus({preventScroll: true});
      if (was.keyboard) { reveal(named); }
    } else if (was.focused && (!focused || focused === document.body)) {
      for (var i = 0; i < NEXT_CONTROLS.length; i++) {
        var next = document.querySelector("#scorepad " + NEXT_CONTROLS[i]);
        if (next) {
          next.focus({preventScroll: true});
          if (was.keyboard) { reveal(next); }  // a tap leaves the board where it is
          break;
        }
      }
    }
    var status = document.getElementById("status");
    var live = document.getElementById("live");
    if (!status) { return; }
    var recorded = live && was.version !== null &&
      Scorekeeper.versionOf(document) > was.version;
    var said = recorded ? status.querySelectorAll(".message, [data-news]")
      : document.querySelectorAll("#scorepad-error, #status .message");
    Scorekeeper.announce(Array.prototype.map.call(said, function (el) { return el.textContent; })
      .join(" ").replace(/\s+/g, " ").trim());
  });

  // -- a lost answer must not leave the scorer guessing ---------------------------------
  // Every tap carries its own key, so the page asks the server whether that key was
  // recorded (once the connection is back) and shows the table as it stands with the
  // answer; nothing is ever applied twice.

  var pendingKey = null;
  // "lost": a tap's answer, "server": something only the server shows (a switch between
  // count entries, a page of the scorepad) asked for without a connection
  function showBanner(reason, show) {
    document.querySelectorAll('.offline-banner[data-reason="' + reason + '"]').forEach(
      function (el) { el.hidden = !show; });
    fitBar();
  }
  function resync() {
    if (!pendingKey || !navigator.onLine) { return; }  // the "online" event tries again
    var key = pendingKey;
    htmx.ajax("GET", syncUrl + "?sync=" + encodeURIComponent(key),
              {target: "#scorepad", swap: "outerHTML"}).then(function () {
      if (pendingKey === key) { pendingKey = null; }
    });
  }
  function lost(event) {
    if (event.detail.queued) { return; }  // offline.js keeps the tap and sends it again
    var config = event.detail.requestConfig;
    if (config && config.verb === "get") {  // no tap: nothing to check, only to say
      var status = event.detail.xhr ? event.detail.xhr.status : 0;
      var noAnswer = !status || Scorekeeper.notNow(status);
      // what the scorer asked for (the count's switch), not this page's own resync
      if (noAnswer && !(pendingKey && config.path.indexOf("?sync=") >= 0)) {
        showBanner("server", true);
      }
      return;
    }
    var params = config && config.parameters;
    var key = params && (params.get ? params.get("key") : params.key);
    showBanner("lost", true);
    if (!key) { return; }
    pendingKey = key;
    setTimeout(resync, 1500);
  }
  function answered(event) {
    if (event.detail.successful) { showBanner("server", false); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    htmx.config.timeout = 15000;
    document.body.addEventListener("htmx:sendError", lost);
    document.body.addEventListener("htmx:responseError", lost);
    document.body.addEventListener("htmx:timeout", lost);
    document.body.addEventListener("htmx:afterRequest", answered);
    window.addEventListener("online", function () { showBanner("server", false); });
    window.addEventListener("online", resync);
    setInterval(resync, 5000);
    setUp(document);
  });
})();
