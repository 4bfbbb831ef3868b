// A lesson, practice or placement step: the board as big as the screen allows with the words and the buttons
// still on it. Under the board are "Next", "Check" and the hint: a 1024x768 tablet showed a 528 px board and those
// buttons under the screen's edge, where a child who cannot read never finds them. The room for the board is the
// screen's height less what the step shows down to its buttons (measured, as the words differ from step to step),
// never less than MIN (below it the page scrolls rather than the points getting too small to tap). A screen held
// sideways puts the words beside the board instead (teach.css): nothing to fit there.
(function () {
  "use strict";
  var step = document.getElementById("step");
  var wrap = step && step.querySelector(".board-wrap");
  if (!wrap) return;
  var MIN = 288;  // px: a 9x9 board's points 30 px apart
  var MARGIN = 24;  // px left under the buttons
  var set = 0;

  function fit() {
    if (getComputedStyle(wrap).gridColumnStart === "1") return;  // beside the words: as high as the screen
    var actions = step.querySelector(".actions") || step;
    var board = wrap.getBoundingClientRect().height;
    var bottom = actions.getBoundingClientRect().bottom + window.scrollY;
    var room = Math.max(MIN, Math.floor(window.innerHeight - (bottom - board) - MARGIN));
    if (Math.abs(room - set) < 2) return;
    set = room;
    step.style.setProperty("--board-fit", room + "px");
  }

  // measured when the page opens and when the screen turns, not as the words under the board change: a board
  // that grows and shrinks under a child's finger takes the tap to another point (a line of words more fits in
  // the margin)
  fit();
  window.addEventListener("resize", fit);
  window.addEventListener("load", fit);
})();
