// The board helpers every playing page shares (lessons, games, review): read and set the stones of a server-drawn
// board, and post JSON with the page's CSRF token. The pages themselves only decide what a tap means.
(function () {
  "use strict";
  var COLUMNS = "ABCDEFGHJKLMNOPQRST";
  function rowCol(board, name) {
    var size = parseInt(board.dataset.size, 10);
    return [size - parseInt(name.slice(1), 10), COLUMNS.indexOf(name[0])];
  }
  function points(board) { return board ? board.querySelectorAll("g.pt") : []; }
  // the board's rows as the engine writes them, top row first: X black, O white, . empty
  function rows(board) {
    var size = parseInt(board.dataset.size, 10), out = [];
    for (var r = 0; r < size; r++) out.push(new Array(size).fill("."));
    points(board).forEach(function (pt) {
      var rc = rowCol(board, pt.dataset.point);
      out[rc[0]][rc[1]] = pt.classList.contains("black") ? "X" : pt.classList.contains("white") ? "O" : ".";
    });
    return out.map(function (r) { return r.join(""); });
  }
  // show ``next`` (rows), mark ``last``; stones that vanish flash as captured unless ``quiet`` (a reset)
  function setRows(board, next, last, quiet) {
    points(board).forEach(function (pt) {
      var rc = rowCol(board, pt.dataset.point), ch = next[rc[0]][rc[1]];
      var was = pt.classList.contains("black") || pt.classList.contains("white");
      pt.classList.toggle("black", ch === "X");
      pt.classList.toggle("white", ch === "O");
      pt.classList.toggle("empty", ch === ".");
      pt.classList.toggle("captured", !quiet && was && ch === ".");
      pt.classList.toggle("last", pt.dataset.point === last);
    });
  }
  // a JSON POST; an answer that is no JSON (a proxy's error page) reads as {result: "error", message: fallback}
  // An answer that takes a while (a move read live): after a moment the step shows the board thinking and says so
  // (the step's data-say-waiting), instead of the last move's words. Returns what stops the wait: call it when the
  // answer arrives (the caller decides whether "thinking" stays, for an answer that is itself "still thinking").
  var WAIT_MS = 700;
  function waitFor(step, say) {
    var timer = setTimeout(function () { step.classList.add("thinking"); say(step.dataset.sayWaiting); }, WAIT_MS);
    return function () { clearTimeout(timer); };
  }
  function post(url, body, fallback) {
    var csrf = document.querySelector("meta[name=csrf-token]").content;
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json"},
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {result: "error", message: fallback || ""}; });
    });
  }
  // A board without coordinates needs no room round its edge stones beyond what a finger needs: its margin is
  // cut down so that the points are at least 44 px apart (aiming at 44.5, so no rounding takes a pixel off), the
  // 9 points of a 9x9 board on a 390 px phone too, down to the stones' own room (17 units, the stones drawn a
  // little smaller than a cell). Where the screen has room to spare (a 7x7 board on a phone, any board on a
  // tablet) the margin grows, up to 30 units, so the edge stones never touch the screen's edge. Fitted again
  // when the screen turns.
  var CELL = 40, TIGHT = 17, ROOMY = 30, FINGER = 44.5, STONE = 18.5, TIGHT_STONE = 16.5, RING = 1.75;
  function fit(board) {
    if (!board || !board.classList.contains("bare") || board.closest(".zoomed")) return;
    var full = (board.dataset.full || board.getAttribute("viewBox")).split(" ").map(Number);
    board.dataset.full = full.join(" ");
    var span = (parseInt(board.dataset.size, 10) - 1) * CELL, width = board.getBoundingClientRect().width;
    var room = width > 0 ? (width * CELL / FINGER - span) / 2 : TIGHT;
    room = Math.max(TIGHT, Math.min(ROOMY, room));
    var cut = (full[2] - span) / 2 - room;
    var box = [full[0] + cut, full[1] + cut, full[2] - 2 * cut, full[3] - 2 * cut];
    board.setAttribute("viewBox", box.join(" "));
    var wood = board.querySelector("rect.wood");
    if (wood) ["x", "y", "width", "height"].forEach(function (k, i) { wood.setAttribute(k, box[i]); });
    // the last move's ring, half its width outside the stone, stays inside the margin
    var tight = room < STONE + RING, r = tight ? TIGHT_STONE : STONE;
    board.classList.toggle("tight", tight);
    board.querySelectorAll("circle.stone").forEach(function (c) { c.setAttribute("r", r); });
    board.dataset.fitted = "1";
  }
  document.querySelectorAll("svg.board.bare").forEach(fit);
  var refit = null;
  window.addEventListener("resize", function () {
    clearTimeout(refit);
    refit = setTimeout(function () { document.querySelectorAll("svg.board.bare").forEach(fit); }, 150);
  });

  // A big board on a small screen (13x13 or 19x19 on a phone): when the points are too close for a child's finger,
  // the first tap zooms in on that part of the board, where points are at least 44 px apart, and the next tap
  // plays. "Whole board" zooms out again, and so does a played move once ``settled()`` says its answer is on the
  // board (no ``settled``: the page stays zoomed in). The board is looked up in ``wrap`` at each tap, so a page
  // that draws a new one (the count screen) keeps its zoom.
  var WINDOW_POINTS = 7;
  function zoom(wrap, lang, settled) {
    var whole = null;
    function svg() { return wrap.querySelector("svg.board"); }
    function box(board) { return (board.dataset.box || board.getAttribute("viewBox")).split(" ").map(Number); }
    function zoomed() { return wrap.classList.contains("zoomed"); }
    function needed(board) {
      var size = parseInt(board.dataset.size, 10);
      return size > WINDOW_POINTS && board.getBoundingClientRect().width / box(board)[2] * CELL < 36;
    }
    function zoomOut() {
      var board = svg();
      if (board && board.dataset.box) board.setAttribute("viewBox", board.dataset.box);
      wrap.classList.remove("zoomed");
      if (whole) whole.hidden = true;
    }
    function zoomTo(board, pt) {
      var b = box(board), c = pt.querySelector("circle.stone"), cx = +c.getAttribute("cx"), cy = +c.getAttribute("cy");
      var span = (WINDOW_POINTS - 1) * CELL + (b[2] - (parseInt(board.dataset.size, 10) - 1) * CELL);
      function clamp(v) { return Math.max(b[0], Math.min(b[0] + b[2] - span, v)); }
      board.dataset.box = b.join(" ");
      board.setAttribute("viewBox", [clamp(cx - span / 2), clamp(cy - span / 2), span, span].join(" "));
      wrap.classList.add("zoomed");
      if (!whole) {
        whole = document.createElement("button");
        whole.type = "button"; whole.className = "whole-board"; whole.textContent = "⤢";
        whole.setAttribute("aria-label", lang === "zh" ? "看整个棋盘" : "Whole board");
        whole.dataset.say = whole.getAttribute("aria-label");
        whole.addEventListener("click", zoomOut);
        wrap.appendChild(whole);
      }
      whole.hidden = false;
    }
    wrap.classList.add("zoomable");
    wrap.addEventListener("click", function (e) {
      var board = svg(), pt = e.target.closest && e.target.closest("g.pt");
      if (!pt || !board || !board.classList.contains("playable")) return;
      if (!zoomed() && needed(board)) { e.stopPropagation(); e.preventDefault(); zoomTo(board, pt); return; }
      if (zoomed() && settled) {
        var wait = setInterval(function () { if (settled()) { clearInterval(wait); zoomOut(); } }, 1400);
      }
    }, true);
    window.addEventListener("resize", function () { var board = svg(); if (zoomed() && board && !needed(board)) zoomOut(); });
  }
  // a capture game's caught-stone dots: one per stone of the goal, filled as stones are caught; a capture that
  // goes past the goal (3 to catch, 5 caught at once) adds dots, so the card shows what the banner says
  function catches(player, n) {
    var box = player.querySelector(".catches");
    if (!box) return;
    var dots = box.querySelectorAll(".catch");
    for (var k = dots.length; k < n && dots.length; k++) {
      var extra = dots[0].cloneNode(false);
      extra.classList.add("extra");
      box.appendChild(extra);
    }
    box.querySelectorAll(".catch").forEach(function (c, i) { c.classList.toggle("got", i < n); });
  }
  window.TeachStones = {rows: rows, setRows: setRows, post: post, points: points, fit: fit, zoom: zoom,
                        catches: catches, waitFor: waitFor};
})();
