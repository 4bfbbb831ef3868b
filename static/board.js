// The lesson player: taps go to the server, the judge answers, the board shows the answer.
(function () {
  "use strict";
  var step = document.getElementById("step");
  if (!step) return;
  var kind = step.dataset.kind;
  var lang = step.dataset.lang;
  var feedback = document.getElementById("feedback");
  var board = step.querySelector("svg.board");
  var stones = window.TeachStones;
  var startRows = board ? currentRows() : null;
  var attempt = null, ply = 0, busy = false, done = false;

  // ---------------------------------------------------------------- sound and voice
  var muted = localStorage.getItem("teach-muted") === "1";
  var audio = null;
  function beep(good) {
    if (muted || !window.AudioContext) return;
    audio = audio || new AudioContext();
    var o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = good ? 660 : 220;
    g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    o.connect(g); g.connect(audio.destination); o.start(); o.stop(audio.currentTime + 0.35);
  }
  function clack() { if (!muted) beep(true); }
  var muteButton = document.getElementById("mute");
  function showMute() { muteButton.textContent = muted ? "🔕" : "🔔"; muteButton.setAttribute("aria-pressed", muted); }
  if (muteButton) {
    showMute();
    muteButton.addEventListener("click", function () {
      muted = !muted; localStorage.setItem("teach-muted", muted ? "1" : "0"); showMute();
    });
  }
  function speak(text) {
    if (!window.speechSynthesis || !text) return;
    speechSynthesis.cancel();
    var u = new SpeechSynthesisUtterance(text);
    u.lang = lang === "zh" ? "zh-CN" : "en-US";
    u.rate = 0.9;
    speechSynthesis.speak(u);
  }
  var readAloud = document.getElementById("read-aloud");
  if (readAloud) readAloud.addEventListener("click", function () {
    var parts = [];
    step.querySelectorAll(".speak").forEach(function (el) { if (!el.closest("[hidden]")) parts.push(el.textContent); });
    if (feedback.textContent) parts.push(feedback.textContent);
    speak(parts.join(" "));
  });

  // ---------------------------------------------------------------- the board
  function say(message, good) {
    feedback.textContent = message || "";
    feedback.className = "feedback " + (good === true ? "good" : good === false ? "bad" : "");
  }
  function points() { return stones.points(board); }
  function currentRows() { return stones.rows(board); }
  function setRows(rows, last, quiet) { stones.setRows(board, rows, last, quiet); }
  function post(url, body) { return stones.post(url, body); }
  function signedOut(data) {
    say(data.message, false);
    setTimeout(function () { window.location = data.login; }, 2000);
  }
  function finish(data) {
    done = true;
    step.querySelectorAll("#check, button.answer, #hint").forEach(function (b) { b.hidden = true; });
    var next = document.getElementById("go-next");
    if (data.finished) {
      var c = document.getElementById("celebrate");
      c.hidden = false;
      document.getElementById("stars-won").textContent = "★".repeat(data.stars) + "☆".repeat(3 - data.stars);
      if (data.sticker) document.getElementById("sticker-won").textContent = data.sticker.glyph + " " + data.sticker.name;
    }
    if (data.milestones && data.milestones.length) {
      document.getElementById("celebrate").hidden = false;
      var won = document.getElementById("sticker-won");
      won.textContent = [won.textContent].concat(data.milestones.map(function (m) { return m.glyph + " " + m.name; }))
        .filter(Boolean).join("  ");
    }
    if (data.next) { next.href = data.next; next.hidden = false; next.focus(); }
  }

  // ---------------------------------------------------------------- puzzles
  function playMove(point) {
    if (busy || done) return;
    busy = true;
    post(step.dataset.moveUrl, {move: point, attempt: attempt, ply: ply}).then(function (data) {
      busy = false;
      if (data.result === "signed-out") { signedOut(data); return; }
      if (data.result === "illegal" || data.result === "error") { say(data.message, false); beep(false); return; }
      if (data.result === "stale") { setRows(data.rows); attempt = data.attempt; ply = data.ply; say(data.message); return; }
      setRows(data.rows, point);
      clack();
      var after = function () {
        if (data.reply_rows) setRows(data.reply_rows, data.reply);
        if (data.result === "correct") { say(data.message, true); beep(true); finish(data); }
        else if (data.result === "wrong") {
          say(data.message, false); beep(false);
          document.getElementById("retry").hidden = false; done = true;
        } else { say(data.message, true); attempt = data.attempt; ply = data.ply; }
        step.dispatchEvent(new CustomEvent("teach:verdict", {detail: data}));  // help.js listens
      };
      if (data.reply_rows) { busy = true; setTimeout(function () { busy = false; after(); }, 650); } else after();
    }).catch(function () { busy = false; say(lang === "zh" ? "网络断了，再试一次。" : "No connection. Try again.", false); });
  }
  var retry = document.getElementById("retry");
  function reset() {
    setRows(startRows, null, true); attempt = null; ply = 0; done = false; busy = false;
    if (retry) retry.hidden = true;
    say("");
  }
  if (retry) retry.addEventListener("click", reset);
  // hooks for help.js (the board's own hints and "show me"): hold the board while it plays, then start again
  step.teachBoard = {hold: function () { busy = true; }, reset: reset, setRows: setRows, say: say, speak: speak,
                     beep: beep, startRows: startRows};

  // ---------------------------------------------------------------- quizzes
  function answer(body) {
    if (busy || done) return;
    busy = true;
    post(step.dataset.answerUrl, body).then(function (data) {
      busy = false;
      if (data.result === "signed-out") signedOut(data);
      else if (data.result === "correct") { say(data.message, true); beep(true); finish(data); }
      else { say(data.message, false); beep(false); }
    }).catch(function () { busy = false; });
  }
  step.querySelectorAll("button.answer").forEach(function (b) {
    b.addEventListener("click", function () { answer(JSON.parse(b.dataset.answer)); });
  });
  var check = document.getElementById("check");
  if (check) check.addEventListener("click", function () {
    var picked = [];
    board.querySelectorAll("g.pt.picked").forEach(function (pt) { picked.push(pt.dataset.point); });
    answer({points: picked});
  });

  function tap(pt) {
    var name = pt.dataset.point;
    if (kind === "puzzle") playMove(name);
    else if (kind === "quiz") {
      var ask = step.dataset.ask;
      if (ask === "atari") answer({points: [name]});
      else if (ask === "liberties" || ask === "forbidden" || ask === "tap") pt.classList.toggle("picked");
    }
  }
  if (board && board.classList.contains("playable")) {
    points().forEach(function (pt) {
      pt.addEventListener("click", function () { tap(pt); });
      pt.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tap(pt); } });
    });
  }

  var hint = document.getElementById("hint");
  if (hint) hint.addEventListener("click", function () {
    post(step.dataset.hintUrl, {}).then(function (data) { say(data.hint); speak(data.hint); });
  });

  // ---------------------------------------------------------------- demos
  var framesEl = document.getElementById("demo-frames");
  var demoPlay = document.getElementById("demo-play");
  if (framesEl && demoPlay) demoPlay.addEventListener("click", function () {
    var frames = JSON.parse(framesEl.textContent), i = 0;
    setRows(startRows);
    demoPlay.disabled = true;
    (function next() {
      if (i >= frames.length) { demoPlay.disabled = false; return; }
      var f = frames[i++];
      setRows(f.rows, f.move); clack(); say(f.say);
      setTimeout(next, f.say ? 1800 : 900);
    })();
  });
})();
