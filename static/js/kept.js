/* The offline page (templates/offline.html): links to the scorepads this phone keeps
   (templates/sw.js keeps each one it opened), so a scorer who closed the tab or the
   installed app at the table finds their scorepad, and its waiting entries, again. */
(function () {
  "use strict";
  var script = document.currentScript;
  var list = document.getElementById("kept-scorepads");
  if (!script || !list || !window.caches) { return; }
  var scorerPage = new RegExp(script.dataset.pattern);

  function titleOf(html) {
    var found = /<title>([^<]*)<\/title>/.exec(html);
    if (!found) { return null; }
    var title = new DOMParser().parseFromString(found[1], "text/html").body.textContent;
    var cut = title.lastIndexOf(" · ");  // " · Scorekeeper"
    return (cut > 0 ? title.slice(0, cut) : title).trim();
  }

  function waiting(path) {
    try {
      var state = JSON.parse(localStorage.getItem("scorekeeper:queue:" + path) || "{}");
      return (state.entries || []).length + (state.kept || []).length;
    } catch (error) {
      return 0;
    }
  }

  caches.keys().then(function (names) {
    return Promise.all(names.map(function (name) {
      return caches.open(name).then(function (cache) {
        return cache.keys().then(function (requests) {
          return Promise.all(requests.filter(function (request) {
            return scorerPage.test(new URL(request.url).pathname);
          }).map(function (request) {
            return cache.match(request).then(function (response) {
              return response.text().then(function (html) {
                return {path: new URL(request.url).pathname, title: titleOf(html)};
              });
            });
          }));
        });
      });
    }));
  }).then(function (found) {
    var seen = {};
    [].concat.apply([], found).forEach(function (page) {
      if (seen[page.path] || !page.title) { return; }
      seen[page.path] = true;
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = page.path;
      link.textContent = page.title;
      item.appendChild(link);
      if (waiting(page.path)) {
        item.appendChild(document.createTextNode(" " + list.dataset.waiting));
      }
      list.appendChild(item);
    });
    if (list.children.length) {
      list.hidden = false;
      document.getElementById("kept-heading").hidden = false;
    }
  });
})();
