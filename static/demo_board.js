// The demo board: the page keeps the set-up position, the line of moves and how far into it the board shows; the
// engine on the server plays the moves (captures, ko, forbidden points), and the reader answers "can this be
// captured?".
(function () {
  "use strict";
  var demo = document.getElementById("demo");
  if (!demo) return;
  var board = demo.querySelector("svg.board"), stones = window.TeachStones;
  var answer = document.getElementById("demo-answer"), turn = document.getElementById("demo-turn");
  var base = stones.rows(board), baseToPlay = demo.dataset.toPlay;
  var line = JSON.parse(document.getElementById("demo-line").textContent || "[]"), at = 0;
  var toPlay = baseToPlay, tool = "play", busy = false;

  function say(text) { answer.textContent = text || ""; }
  function showTurn() {
    turn.textContent = turn.dataset[toPlay] + (at ? " · " + turn.dataset.move.replace("{n}", at) : "");
  }
  function show(upTo, message) {
    busy = true;
    return stones.post(demo.dataset.play, {rows: base, to_play: baseToPlay, moves: line.slice(0, upTo)})
      .then(function (data) {
        busy = false;
        if (!data.rows) { say(data.message); return false; }
        if (data.result === "illegal") { say(data.message); return false; }
        at = upTo; toPlay = data.to_play;
        stones.setRows(board, data.rows, at ? line[at - 1] : null, upTo === 0);
        say(message || ""); showTurn();
        return true;
      }).catch(function () { busy = false; return false; });
  }
  function setUp(pt, colour) {
    // a change to the set-up: the board as it stands becomes the new start, the line is kept no further
    var rows = stones.rows(board), name = pt.dataset.point, size = rows.length;
    var r = size - parseInt(name.slice(1), 10), c = "ABCDEFGHJKLMNOPQRST".indexOf(name[0]);
    var was = rows[r][c], ch = colour === "black" ? "X" : colour === "white" ? "O" : ".";
    if (was === ch) ch = ".";
    rows[r] = rows[r].slice(0, c) + ch + rows[r].slice(c + 1);
    base = rows; baseToPlay = toPlay; line = []; at = 0;
    stones.setRows(board, rows, null, true); showTurn();
  }
  function tap(pt) {
    if (busy) return;
    if (tool === "mark") { pt.classList.toggle("m-highlight"); return; }
    if (tool === "ask") {
      busy = true; say("…");
      stones.post(demo.dataset.ask, {rows: stones.rows(board), to_play: toPlay, point: pt.dataset.point})
        .then(function (data) { busy = false; say(data.message); })
        .catch(function () { busy = false; });
      return;
    }
    if (tool !== "play") { setUp(pt, tool === "erase" ? null : tool); return; }
    var kept = line.slice(0, at);
    var before = line;
    line = kept.concat([pt.dataset.point]);
    show(at + 1).then(function (ok) { if (!ok) line = before; });
  }
  stones.points(board).forEach(function (pt) {
    pt.addEventListener("click", function () { tap(pt); });
    pt.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tap(pt); } });
  });
  demo.querySelectorAll(".tool").forEach(function (button) {
    button.addEventListener("click", function () {
      tool = button.dataset.tool;
      demo.querySelectorAll(".tool").forEach(function (b) {
        b.classList.toggle("on", b === button); b.setAttribute("aria-pressed", b === button ? "true" : "false");
      });
    });
  });
  demo.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (busy) return;
      var go = button.dataset.go;
      if (go === "start") show(0);
      else if (go === "back" && at > 0) show(at - 1);
      else if (go === "forward" && at < line.length) show(at + 1);
      else if (go === "clear-marks") stones.points(board).forEach(function (pt) { pt.classList.remove("m-highlight"); });
    });
  });
  var editor = demo.querySelector("[data-editor]");
  if (editor) editor.addEventListener("click", function () {
    window.location = editor.dataset.editor + "?rows=" + encodeURIComponent(stones.rows(board).join("/")) +
      "&to_play=" + toPlay;
  });
  var full = demo.querySelector("[data-fullscreen]");
  if (full) full.addEventListener("click", function () {
    if (document.fullscreenElement) document.exitFullscreen(); else if (demo.requestFullscreen) demo.requestFullscreen();
  });
  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("select, input")) return;
    if (e.key === "ArrowLeft" && at > 0 && !busy) show(at - 1);
    if (e.key === "ArrowRight" && at < line.length && !busy) show(at + 1);
  });
  showTurn();
})();
