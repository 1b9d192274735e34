// Share/Copy buttons: the end-of-match summary's (templates/matches/_match_end.html) and
// the season page's (templates/matches/season.html) and the cup's (templates/matches/
// cup.html), each a button[data-share-url].
// Progressive: the page's link or address works alone; with JavaScript, the button shares
// it (the phone's share sheet) or, where sharing is not offered, copies it and says so in
// its live region (data-share-status names it; #share-status by default). With neither,
// the button stays hidden. A file rather than an inline script: the Content-Security-
// Policy runs no inline code, and the summary also arrives in htmx swaps (a match ending
// on the scorepad), so the buttons are set up on load and again after every swap.
(function () {
  "use strict";

  function say(status, words) {
    if (!status) { return; }
    // emptied first: the same words again (a second copy) are announced again
    status.textContent = "";
    window.setTimeout(function () { status.textContent = words; }, 100);
  }

  function setUpOne(button) {
    if (button.dataset.ready || !(navigator.share || navigator.clipboard)) { return; }
    button.dataset.ready = "true";
    var status = document.getElementById(button.dataset.shareStatus || "share-status");
    var url = new URL(button.dataset.shareUrl, document.baseURI).href;

    function copy() {
      navigator.clipboard.writeText(url).then(function () {
        say(status, button.dataset.copiedText || "Link copied.");
      }, function () {
        say(status, button.dataset.copyFailedText ||
          "Could not copy: hold the link to copy it.");
      });
    }

    // the words come from the page, in its language (data-*-text)
    button.textContent = navigator.share ? (button.dataset.shareText || "Share link")
      : (button.dataset.copyText || "Copy link");
    button.hidden = false;
    button.addEventListener("click", function () {
      if (navigator.share) {
        navigator.share({title: button.dataset.shareTitle, url: url}).catch(function (error) {
          // closed by the person: nothing to do; refused by the browser: copy instead
          if (error && error.name !== "AbortError" && navigator.clipboard) { copy(); }
        });
      } else {
        copy();
      }
    });
  }

  function setUp() {
    document.querySelectorAll("button[data-share-url]").forEach(setUpOne);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", setUp);
})();
