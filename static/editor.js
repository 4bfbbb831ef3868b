// The board editor: a tap puts a stone of the chosen colour, takes it away, or picks a target stone. The board's
// rows go back to the server in one hidden field; the server checks everything again.
(function () {
  "use strict";
  var wrap = document.getElementById("editor-board");
  var form = document.getElementById("editor-form");
  if (!wrap || !form) return;
  var board = wrap.querySelector("svg.board");
  var stones = window.TeachStones;
  var rowsField = document.getElementById("editor-rows");
  var targetField = document.getElementById("editor-target");
  var tool = "black";

  function targets() {
    return targetField.value.toUpperCase().split(/[\s,]+/).filter(function (p) { return p; });
  }
  function showTargets() {
    var chosen = targets();
    stones.points(board).forEach(function (pt) {
      pt.classList.toggle("m-highlight", chosen.indexOf(pt.dataset.point) >= 0);
    });
  }
  function save() { rowsField.value = stones.rows(board).join("/"); }
  function setTargets(list) { targetField.value = list.join(" "); showTargets(); }

  function tap(pt) {
    var name = pt.dataset.point;
    var colour = pt.classList.contains("black") ? "black" : pt.classList.contains("white") ? "white" : null;
    if (tool === "target") {
      if (!colour) return;
      var list = targets(), at = list.indexOf(name);
      if (at >= 0) list.splice(at, 1); else list.push(name);
      setTargets(list);
      return;
    }
    var next = tool === "erase" || colour === tool ? null : tool;
    pt.classList.toggle("black", next === "black");
    pt.classList.toggle("white", next === "white");
    pt.classList.toggle("empty", next === null);
    if (!next) setTargets(targets().filter(function (p) { return p !== name; }));
    save();
  }
  stones.points(board).forEach(function (pt) {
    pt.addEventListener("click", function () { tap(pt); });
    pt.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tap(pt); }
    });
  });
  document.querySelectorAll(".editor-tools .tool").forEach(function (button) {
    button.addEventListener("click", function () {
      tool = button.dataset.tool;
      document.querySelectorAll(".editor-tools .tool").forEach(function (b) {
        b.classList.toggle("on", b === button);
        b.setAttribute("aria-pressed", b === button ? "true" : "false");
      });
    });
  });
  var clear = document.querySelector("[data-clear]");
  if (clear) clear.addEventListener("click", function () {
    var size = parseInt(board.dataset.size, 10), empty = [];
    for (var r = 0; r < size; r++) empty.push(new Array(size + 1).join("."));
    stones.setRows(board, empty, null, true);
    setTargets([]);
    save();
  });
  targetField.addEventListener("input", showTargets);
  form.addEventListener("submit", save);
  showTargets();
})();
