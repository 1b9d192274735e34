/* The scorepad without a connection: taps wait on this phone, in order, and are sent one
   at a time when the connection is back. (templates/sw.js keeps the page itself.)

   Every scoring form carries the match version its page shows and an idempotency key
   (matches/templatetags/scorekeeper.py, write_fields). A tap that cannot reach the
   server is stored with its fields, both included; the page then goes on as if it had
   been recorded: each write makes exactly one new version, so every form now expects
   the next one and gets a fresh key, and a tracked play or pass hands the turn to the
   next seat (a draw keeps it), as the engine does (matches/rules/match.py). The ends a
   placed tile opens are offered too; the sums are not known without the server, and
   the page says they are checked when the entries arrive. After an entry whose outcome
   only the server knows (a settlement, a new round, an undo, a last tile, or a pass
   that makes every seat's pass in a row since the last placement: the round is
   blocked) the controls wait for the connection, and the page says why.

   What the engine would refuse and the page can count, it refuses at once in the
   server's words, and stores nothing: a pass while the boneyard holds tiles, a draw of
   more tiles than it holds (_pass, _draw). Queued, the server would refuse it later, and
   that refusal stops the queue. What the page cannot know (the sums, so a placement
   that wins the match; another phone's taps) is found when the entries are sent.

   Sending: one entry at a time. An answer with a refusal (#scorepad-error, or a
   warning the server confirms by the entry's key was not recorded, e.g. "the match
   moved on") stops the queue: the rest are kept and listed, and the page says why. An
   entry whose answer was lost stays first and is sent again with the same key: the
   server answers "Already recorded" and applies nothing twice. Once all have arrived
   the page reloads the scorepad from the server (asking about the last entry's key).
   Texts come from <template id="offline-texts"> in the page's language. */
