// "Try it as a kid": the teacher taps moves, the reader answers as it answers a kid; the line lives in the page.
(function () {
  "use strict";
  var box = document.getElementById("try");
  if (!box) return;
  var board = box.querySelector("svg.board"), stones = window.TeachStones;
  var feedback = document.getElementById("feedback");
  var start = stones.rows(board), line = [], busy = false, done = false, reply = null;
  function say(text, good) {
    feedback.textContent = text || "";
    feedback.className = "feedback " + (good === true ? "good" : good === false ? "bad" : "");
  }
  function tap(pt) {
    if (busy || done) return;
    busy = true;
    stones.post(box.dataset.url, {line: line, move: pt.dataset.point}).then(function (data) {
      busy = false;
      if (data.rows) stones.setRows(board, data.rows, pt.dataset.point);
      if (data.back_rows) {  // "slow" or "thinking": no move of the line, shown and then taken back, as for a kid
        say(data.message);
        busy = true;
        setTimeout(function () { busy = false; stones.setRows(board, data.back_rows, null, true); }, 1200);
        return;
      }
      // the computer's answer shows a moment later, unless "try again" came first
      if (data.reply_rows) reply = setTimeout(function () { reply = null; stones.setRows(board, data.reply_rows, data.reply); }, 500);
      if (data.line) line = data.line;
      say(data.message, data.result === "correct" ? true : data.result === "wrong" ? false : null);
      if (data.result === "correct" || data.result === "wrong") done = true;
    }).catch(function () { busy = false; });
  }
  stones.points(board).forEach(function (pt) { pt.addEventListener("click", function () { tap(pt); }); });
  document.getElementById("try-again").addEventListener("click", function () {
    if (reply) { clearTimeout(reply); reply = null; }
    line = []; done = false; say(""); stones.setRows(board, start, null, true);
  });
})();
