// Help that never leaves a child stuck (teach/web/puzzle_help.py): after two misses the board hints (the stones
// in question pulse, their liberties light up); after three, "show me" plays the judge's answer move by move, then
// the board starts again and the child plays it. A line the judge could not work out is "let's try another".
(function () {
  "use strict";
  var step = document.getElementById("step");
  if (!step || step.dataset.kind !== "puzzle" || !step.dataset.showMeUrl || !step.teachBoard) return;
  var board = step.querySelector("svg.board");
  var api = step.teachBoard;
  var stones = window.TeachStones;
  var showMe = document.getElementById("show-me");
  var words = document.getElementById("help-words").dataset;
  var playing = false, hintWords = "", missWords = "";
  var MOVE_PAUSE = 1100, REPLY_PAUSE = 900;

  function mark(names, cls) {
    board.querySelectorAll("g.pt." + cls).forEach(function (pt) { pt.classList.remove(cls); });
    (names || []).forEach(function (name) {
      var pt = board.querySelector('g.pt[data-point="' + name + '"]');
      if (pt) pt.classList.add(cls);
    });
  }

  function boardHint() {
    stones.post(step.dataset.boardHintUrl, {}).then(function (data) {
      if (data.show_me) showMe.hidden = false;
      if (!data.stones) return;
      mark(data.stones, "help-stone");
      mark(data.liberties, "help-liberty");
      hintWords = data.message || "";
      // after the words for the miss (why the move failed), not instead of them
      if (hintWords) {
        var gap = step.dataset.lang === "zh" ? "" : " ";  // Chinese sentences follow on without a space
        api.say(missWords ? missWords + gap + hintWords : hintWords, false);
        api.speak(hintWords);
      }
    });
  }

  step.addEventListener("teach:verdict", function (e) {
    var data = e.detail;
    if (data.result === "correct") { showMe.hidden = true; return; }  // solved: the way on is "next"
    // "thinking" is no miss (board.js takes the stone back); "slow" (it works, but there is a better move) is one
    // for the help: a child who keeps playing those has not found the way
    if (data.result !== "wrong" && data.result !== "slow") return;
    missWords = data.message || "";
    boardHint();  // the server counts the misses (on any device, after a reload too) and says what help is due
  });

  // the board's hint stays in words too after "try again" (board.js clears what the last move said)
  var retry = document.getElementById("retry");
  if (retry) retry.addEventListener("click", function () { if (hintWords) api.say(hintWords); });

  function play(line, i, done) {
    if (i >= line.length) { done(); return; }
    var m = line[i];
    api.setRows(m.rows, m.move);
    api.beep(true);
    setTimeout(function () {
      if (!m.reply_rows) { setTimeout(function () { play(line, i + 1, done); }, REPLY_PAUSE); return; }
      api.setRows(m.reply_rows, m.reply);
      setTimeout(function () { play(line, i + 1, done); }, REPLY_PAUSE);
    }, MOVE_PAUSE);
  }

  showMe.addEventListener("click", function () {
    if (playing) return;
    playing = true;
    showMe.disabled = true;
    api.hold();
    // working the line out can take a moment (a long ladder): the child sees the computer thinking, not nothing
    api.say(words.working);
    step.classList.add("thinking");
    var done = function () { step.classList.remove("thinking"); };
    stones.post(step.dataset.showMeUrl, {}).then(function (data) {
      done();
      if (data.result === "line") {
        if (retry) retry.hidden = true;
        api.setRows(api.startRows, null, true);
        api.say(data.message);
        board.classList.add("showing");
        play(data.line, 0, function () {
          board.classList.remove("showing");
          step.dataset.shown = String(data.line.length);
          setTimeout(function () {
            api.reset();
            api.say(data.after, true);
            api.speak(data.after);
            playing = false;
            showMe.disabled = false;
          }, 900);
        });
        return;
      }
      // the judge gave no line ("another") or the kid has not tried enough yet ("not-yet"): words, never a dead end
      playing = false;
      showMe.disabled = false;
      api.reset();
      api.say(data.message || words.unknown);
      if (data.next) setTimeout(function () { window.location = data.next; }, 1500);
    }).catch(function () { done(); playing = false; showMe.disabled = false; api.reset(); api.say(words.offline, false); });
  });
})();
