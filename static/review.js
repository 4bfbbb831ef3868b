// The review after a game: while the review runs, ask the server now and then whether it is done; then each
// missed capture is a retry puzzle, its moves judged by the server (the lesson puzzles' move contract).
(function () {
  "use strict";
  var review = document.getElementById("review");
  if (!review) return;
  var lang = review.dataset.lang;
  var offline = lang === "zh" ? "网络断了，再试一次。" : "No connection. Try again.";

  // ---------------------------------------------------------------- waiting for the review
  if (review.dataset.state === "waiting" || review.dataset.state === "running") {
    var wait = 1500;
    // most reviews take under a second; after a few seconds the kid is told a long game takes a while, and
    // offered another game meanwhile (the page goes on asking every few seconds, so it shows as soon as it is done)
    var later = document.getElementById("pending-later");
    setTimeout(function () { if (later) later.hidden = false; }, 5000);
    (function poll() {
      setTimeout(function () {
        fetch(review.dataset.statusUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
          .then(function (r) { return r.json(); })
          .then(function (data) {
            if (data.status === "done") window.location.reload();
            else { wait = Math.min(wait * 1.5, 4000); poll(); }
          })
          .catch(function () { wait = Math.min(wait * 2, 20000); poll(); });
      }, wait);
    })();
    return;
  }

  var step = document.getElementById("step");
  if (!step) return;
  var feedback = document.getElementById("feedback");
  var board = step.querySelector("svg.board");
  var attempt = null, ply = 0, busy = false, done = false, startRows = null;

  var stones = window.TeachStones;
  function post(url, body) { return stones.post(url, body || {}, offline); }
  var voice = window.TeachVoice;
  function narrating() { return step.dataset.narrate === "1"; }
  // the words under the board, said aloud too where the kid's pages narrate (a child who cannot read hears why
  // the stone got away, and what to try)
  function say(message, good) {
    feedback.textContent = message || "";
    feedback.className = "feedback " + (good === true ? "good" : good === false ? "bad" : "");
    if (message && voice && narrating()) voice.speak(message);
  }
  function pts() { return stones.points(board); }
  function rows() { return stones.rows(board); }
  function setRows(next, last, quiet) { stones.setRows(board, next, last, quiet); }
  function glow(points) {
    pts().forEach(function (pt) { pt.classList.toggle("answer", points.indexOf(pt.dataset.point) >= 0); });
  }
  var retry = document.getElementById("retry"), next = document.getElementById("go-next");
  function solved(data) {
    done = true;
    say(data.message, true);
    document.getElementById("show") && (document.getElementById("show").hidden = true);
    document.getElementById("skip").hidden = true;
    retry.hidden = true;
    if (data.next) { next.href = data.next; next.hidden = false; next.focus(); }
  }
  // the tapped point glows while its answer is on its way (and the board thinks, after a moment)
  var stopWaiting = function () {};
  function waiting(point) {
    stopWaiting();
    pts().forEach(function (pt) { pt.classList.toggle("pending", point !== null && pt.dataset.point === point); });
    stopWaiting = point === null ? function () {} : stones.waitFor(step, say);
    if (point === null) step.classList.remove("thinking");
  }
  function playMove(point, asked) {
    if ((busy && !asked) || done) return;
    busy = true;
    if (!asked) waiting(point);
    post(step.dataset.moveUrl, {move: point, attempt: attempt, ply: ply}).then(function (data) {
      busy = false;
      if (!(data.result === "thinking" && data.retry)) waiting(null);
      if (data.result === "thinking" && data.retry && (asked || 0) < 40) {  // still reading: the stone stays, ask again
        if (!asked) {
          setRows(data.rows, point); say(data.message);
          if (feedback.scrollIntoView) feedback.scrollIntoView({block: "nearest", behavior: "smooth"});
        }
        busy = true;
        setTimeout(function () { playMove(point, (asked || 0) + 1); }, data.retry);
        return;
      }
      if (data.result === "signed-out") { say(data.message, false); setTimeout(function () { window.location = data.login; }, 2000); return; }
      if (data.result === "illegal" || data.result === "error") { say(data.message, false); return; }
      if (data.result === "stale") { setRows(data.rows); attempt = data.attempt; ply = data.ply; say(data.message); return; }
      if (data.result === "thinking" || data.result === "slow") {  // no move of the line: shown, then taken back
        setRows(data.rows, point); say(data.message); busy = true;
        setTimeout(function () { setRows(data.back_rows, null, true); busy = false; }, 1200);
        return;
      }
      setRows(data.rows, point);
      glow([]);
      var after = function () {
        if (data.reply_rows) setRows(data.reply_rows, data.reply);
        if (data.result === "correct") solved(data);
        else if (data.result === "wrong") {
          say(data.message, false); retry.hidden = false; done = true;
          // the words and "try again" under the board, brought into view (a tablet's board can fill the screen)
          if (retry.scrollIntoView) retry.scrollIntoView({block: "nearest", behavior: "smooth"});
        }
        else { say(data.message, true); attempt = data.attempt; ply = data.ply; }
      };
      if (data.reply_rows) { busy = true; setTimeout(function () { busy = false; after(); }, 650); } else after();
    }).catch(function () { busy = false; waiting(null); say(offline, false); });
  }
  function reset() { setRows(startRows, null, true); attempt = null; ply = 0; done = false; retry.hidden = true; say(""); }
  retry.addEventListener("click", reset);
  var show = document.getElementById("show");
  if (show) show.addEventListener("click", function () {
    // from where the kid is: the move that works from here, or (none from here) the first move from the start
    post(step.dataset.showUrl, {attempt: done ? null : attempt}).then(function (data) {
      if (done || data.restart) reset();
      glow(data.answers || []);
      say(data.message, true);
    }).catch(function () { say(offline, false); });
  });
  document.getElementById("skip").addEventListener("click", function () {
    post(step.dataset.skipUrl).then(function (data) { if (data.next) window.location = data.next; })
      .catch(function () { say(offline, false); });
  });
  var readAloud = document.getElementById("read-aloud");
  function readOut() {
    if (voice) voice.speak(document.getElementById("instruction").textContent + " " + feedback.textContent);
  }
  if (readAloud) readAloud.addEventListener("click", readOut);
  if (narrating() && voice) voice.whenAllowed(readOut);  // the puzzle's words, by themselves, as a lesson's are
  if (board) {
    startRows = rows();
    pts().forEach(function (pt) {
      pt.addEventListener("click", function () { playMove(pt.dataset.point); });
      pt.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); playMove(pt.dataset.point); }
      });
    });
  }
})();
