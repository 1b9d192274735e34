"""When a page is ready for a person's taps."""

# htmx (in the head) and the page's own scripts (at the end of the body) are loaded with
# `defer`: they run in order once the page is parsed, and the page is "complete" only
# after all of them. Waiting for htmx alone let a first tap land before scorepad.js had
# wired the tiles, and follow a tile's link to the server instead.
WIRED = "() => window.htmx !== undefined && document.readyState === 'complete'"
