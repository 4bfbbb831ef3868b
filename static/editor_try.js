// "Try it as a kid": the teacher taps moves, the reader answers as it answers a kid; the line lives in the page.
// As on a kid's page: a move the computer is still reading keeps its stone while the page asks again, a tap on
// the board after a wrong move starts a new try, and the hint says what the kid's 💡 says.
(function () {
  "use strict";
  var box = document.getElementById("try");
  if (!box) return;
  var board = box.querySelector("svg.board"), stones = window.TeachStones;
  var feedback = document.getElementById("feedback");
  var start = stones.rows(board), line = [], busy = false, done = false, missed = false, reply = null;
  var ASKS_MAX = 40;  // a move still being read is asked for again this many times at most (a minute)
  function say(text, good) {
    feedback.textContent = text || "";
    feedback.className = "feedback " + (good === true ? "good" : good === false ? "bad" : "");
  }
  function again() {
    if (reply) { clearTimeout(reply); reply = null; }
    line = []; done = false; missed = false; say(""); stones.setRows(board, start, null, true);
  }
  function play(point, asked) {
    if ((busy && !asked) || (done && !missed)) return;
    if (missed) again();  // a tap after a wrong move: a new try, from this tap
    busy = true;
    stones.post(box.dataset.url, {line: line, move: point}).then(function (data) {
      busy = false;
      if (data.rows) stones.setRows(board, data.rows, point);
      if (data.retry && (asked || 0) < ASKS_MAX) {  // still being read: the stone stays, the page asks again
        say(data.message);
        busy = true;
        setTimeout(function () { play(point, (asked || 0) + 1); }, data.retry);
        return;
      }
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
      missed = data.result === "wrong";
    }).catch(function () { busy = false; });
  }
  stones.points(board).forEach(function (pt) { pt.addEventListener("click", function () { play(pt.dataset.point); }); });
  document.getElementById("try-again").addEventListener("click", again);
  var hint = document.getElementById("try-hint");
  if (hint) hint.addEventListener("click", function () { say(box.dataset.hint); });
})();