(function () {
  "use strict";

  var WRITE = /\/(play|draw|pass|call|settle|round|undo)\/$/;
  var NEEDS_SERVER = {settle: true, round: true, undo: true};
  var RETRY_MS = 5000;
  // an entry a proxy answered "not now" (static/js/scorekeeper.js) is sent again
  var notNow = Scorekeeper.notNow;
  // said by the page's announcer, which stays (one that appears with its text, like
  // #queue-count or #queue-refused, is not read by every screen reader)
  var announce = Scorekeeper.announce;

  var script = document.getElementById("scorepad-script");
  var page = script ? script.dataset.syncUrl : location.pathname;
  var storeKey = "scorekeeper:queue:" + page;
  var sending = false;
  var locked = false;  // or why the controls wait: "locked", "blocked" (a text's name)
  var passes = 0;  // in a row, since the last placement: the server's count, then ours
  var tilesLeft = {};
  // a double's end takes as many tiles as it has free sides (its flanks too, if it is a
  // spinner): the server says how many for each on the page, this page counts down
  var freeSides = {};
  var spinners = {};
  var doublesDown = 0;

  // -- the queue, kept in localStorage: {entries: [...], kept: [...], refused: {...}} ----

  function load() {
    try {
      var state = JSON.parse(localStorage.getItem(storeKey) || "{}");
      return {entries: state.entries || [], kept: state.kept || [], refused: state.refused || null};
    } catch (error) {
      return {entries: [], kept: [], refused: null};
    }
  }
  function save(state) {
    if (!state.entries.length && !state.kept.length && !state.refused) {
      localStorage.removeItem(storeKey);
    } else {
      localStorage.setItem(storeKey, JSON.stringify(state));
    }
  }
  function waiting() { return load().entries.length; }

  function field(entry, name) {
    for (var i = 0; i < entry.fields.length; i++) {
      if (entry.fields[i][0] === name) { return entry.fields[i][1]; }
    }
    return null;
  }

  // -- texts, in the page's language ------------------------------------------------------

  function text(name, values) {
    var holder = document.getElementById("offline-texts");
    var el = holder && holder.content.querySelector('[data-text="' + name + '"]');
    return fill(el ? el.textContent.trim() : name, values);
  }
  function fill(words, values) {
    Object.keys(values || {}).forEach(function (key) {
      words = words.split("{" + key + "}").join(values[key]);
    });
    return words;
  }

  // "n entries waiting", "n tiles", in the plural form the page's language uses for n:
  // the page holds the words for 1 to 29; a larger n takes the form of one that ends alike
  function counted(name, n, values) {
    var like = n < 30 ? n : (n % 100 >= 10 && n % 100 < 20 ? n % 100 : 20 + n % 10);
    // the values after the count: a name may hold digits too
    return fill(text(name + "-" + like).split(String(like)).join(String(n)), values);
  }
  function waitingText(n) { return counted("waiting", n); }

  function uuid() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" +
      hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // -- storing a tap ------------------------------------------------------------------------

  function entryOf(config) {
    var fields = [];
    config.formData.forEach(function (value, name) { fields.push([name, String(value)]); });
    var entry = {action: WRITE.exec(config.path)[1], path: config.path, fields: fields};
    entry.version = parseInt(field(entry, "version"), 10);
    entry.key = field(entry, "key");
    entry.seat = field(entry, "seat");
    entry.label = labelOf(config, entry);
    return entry;
  }

  // what the scorer tapped, in the page's words: "Bo · 0-5 · On the double 5"
  function labelOf(config, entry) {
    var parts = [];
    var seat = entry.seat !== null ? document.querySelector(
      '#live .seats .seat[data-seat="' + entry.seat + '"]') : null;
    if (seat) { parts.push(seat.firstChild.textContent.trim()); }
    if (field(entry, "tile")) { parts.push(field(entry, "tile")); }
    var submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    if (submitter) {
      var words = submitter.cloneNode(true);
      words.querySelectorAll("small").forEach(function (el) { el.remove(); });
      parts.push(words.textContent.replace(/\s+/g, " ").trim());
    }
    if (entry.action === "draw") {  // how many: the list may ask to enter it again
      parts.push(counted("tiles", parseInt(field(entry, "tiles"), 10) || 1));
    }
    if (entry.action === "call") {  // what was called, as the change log writes it
      var ends = [];
      entry.fields.forEach(function (pair) {
        var end = /^end_(\d+)$/.exec(pair[0]);
        if (end && pair[1] !== "") {
          ends.push(field(entry, "double_" + end[1]) ? pair[1] + "-" + pair[1] : pair[1]);
        }
      });
      parts.push(ends.join(" + "));
      if (field(entry, "goes_out")) { parts.push(text("went-out")); }
      if (field(entry, "claim")) { parts.push(text("called", {claim: field(entry, "claim")})); }
    }
    return parts.filter(Boolean).join(" · ");
  }

  function enqueue(config) {
    var state = load();
    var entry = entryOf(config);
    if (state.entries.some(function (e) { return e.key === entry.key; })) { return; }
    state.entries.push(entry);
    save(state);
    var refused = document.getElementById("scorepad-error");
    if (refused) { refused.remove(); }  // said of an earlier tap
    var pad = document.getElementById("scorepad");
    var hadFocus = !!(pad && pad.contains(document.activeElement));
    adjust(entry);
    render();
    // the end just pressed is gone with its tile: the focus goes on to the next tile,
    // and the page's announcer says the entry waits
    var focused = document.activeElement;
    if (hadFocus && (!focused || focused === document.body)) {
      var next = document.querySelector("#scorepad .picker a.pick.playable, #thumb-bar button");
      if (next) { next.focus({preventScroll: true}); }
    }
    announce(waitingText(load().entries.length) + (locked ? " " + text(locked) : ""));
  }

  // what the server would refuse, as the page counts the table: said at once in the
  // server's words (matches/rules_messages.py), and not stored; null if nothing
  function refusal(config) {
    var action = WRITE.exec(config.path)[1];
    var held = boneyard();
    if (held === null || (action !== "pass" && action !== "draw")) { return null; }
    var seat = document.querySelector(
      '#live .seats .seat[data-seat="' + config.formData.get("seat") + '"]');
    var who = seat ? seat.firstChild.textContent.trim() : "";
    if (action === "pass") {  // only a seat that cannot draw passes
      return held > 0 ? counted("pass-refused", held, {who: who}) : null;
    }
    var drawn = parseInt(config.formData.get("tiles"), 10) || 1;
    return drawn > held ? text("draw-too-many", {who: who, count: drawn, boneyard: held}) : null;
  }

  // where the server's refusal shows (#scorepad-error, in the bar), and said
  function refuse(why) {
    var feedback = document.getElementById("feedback");
    if (!feedback) { return; }
    var box = document.getElementById("scorepad-error");
    if (!box) {
      box = document.createElement("p");
      box.id = "scorepad-error";
      box.className = "error-box";
      box.setAttribute("role", "alert");
      feedback.insertBefore(box, feedback.firstChild);
    }
    box.textContent = why;
    announce(why);
    fitBar();
  }

  // -- the page goes on as if the entry were recorded ----------------------------------------

  function seats() { return document.querySelectorAll("#live .seats .seat[data-seat]").length; }

  function adjust(entry) {
    document.querySelectorAll("#scorepad input[name=version]").forEach(function (input) {
      input.value = entry.version + 1;
    });
    document.querySelectorAll("#scorepad input[name=key]").forEach(function (input) {
      input.value = uuid();
    });
    // as a page drawn by the server after any write: one tile to draw, unless typed again
    document.querySelectorAll("#scorepad input[name=tiles]").forEach(function (input) {
      input.value = input.defaultValue;
    });
    var seat = entry.seat === null ? null : parseInt(entry.seat, 10);
    if (entry.action === "play" || entry.action === "pass" || entry.action === "draw") {
      var next = entry.action === "draw" ? seat : (seat + 1) % seats();
      document.querySelectorAll("#scorepad form input[type=hidden][name=seat]").forEach(
        function (input) { input.value = next; });
      showTurn(next);
    }
    if (entry.action === "play") {
      passes = 0;
      // the round is open: the next seat may draw or pass (the server hid both before)
      document.querySelectorAll("#scorepad form[data-after-opening]").forEach(function (form) {
        form.hidden = false;
      });
      placed(field(entry, "tile"), field(entry, "at"));
      if (seat in tilesLeft && --tilesLeft[seat] <= 0) { lock(); }  // the round ends
      showTiles(seat, 0);
    } else if (entry.action === "draw" && seat in tilesLeft) {
      var drawn = parseInt(field(entry, "tiles"), 10) || 1;
      tilesLeft[seat] += drawn;
      showTiles(seat, drawn);
    } else if (entry.action === "pass" && ++passes >= seats()) {
      lock("blocked");  // every seat passed in turn: the round ends blocked (_pass)
    } else if (entry.action === "call") {
      if (field(entry, "goes_out")) { lock(); } else { nextCall((seat + 1) % seats()); }
    } else if (NEEDS_SERVER[entry.action]) {
      lock();
    }
  }

  // the seat's tiles as counted here, and the boneyard less what was drawn from it
  function showTiles(seat, drawn) {
    var held = document.querySelector('#live .seats .seat[data-seat="' + seat + '"] small');
    if (held && seat in tilesLeft) { held.textContent = counted("tiles", tilesLeft[seat]); }
    var shown = document.querySelector("#live .seats .boneyard small");
    if (shown && drawn) { shown.textContent = Math.max(0, boneyard() - drawn); }
  }

  // the tiles in the boneyard as counted here; null where the match does not draw (the
  // page shows no boneyard then)
  function boneyard() {
    var shown = document.querySelector("#live .seats .boneyard small");
    return shown ? parseInt(shown.textContent, 10) || 0 : null;
  }

  function showTurn(seat) {
    var before = document.querySelector("#live .seat.seat-turn");
    var now = document.querySelector('#live .seat[data-seat="' + seat + '"]');
    if (!now || before === now) { return; }
    var oldName = before ? before.firstChild.textContent.trim() : null;
    var newName = now.firstChild.textContent.trim();
    if (before) { before.classList.remove("seat-turn"); }
    now.classList.add("seat-turn");
    document.querySelectorAll("#live .round-line strong, #live .pick-hint, #live .controls h2")
      .forEach(function (el) {
        if (oldName) { el.textContent = el.textContent.split(oldName).join(newName); }
      });
  }

  // a tile placed offline: out of the picker, its end taken, the ends it opens offered
  function placed(tile, at) {
    var form = document.getElementById("place-form");
    var pick = document.querySelector('#scorepad a.pick[data-tile="' + tile + '"]');
    if (pick) {
      var shown = document.createElement("span");
      shown.className = "pick on-table queued";
      shown.dataset.tile = tile;
      shown.setAttribute("role", "img");
      shown.setAttribute("aria-label", text("tile-waiting", {tile: tile}));
      shown.innerHTML = pick.innerHTML;
      shown.querySelectorAll(".mark").forEach(function (el) { el.remove(); });
      pick.replaceWith(shown);
    }
    if (!form) { return; }
    var own = form.querySelector('.choice-set[data-for="' + tile + '"]');
    if (own) { own.remove(); }
    // the round is open now: no tile opens it any more (its sets emptied go below)
    form.querySelectorAll('button.choice[data-point=""]').forEach(function (b) { b.remove(); });
    if (at !== "") {
      var left = sidesLeft(form, at) - 1;
      freeSides[at] = left;
      form.querySelectorAll('button.choice[data-point="' + at + '"]').forEach(function (b) {
        if (left <= 0) { b.remove(); } else { nameEnd(b.querySelector(".choice-name"), at); }
      });
    }
    var values = tile.split("-");
    if (values[0] === values[1]) {  // a double: its sides, and its flanks if it spins
      var policy = form.dataset.spinners;
      var spins = policy === "every-double" || (policy === "first-double" && doublesDown === 0);
      var point = tile + ":" + values[0];
      spinners[point] = spins;
      freeSides[point] = (spins ? 4 : 2) - (at === "" ? 0 : 1);  // its link took a side
      doublesDown += 1;
      opened(form, tile, values[0]);
    } else if (at === "") {
      opened(form, tile, values[0]);
      opened(form, tile, values[1]);
    } else {
      var joined = at.split(":")[1];
      opened(form, tile, values[0] === joined ? values[1] : values[0]);
    }
    // no sum is known offline: the server counts when the entry arrives
    form.querySelectorAll("button.choice").forEach(function (button) {
      button.classList.remove("btn-primary");
      var small = button.querySelector("small");
      if (small) { small.textContent = text("sum-later"); }
    });
    form.elements.tile.value = "";
    if (form.elements.claim) { form.elements.claim.value = ""; }
    form.querySelectorAll(".choice-set").forEach(function (set) {
      set.hidden = true;
      if (!set.querySelector("button.choice")) {  // no end left for that tile
        set.remove();
        var pick = document.querySelector('#scorepad a.pick[data-tile="' + set.dataset.for + '"]');
        if (pick) { pick.classList.replace("playable", "unplayable"); }
      }
    });
    form.querySelector(".pick-hint").hidden = false;
    var refused = form.querySelector(".pick-refused");
    if (refused) { refused.hidden = true; }
    document.querySelectorAll(".pick.selected").forEach(function (el) {
      el.classList.remove("selected");
      el.removeAttribute("aria-current");
    });
    document.querySelectorAll(".board .open-end.target").forEach(function (dot) {
      dot.classList.remove("target");
    });
  }

  function isDouble(tile) { var v = tile.split("-"); return v[0] === v[1]; }

  // how many more tiles the end "tile:value" takes: one, unless it is a double's
  function sidesLeft(form, point) {
    if (point in freeSides) { return freeSides[point]; }
    var button = form.querySelector('button.choice[data-point="' + point + '"][data-free]');
    return button ? parseInt(button.dataset.free, 10) : 1;
  }
  function isSpinner(form, point) {
    if (point in spinners) { return spinners[point]; }
    return !!form.querySelector('button.choice[data-point="' + point + '"][data-spinner]');
  }

  // what an end is called, as the server calls it: a double's side, or a spinner's flank
  // once both its line sides are taken (the last two of its four)
  function endName(point) {
    var form = document.getElementById("place-form");
    var tile = point.split(":")[0];
    var value = point.split(":")[1];
    if (!isDouble(tile)) { return text("end", {value: value, tile: tile}); }
    var flank = isSpinner(form, point) && sidesLeft(form, point) <= 2;
    return text(flank ? "flank" : "side", {value: value});
  }
  // an end's button says its name with each tile's name kept on one line, as the
  // server writes it (templatetags' tile_names)
  function nameEnd(el, point) {
    el.textContent = "";
    endName(point).split(/(\b\d+-\d+\b)/).forEach(function (part, i) {
      if (i % 2) {
        var tile = document.createElement("span");
        tile.className = "tile-name";
        tile.textContent = part;
        el.appendChild(tile);
      } else if (part) {
        el.appendChild(document.createTextNode(part));
      }
    });
  }

  // the open end "tile:value": offered to every tile in the picker that has the value
  function opened(form, tile, value) {
    var point = tile + ":" + value;
    document.querySelectorAll("#scorepad a.pick[data-tile]").forEach(function (pick) {
      var other = pick.dataset.tile;
      if (other.split("-").indexOf(value) < 0) { return; }
      var set = form.querySelector('.choice-set[data-for="' + other + '"]');
      if (!set) {
        set = document.createElement("div");
        set.className = "choice-set";
        set.dataset.for = other;
        set.hidden = true;
        set.setAttribute("role", "group");
        set.setAttribute("aria-label", text("where", {tile: other}));
        var before = form.querySelector(".choice-set");
        form.insertBefore(set, before || null);
        pick.classList.remove("unplayable");
        pick.classList.add("playable");
        pick.querySelectorAll(".mark").forEach(function (el) { el.remove(); });
      }
      if (set.querySelector('button.choice[data-point="' + point + '"]')) { return; }
      var button = document.createElement("button");
      button.type = "submit";
      button.name = "at";
      button.value = point;
      button.className = "btn choice";
      button.dataset.point = point;
      var name = document.createElement("span");
      name.className = "choice-name";
      nameEnd(name, point);
      button.appendChild(name);
      button.appendChild(document.createTextNode(" "));
      var small = document.createElement("small");
      small.textContent = text("sum-later");
      button.appendChild(small);
      set.appendChild(button);
    });
  }

  function nextCall(seat) {
    var form = document.getElementById("call-form");
    if (!form) { return; }
    form.querySelectorAll("input[name=seat]").forEach(function (radio) {
      radio.checked = parseInt(radio.value, 10) === seat;
    });
    form.querySelectorAll("input[type=number]").forEach(function (input) { input.value = ""; });
    form.querySelectorAll("input[type=checkbox]").forEach(function (box) { box.checked = false; });
    var double = form.querySelector(".key-double");
    if (double) { double.setAttribute("aria-pressed", "false"); }
    if (form.elements.goes_out) { form.elements.goes_out.dispatchEvent(new Event("change")); }
  }

  // what only the server can tell comes next: the controls wait for it; "why" names the
  // words that say so (the round is blocked, or only "needs the server")
  function lock(why) {
    locked = why || "locked";
    document.querySelectorAll("#live .controls, #place-form, #thumb-bar .bar-actions")
      .forEach(function (el) { el.inert = true; el.classList.add("waiting-for-server"); });
  }

  // on a page drawn by the server (a load, a swap), redo what the waiting entries did
  function replay() {
    locked = false;
    tilesLeft = {};
    freeSides = {};
    spinners = {};
    var form = document.getElementById("place-form");
    doublesDown = form ? parseInt(form.dataset.doubles, 10) || 0 : 0;
    passes = form ? parseInt(form.dataset.passes, 10) || 0 : 0;
    document.querySelectorAll("#live .seats .seat[data-seat] small").forEach(function (small) {
      var count = parseInt(small.textContent, 10);
      if (!isNaN(count)) { tilesLeft[small.parentNode.dataset.seat] = count; }
    });
    var entries = load().entries;
    var live = document.getElementById("live");
    if (!entries.length || !live) { return; }
    if (Scorekeeper.versionOf(document) === entries[0].version) {
      entries.forEach(adjust);
    } else {
      lock();  // this copy is not the table the entries were made on
    }
  }

  // -- what the bar says ----------------------------------------------------------------------

  function render() {
    var state = load();
    var feedback = document.getElementById("feedback");
    var box = document.getElementById("queue-box");
    var empty = !state.entries.length && !state.kept.length && !state.refused;
    if (!feedback || empty) {
      if (box) { box.remove(); fitBar(); }
      return;
    }
    if (!box) {
      box = document.createElement("div");
      box.id = "queue-box";
      box.className = "queue-box";
      box.innerHTML = '<p class="queue-count" id="queue-count" role="status"></p>' +
        '<p class="queue-note" id="queue-note"></p>' +
        '<p class="queue-refused" id="queue-refused" role="alert" hidden></p>' +
        '<ol class="queue-kept" id="queue-kept" tabindex="0" hidden></ol>' +
        '<button type="button" class="btn btn-small" id="queue-discard" hidden></button>';
      box.querySelector("#queue-discard").textContent = text("discard");
      // it scrolls when long: reachable by keyboard, and named
      box.querySelector("#queue-kept").setAttribute("aria-label", text("kept"));
      // below what the bar says, not in it: those few lines scroll, and this list and
      // its button must stay in sight
      feedback.parentNode.insertBefore(box, feedback.nextSibling);
    }
    var count = box.querySelector("#queue-count");
    var note = box.querySelector("#queue-note");
    count.textContent = state.entries.length ? waitingText(state.entries.length) : "";
    note.hidden = !state.entries.length;
    note.textContent = text("note") + (locked ? " " + text(locked) : "");
    var refused = box.querySelector("#queue-refused");
    refused.hidden = !state.refused;
    refused.textContent = state.refused ? text("refused", {
      entry: state.refused.entry, why: reason(state.refused.why)}) : "";
    var kept = box.querySelector("#queue-kept");
    kept.hidden = !state.kept.length;
    kept.innerHTML = "";
    state.kept.forEach(function (entry) {
      var item = document.createElement("li");
      item.textContent = entry.label;
      kept.appendChild(item);
    });
    box.querySelector("#queue-discard").hidden = !state.kept.length && !state.refused;
    fitBar();
  }

  // the server's reason as a sentence of its own after "Not recorded: {entry}.": a rules
  // refusal comes in lower case and unstopped, and an out-of-date table's warning
  // begins with the same "Not recorded:" (both from the page's own catalogue)
  function reason(why) {
    var said = text("refused").split("{entry}")[0];
    if (said && why.indexOf(said) === 0) { why = why.slice(said.length); }
    why = why.charAt(0).toUpperCase() + why.slice(1);
    return /[.!?…]$/.test(why) ? why : why + ".";
  }

  function fitBar() { window.dispatchEvent(new Event("resize")); }  // scorepad.js fits the bar

  function discard() {
    var state = load();
    state.kept = [];
    state.refused = null;
    save(state);
    render();
  }

  // -- sending ----------------------------------------------------------------------------

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  }

  var RELOADED = "scorekeeper-reloaded-for-token";
  function reloadedLately() {
    var at = parseInt(sessionStorage.getItem(RELOADED) || "0", 10);
    return Date.now() - at < 60000;
  }

  function answerOf(response) {
    return response.text().then(function (html) {
      return {status: response.status, doc: new DOMParser().parseFromString(html, "text/html"),
              reload: response.headers.get("HX-Refresh") === "true"};
    });
  }

  function post(entry) {
    // the page's token now, not the one the form held when tapped (it may have changed)
    var fields = new URLSearchParams(entry.fields);
    if (fields.has("csrfmiddlewaretoken")) { fields.set("csrfmiddlewaretoken", csrfToken()); }
    return fetch(entry.path, {
      method: "POST", credentials: "same-origin",
      headers: {"HX-Request": "true", "X-CSRFToken": csrfToken(),
                "Content-Type": "application/x-www-form-urlencoded"},
      body: fields}).then(answerOf);
  }

  // was the change with this key recorded? The server says so (views: _announce_sync)
  function recorded(key) {
    return fetch(page + "?sync=" + encodeURIComponent(key), {
      credentials: "same-origin", headers: {"HX-Request": "true", "HX-Target": "scorepad"}})
      .then(answerOf).then(function (answer) {
        return answer.doc.querySelector("#status [data-recorded]") !== null;
      });
  }

  function wordsOf(el) { return el.textContent.replace(/\s+/g, " ").trim(); }

  // one entry's fate: "done", or a refusal's reason (a network failure rejects)
  function send(entry) {
    return post(entry).then(function (answer) {
      if (notNow(answer.status)) { throw new Error("unreachable"); }
      if (answer.reload && !reloadedLately()) {
        // the page's token no longer holds (signed in or out elsewhere): nothing was
        // recorded; the page comes again with a fresh one and sends the entries then
        // (once a minute at most: a refusal that a fresh page does not cure is said)
        sessionStorage.setItem(RELOADED, String(Date.now()));
        window.location.reload();
        return new Promise(function () {});
      }
      if (answer.status === 200) { answeredAt(Scorekeeper.versionOf(answer.doc)); }
      var error = answer.doc.querySelector("#scorepad-error");
      if (error) { return {why: wordsOf(error)}; }
      if (answer.status !== 200 || !answer.doc.getElementById("live")) {
        // not the scorepad's answer (no longer a scorer, signed out, a server error)
        var title = answer.doc.querySelector("h1, .error-box, [role=alert]");
        return {why: title ? wordsOf(title) : text("status", {status: answer.status})};
      }
      var warnings = Array.prototype.map.call(
        answer.doc.querySelectorAll("#status .message-warning"), wordsOf);
      // what the server said of it besides (a wrong call noted, lots drawn, a round
      // settled): said once the table is back
      var said = Array.prototype.map.call(
        answer.doc.querySelectorAll("#status .message:not(.message-success)"), wordsOf);
      if (!warnings.length) { return {done: true, said: said}; }
      // a warning: recorded with a note (a wrong call), or not recorded (out of date)
      return recorded(entry.key).then(function (yes) {
        return yes ? {done: true, said: said} : {why: warnings.join(" ")};
      });
    });
  }

  function flush() {
    var state = load();
    if (sending || !state.entries.length || !navigator.onLine) { return; }
    sending = true;
    var entry = state.entries[0];
    send(entry).then(function (outcome) {
      sending = false;
      var now = load();
      if (!now.entries.length || now.entries[0].key !== entry.key) { return; }
      now.entries.shift();
      if (outcome.done) {
        news = news.concat(outcome.said || []);
        save(now);
        render();
        if (now.entries.length) { flush(); } else { resync(entry.key); }
        return;
      }
      now.refused = {entry: entry.label, why: outcome.why};
      now.kept = now.kept.concat(now.entries);
      now.entries = [];
      save(now);
      render();
      announce(document.getElementById("queue-refused").textContent);
      refusedNow = true;
      resync(null);
    }, function () {
      sending = false;  // no answer: the entry stays first, sent again with its key
      setTimeout(flush, RETRY_MS);
    });
  }

  // the table as the server has it (the existing resync: an htmx GET of #scorepad),
  // asked again until it comes: the page still shows the entries as waiting till then
  var resyncing = null;
  var refusedNow = false;  // an entry was refused: said again with the table that follows
  var news = [];  // what the server said of the entries sent, till the table is back
  // The newest table the entries' answers showed (their version; read, never swapped
  // in). The table read again must not be older: an older answer is kept out
  // (Scorekeeper.keepNewest), and the page asks again until it shows one as new.
  var entriesVersion = null;
  function answeredAt(version) {
    if (version !== null && (entriesVersion === null || version > entriesVersion)) {
      entriesVersion = version;
    }
  }
  function behind() {
    var shown = Scorekeeper.versionOf(document);
    return entriesVersion !== null && shown !== null && shown < entriesVersion;
  }
  function resync(key) {
    resyncing = page + (key ? "?sync=" + encodeURIComponent(key) : "");
    resyncNow();
  }
  function resyncNow() {
    if (!resyncing || !navigator.onLine) { return; }  // the "online" event tries again
    htmx.ajax("GET", resyncing, {target: "#scorepad", swap: "outerHTML"});
  }
  function isResync(event) {
    var config = event.detail.requestConfig;
    return !!resyncing && !!config && config.verb === "get" && config.path === resyncing;
  }
  function resyncFailed(event) {
    if (isResync(event)) { event.detail.queued = true; }  // scorepad.js: no banner
  }
  // htmx ends every request so, answered or not: asked again until it comes, when no
  // answer came (or a proxy's "not now"); the server's own refusal (this phone no longer
  // scores, the match is gone) is final: the page keeps what it shows and says
  function resyncAnswered(event) {
    if (!isResync(event)) { return; }
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (event.detail.successful) {
      // (a tap's answer awaited meanwhile may bring the newer table before then)
      if (behind()) { setTimeout(catchUp, RETRY_MS); } else { resynced(); }
    } else if (!status || notNow(status)) {
      setTimeout(resyncNow, RETRY_MS);
    } else {
      resyncing = null;
    }
  }
  function catchUp() {
    if (behind()) { resyncNow(); } else { resynced(); }
  }
  function resynced() {
    resyncing = null;
    entriesVersion = null;
    tell();
    // the refusal is said after the table that follows (htmx:afterSettle below); when
    // the table read was kept out, as older than the one shown, no table follows it
    if (refusedNow) { setTimeout(sayRefusal, 100); }
  }
  function tell() {
    var status = document.getElementById("status");
    if (!news.length || !status) { return; }
    news.forEach(function (words) {
      var line = document.createElement("p");
      line.className = "message message-info";
      line.textContent = words;
      status.appendChild(line);
    });
    announce(Array.prototype.map.call(status.querySelectorAll(".message"), wordsOf).join(" "));
    news = [];
    fitBar();
  }

  // -- the page kept on the phone: the newest table, for a reload without a network ---------

  function keepPage() {
    if (!("serviceWorker" in navigator) || load().entries.length) { return; }
    (window.requestIdleCallback || setTimeout)(keepNow);  // after the tap's feedback
  }

  function keepNow() {
    if (load().entries.length) { return; }
    var copy = document.documentElement.cloneNode(true);
    copy.setAttribute("data-offline-copy", "");
    // styles set through the CSSOM (the bar's height, its scroll padding on <html> itself)
    // would be inline styles in a page read back from the copy, which the CSP refuses
    copy.removeAttribute("style");
    copy.querySelectorAll("[style]").forEach(function (el) { el.removeAttribute("style"); });
    copy.querySelectorAll("#status, .offline-banner").forEach(function (el) {
      if (el.id === "status") { el.innerHTML = ""; } else { el.hidden = true; }
    });
    copy.querySelectorAll("#scorepad-error, #queue-box").forEach(function (el) { el.remove(); });
    copy.querySelectorAll(".recorded").forEach(function (el) { el.classList.remove("recorded"); });
    var html = "<!DOCTYPE html>\n" + copy.outerHTML;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) {
        registration.active.postMessage({type: "keep", url: page, html: html});
      }
    });
  }

  // -- wiring -------------------------------------------------------------------------------

  function isWrite(config) {
    return config && config.verb === "post" && WRITE.test(config.path || "");
  }

  // a tap with no connection, or behind waiting entries: stored, not sent
  document.addEventListener("htmx:configRequest", function (event) {
    if (!isWrite(event.detail)) { return; }
    if (!navigator.onLine || waiting()) {
      event.preventDefault();
      var why = refusal(event.detail);
      if (why) { refuse(why); return; }  // sent, it would stop the queue
      enqueue(event.detail);
      flush();
    }
  });

  // a tap sent but not answered: maybe recorded, maybe not; its key tells the server
  function unanswered(event) {
    var config = event.detail.requestConfig;
    var xhr = event.detail.xhr;
    if (!isWrite(config)) { return; }
    if (event.type === "htmx:responseError" && !notNow(xhr && xhr.status)) {
      return;  // answered: scorepad.js shows what the server said
    }
    event.detail.queued = true;  // scorepad.js: no "lost" banner, the queue has it
    enqueue(config);
    setTimeout(flush, 1500);
  }
  document.addEventListener("htmx:sendError", unanswered, true);
  document.addEventListener("htmx:timeout", unanswered, true);
  document.addEventListener("htmx:responseError", unanswered, true);
  document.addEventListener("htmx:sendError", resyncFailed, true);
  document.addEventListener("htmx:responseError", resyncFailed, true);
  document.addEventListener("htmx:timeout", resyncFailed, true);
  document.addEventListener("htmx:afterRequest", resyncAnswered, true);

  document.addEventListener("htmx:afterSettle", function () {
    replay();
    render();
    keepPage();
    if (!resyncing) { sayRefusal(); }
  });
  function sayRefusal() {
    if (!refusedNow) { return; }
    // scorepad.js says what the table brought (the entries' news before the refused
    // one, "Ann won"): the refusal after it, or it would go unsaid
    refusedNow = false;
    var said = Array.prototype.map.call(
      document.querySelectorAll("#status .message, #status [data-news]"), wordsOf);
    var refused = document.getElementById("queue-refused");
    if (refused && !refused.hidden) { announce(said.concat(wordsOf(refused)).join(" ")); }
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest("#queue-discard")) { discard(); }
  });
  window.addEventListener("online", flush);
  window.addEventListener("online", resyncNow);
  window.addEventListener("offline", render);

  document.addEventListener("DOMContentLoaded", function () {
    if (document.documentElement.hasAttribute("data-offline-copy")) {
      // a kept copy: its keys may have been used since; new taps need new ones
      document.querySelectorAll("#scorepad input[name=key]").forEach(function (input) {
        input.value = uuid();
      });
    }
    replay();
    render();
    keepPage();
    flush();
    setInterval(flush, RETRY_MS);
  });
})();
