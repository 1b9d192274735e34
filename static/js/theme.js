/* The colour theme: Auto (the system's), Light or Dark, chosen in the site header and
   remembered in this browser (localStorage "theme").

   Loaded in <head> without defer or async, so it runs before the first paint: a page
   never flashes light before turning dark. It sets data-theme="light" or "dark" on
   <html> for a chosen theme and none for Auto; app.css does the rest (custom
   properties under :root[data-theme=dark], and under prefers-color-scheme for Auto).
   The header's <select id="theme-select"> is hidden until this script wires it: it
   could do nothing without it. Its words are in the template (translated there). */
(function () {
  "use strict";
  var KEY = "theme";
  var root = document.documentElement;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "auto";
    } catch (error) {
      return "auto"; // storage refused (private mode, blocked cookies): follow the system
    }
  }

  // The browser's own bar follows the page: base.html has one theme-color per scheme,
  // chosen by media query; a chosen theme makes its own apply everywhere.
  function themeColours(theme) {
    var metas = document.querySelectorAll('meta[name="theme-color"][data-scheme]');
    for (var i = 0; i < metas.length; i++) {
      var meta = metas[i];
      var scheme = meta.getAttribute("data-scheme");
      if (theme === "auto") {
        meta.setAttribute("media", "(prefers-color-scheme: " + scheme + ")");
      } else {
        meta.setAttribute("media", scheme === theme ? "all" : "not all");
      }
    }
  }

  function apply(theme) {
    if (theme === "auto") {
      root.removeAttribute("data-theme");
    } else {
      root.setAttribute("data-theme", theme);
    }
    themeColours(theme);
  }

  function choose(theme) {
    try {
      if (theme === "auto") {
        window.localStorage.removeItem(KEY);
      } else {
        window.localStorage.setItem(KEY, theme);
      }
    } catch (error) {
      // not remembered, but this page still changes
    }
    apply(theme);
  }

  apply(stored());

  function wire() {
    themeColours(stored()); // the <meta> tags after this script were not parsed yet
    var select = document.getElementById("theme-select");
    if (!select) {
      return;
    }
    select.value = stored();
    select.addEventListener("change", function () {
      choose(select.value);
    });
    var holder = select.closest("[hidden]");
    if (holder) {
      holder.hidden = false;
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", wire);
  } else {
    wire();
  }

  // Another tab changed the theme: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) {
      var theme = stored();
      apply(theme);
      var select = document.getElementById("theme-select");
      if (select) {
        select.value = theme;
      }
    }
  });
})();
