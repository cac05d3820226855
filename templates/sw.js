/* Tableside's service worker (web/offline.py): the pages, static files and catalog from the
   browser's cache when the network is not there. Static files: the cache first. Pages and the
   catalog's API: the network first, the cache when it fails (a page with its input in the
   address falls back to the same page without it). POSTs are never answered here: a score sent
   offline fails in the page, which keeps it and sends it again (static/js/offline.js). */
"use strict";

var VERSION = "{{ version }}";
var CACHE = "tableside-" + VERSION;
var PRECACHE = {{ precache|safe }};
var STATIC_URL = {{ static_url|safe }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf("tableside-") === 0 && key !== CACHE;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function keep(request, response) {
  if (response && response.ok && response.type === "basic") {
    var copy = response.clone();
    caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
  }
  return response;
}

function fromCache(request) {
  return caches.match(request).then(function (found) {
    return found || caches.match(request, { ignoreSearch: true });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin ||
      url.pathname.indexOf("/admin/") === 0 || url.pathname === "/sw.js") {
    return;
  }
  if (url.pathname.indexOf(STATIC_URL) === 0) {
    event.respondWith(caches.match(request).then(function (found) {
      return found || fetch(request).then(function (response) { return keep(request, response); });
    }));
    return;
  }
  // An htmx update (live search) wants a fragment: a whole page from the cache would not fit, so
  // offline it fails and the page stays as it is.
  var fragment = request.headers.get("HX-Request") === "true";
  event.respondWith(fetch(request).then(function (response) {
    return fragment ? response : keep(request, response);
  }, function (error) {
    if (fragment) {
      throw error;
    }
    return fromCache(request).then(function (found) {
      if (found) {
        return found;
      }
      throw error;
    });
  }));
});
