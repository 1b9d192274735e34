// Scorekeeper's service worker, served at /sw.js by scorekeeper.offline.service_worker
// (a template: the addresses below come from Django) and registered on every page by
// static/js/sw-register.js. What it keeps on the phone:
//  - the app shell (CSS, JavaScript, icons, the offline page), stored on install;
//  - the scorer's pages this phone opened: network first, the kept copy when there is
//    no network. The page itself (static/js/offline.js) sends its newest state after
//    each recorded tap, so the copy is the table as last seen, not as first loaded.
// It never stores the answer to a POST or an htmx request, nor any other page: a match
// someone else scores is theirs, and a watcher's page is not kept.
"use strict";

// Scorekeeper.notNow, as the pages have it
importScripts({{ shared_script|safe }});

var PREFIX = "scorekeeper-";
var CACHE = PREFIX + "{{ version_mark }}";
var SHELL = {{ shell|safe }};
var OFFLINE_URL = {{ offline_url|safe }};
var STATIC_PREFIX = {{ static_prefix|safe }};
// production serves static files under names that change with their content: those can
// be served from the phone without asking; unhashed names (development) ask first
var STATIC_HASHED = {{ static_hashed|safe }};
var SCORER_PAGE = new RegExp({{ scorer_pattern|safe }});
// a kept page built from the page's own state gets the site's usual policy
var PAGE_HEADERS = {"Content-Type": "text/html; charset=utf-8",
                    "Content-Security-Policy": {{ csp|safe }}};

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(SHELL);
  }).then(function () { return self.skipWaiting(); }));
});

// Old versions' caches are removed; the scorer's pages kept in them move to the new one
// (entries may be waiting on the phone for exactly that page).
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    var old = names.filter(function (name) { return name.indexOf(PREFIX) === 0 && name !== CACHE; });
    return caches.open(CACHE).then(function (cache) {
      return Promise.all(old.map(function (name) {
        return caches.open(name).then(function (oldCache) {
          return oldCache.keys().then(function (requests) {
            return Promise.all(requests.filter(function (request) {
              return SCORER_PAGE.test(new URL(request.url).pathname);
            }).map(function (request) {
              return oldCache.match(request).then(function (response) {
                return response && cache.put(request, response);
              });
            }));
          });
        }).then(function () { return caches.delete(name); });
      }));
    });
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }  // writes go to the server or fail: never kept
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(STATIC_HASHED ? cacheFirst(event, request) : networkFirst(event, request));
    return;
  }
  if (request.mode !== "navigate") { return; }  // htmx's fragments, JSON, files: network only
  if (SCORER_PAGE.test(url.pathname)) {
    event.respondWith(scorerPage(event, request, url.origin + url.pathname));
    return;
  }
  event.respondWith(fetch(request).then(function (response) {
    followLanguage(event, response);
    return response;
  }).catch(offlinePage));
});

// The offline page was kept in the language of the install; a page that comes in
// another (the reader switched) brings the offline page again, in that language.
function followLanguage(event, response) {
  var language = response.headers.get("Content-Language");
  if (!language || !response.ok) { return; }
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.match(OFFLINE_URL, {ignoreVary: true}).then(function (kept) {
      if (kept && kept.headers.get("Content-Language") === language) { return undefined; }
      return fetch(OFFLINE_URL).then(function (fresh) {
        return fresh.ok ? cache.put(OFFLINE_URL, fresh) : undefined;
      });
    });
  }).catch(function () { /* offline again: the kept page stays */ }));
}

// The page sends its own state after each recorded tap ({type: "keep", url, html}); it
// replaces the kept copy of that scorer's page unless the kept one shows a later version.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || typeof data.html !== "string" || typeof data.url !== "string") {
    return;
  }
  var url = new URL(data.url, self.location.origin);
  if (url.origin !== self.location.origin || !SCORER_PAGE.test(url.pathname)) { return; }
  event.waitUntil(keep(url.origin + url.pathname, data.html));
});

function cacheFirst(event, request) {
  return caches.match(request).then(function (hit) {
    return hit || fetch(request).then(function (response) {
      if (response.ok && response.type === "basic") {
        var copy = response.clone();
        event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(request, copy); }));
      }
      return response;
    });
  });
}

function networkFirst(event, request) {
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  }).catch(function () {
    return caches.match(request).then(function (hit) { return hit || Response.error(); });
  });
}

// a proxy's answers that say "not now" (its rate limit, or the app is down:
// Scorekeeper.notNow): the kept copy serves as when there is no network
// (static/js/offline.js sends the waiting entries once the app answers again); without
// one, the proxy's own page

function scorerPage(event, request, key) {
  return fetch(request).then(function (response) {
    followLanguage(event, response);
    if (response.ok && response.type === "basic" && !response.redirected) {
      var copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(key, copy); }));
    } else if (response.status === 403 || response.status === 404) {
      // this phone no longer scores the match, or it is gone: forget the copy
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.delete(key); }));
    } else if (Scorekeeper.notNow(response.status)) {
      return caches.match(key, {ignoreVary: true}).then(function (hit) {
        return hit || response;
      });
    }
    return response;
  }).catch(function () {
    return caches.match(key, {ignoreVary: true}).then(function (hit) {
      return hit || offlinePage();
    });
  });
}

function offlinePage() {
  return caches.match(OFFLINE_URL, {ignoreVary: true}).then(function (hit) {
    return hit || Response.error();
  });
}

function shownVersion(html) {
  var found = /data-version="(\d+)"/.exec(html);
  return found ? parseInt(found[1], 10) : -1;
}

function keep(key, html) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(key, {ignoreVary: true}).then(function (old) {
      return (old ? old.clone().text() : Promise.resolve("")).then(function (oldHtml) {
        if (old && shownVersion(oldHtml) > shownVersion(html)) { return undefined; }
        var headers = new Headers(old ? old.headers : PAGE_HEADERS);
        headers.delete("Content-Length");
        headers.delete("Content-Encoding");
        return cache.put(key, new Response(html, {headers: headers}));
      });
    });
  });
}
