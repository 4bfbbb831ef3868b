// The offline helper for school Wi-Fi. Static files: answered from the cache at once and refreshed behind the
// scenes. The kid's pages under /learn/: from the network when it answers, else the copy kept when the page was
// last seen (the page of a step is kept as soon as the step before it is solved). Moves and answers (POST) always
// go to the server: the page retries them itself. Signing out forgets every kept page (a shared tablet).
"use strict";
var STATIC = "teach-static-v1";
var PAGES = "teach-pages-v1";
var OFFLINE_PAGE = '<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
  '<title>📶</title><body style="font:24px system-ui;text-align:center;padding:2rem;background:#fffaf0">' +
  '<p style="font-size:4rem">📶</p><p>网络断了。等一等，再点一下。</p><p>No connection. Wait a moment, then tap.</p>' +
  '<p><a href="" style="font-size:2rem">↻</a></p>';

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== STATIC && n !== PAGES; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function keepable(response) {
  return response && response.ok && !response.redirected && response.type === "basic";
}
function keepPage(url) {
  return fetch(url, {credentials: "same-origin"}).then(function (response) {
    if (keepable(response)) return caches.open(PAGES).then(function (c) { return c.put(url, response); });
  }).catch(function () {});
}

var OWNER = "/learn/sw-owner";  // whose pages are kept: a key in the static cache, never served
function forOwner(owner) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(OWNER).then(function (kept) { return kept ? kept.text() : null; }).then(function (was) {
      if (was === owner) return;
      // no owner yet (a helper just installed): the pages kept so far are this child's, kept before the page
      // could say whose they are; another child's are forgotten
      var forget = was === null ? Promise.resolve() : caches.delete(PAGES);
      return forget.then(function () { return cache.put(OWNER, new Response(owner)); });
    });
  });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.forget) event.waitUntil(caches.delete(PAGES));
  if (typeof data.owner === "string") event.waitUntil(forOwner(data.owner));
  if (Array.isArray(data.keep)) {
    var mine = data.keep.filter(function (u) {
      var url = new URL(u, self.location.href);
      return url.origin === self.location.origin && url.pathname.indexOf("/learn/") === 0;
    });
    event.waitUntil(Promise.all(mine.slice(0, 5).map(keepPage)));
  }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.open(STATIC).then(function (cache) {
      return cache.match(request).then(function (kept) {
        var fresh = fetch(request).then(function (response) {
          if (keepable(response)) cache.put(request, response.clone());
          return response;
        });
        if (kept) { event.waitUntil(fresh.catch(function () {})); return kept; }
        return fresh;
      });
    }));
  } else if (url.pathname.indexOf("/learn/") === 0 && request.mode === "navigate") {
    event.respondWith(fetch(request).then(function (response) {
      if (keepable(response)) {
        var copy = response.clone();
        event.waitUntil(caches.open(PAGES).then(function (c) { return c.put(request.url, copy); }));
      }
      return response;
    }).catch(function () {
      return caches.open(PAGES).then(function (c) { return c.match(request.url); }).then(function (kept) {
        return kept || new Response(OFFLINE_PAGE, {status: 503, headers: {"Content-Type": "text/html; charset=utf-8"}});
      });
    }));
  }
});
