// The game replay: every frame was drawn by the server (rows per move, as JSON in the page), so stepping through
// a game needs no rules here; the buttons are links that work without this script too.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var COLUMNS = "ABCDEFGHJKLMNOPQRST";
  var frames = JSON.parse(document.getElementById("replay-frames").textContent);
  var words = JSON.parse(document.getElementById("replay-words").textContent);
  var board = root.querySelector("svg.board");
  var size = parseInt(board.dataset.size, 10);
  var slider = document.getElementById("slider");
  var at = parseInt(slider.value, 10);
  var points = {};
  board.querySelectorAll("g.pt").forEach(function (pt) { points[pt.dataset.point] = pt; });

  function fill(text, values) {
    return text.replace(/%\((\w+)\)d/g, function (_, k) { return values[k]; });
  }
  function show(n) {
    at = Math.max(0, Math.min(frames.length - 1, n));
    var f = frames[at];
    f.rows.forEach(function (row, r) {
      for (var c = 0; c < size; c++) {
        var pt = points[COLUMNS[c] + (size - r)], ch = row[c];
        pt.classList.toggle("black", ch === "X");
        pt.classList.toggle("white", ch === "O");
        pt.classList.toggle("empty", ch === ".");
        pt.classList.toggle("last", pt.dataset.point === f.move);
      }
    });
    var said = at ? fill(words.move, {n: at, total: frames.length - 1}) : words.start;
    if (f.move === "pass") said += " · " + words[f.color] + " " + words.pass;
    document.getElementById("move-number").textContent = said;
    document.getElementById("captures-black").textContent = fill(words.captured, {n: f.captures.black});
    document.getElementById("captures-white").textContent = fill(words.captured, {n: f.captures.white});
    slider.value = at;
  }
  // Watch: from the start (or from here, when not at the end) a move a second until the end; any other step,
  // the slider or a key stops it, so a child who taps ◀ is not fought by the clock
  var watch = document.getElementById("watch"), timer = null, WATCH_MS = 1000;
  var watchLabel = watch.getAttribute("aria-label");
  function stop() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    watch.textContent = "⏯";
    watch.setAttribute("aria-label", watchLabel);
    watch.setAttribute("aria-pressed", "false");
  }
  watch.hidden = false;
  watch.setAttribute("aria-pressed", "false");
  watch.addEventListener("click", function () {
    if (timer !== null) { stop(); return; }
    if (at >= frames.length - 1) show(0);
    watch.textContent = "⏸";
    watch.setAttribute("aria-label", watch.dataset.pause);
    watch.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      show(at + 1);
      if (at >= frames.length - 1) stop();
    }, WATCH_MS);
  });
  function go(id, to) {
    document.getElementById(id).addEventListener("click", function (e) { e.preventDefault(); stop(); show(to()); });
  }
  go("first", function () { return 0; });
  go("prev", function () { return at - 1; });
  go("next", function () { return at + 1; });
  go("last", function () { return frames.length - 1; });
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) return;
    if (e.key === "ArrowLeft") { stop(); show(at - 1); }
    else if (e.key === "ArrowRight") { stop(); show(at + 1); }
  });
})();
