// The end-of-match summary's Share/Copy button (templates/matches/_match_end.html).
// Progressive: the link beside it works alone; with JavaScript, one button shares it
// (the phone's share sheet) or, where sharing is not offered, copies it. A file rather
// than an inline script: the Content-Security-Policy runs no inline code, and the
// summary also arrives in htmx swaps (a match ending on the scorepad), so the button is
// set up on load and again after every swap.
(function () {
  "use strict";

  function setUp() {
    var button = document.getElementById("share-button");
    if (!button || button.dataset.ready || !(navigator.share || navigator.clipboard)) { return; }
    button.dataset.ready = "true";
    var status = document.getElementById("share-status");
    var url = new URL(button.dataset.shareUrl, document.baseURI).href;
    // the words come from the page, in its language (data-*-text, _match_end.html)
    button.textContent = navigator.share ? (button.dataset.shareText || "Share link")
      : (button.dataset.copyText || "Copy link");
    button.hidden = false;
    button.addEventListener("click", function () {
      if (navigator.share) {
        navigator.share({title: button.dataset.shareTitle, url: url}).catch(function () {});
      } else {
        navigator.clipboard.writeText(url).then(function () {
          status.textContent = button.dataset.copiedText || "Link copied.";
        }, function () {
          status.textContent = button.dataset.copyFailedText ||
            "Could not copy: hold the link to copy it.";
        });
      }
    });
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", setUp);
})();
