// The kid's pages work through school Wi-Fi gaps: the offline helper (served at /learn/sw.js) keeps the static
// files and the lesson's pages. Signing out forgets the kept pages, so the next child on a shared tablet never
// sees them. The sign-out guard's "stay" closes it.
(function () {
  "use strict";
  var url = document.body.dataset.offline;
  if (url && navigator.serviceWorker) {
    navigator.serviceWorker.register(url, {scope: url.replace(/[^/]*$/, "")}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      // pages kept for another child (a session that ended without signing out) are forgotten first
      if (reg.active) reg.active.postMessage({owner: document.body.dataset.owner});
    }).catch(function () {});
  }
  var form = document.getElementById("sign-out-form");
  if (form) form.addEventListener("submit", function () {
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({forget: true});
    }
  });
  var stay = document.getElementById("sign-out-no");
  if (stay) stay.addEventListener("click", function () { stay.closest("details").open = false; });
})();
