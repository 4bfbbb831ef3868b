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
  var voice = window.TeachVoice;
  function speak(text) { if (voice) voice.speak(text); }
  var readAloud = document.getElementById("read-aloud");
  if (readAloud) readAloud.addEventListener("click", function () { narrate(true); });
  narration();
  grownUpSettings();

  // ---------------------------------------------------------------- the board
  // the words under the board; said aloud too where the step narrates (a child who cannot read hears why a move
  // was wrong, what the demo shows, what the computer is doing)
  function say(message, good) {
    feedback.textContent = message || "";
    feedback.className = "feedback " + (good === true ? "good" : good === false ? "bad" : "");
    if (message && step.dataset.narrate === "1") speak(message);
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
    if (data.next) { next.href = data.next; next.hidden = false; }
    // the placement test's own "next" (to go on without solving) gives way: one "next" on the page, not two
    ["placement-next", "skip"].forEach(function (id) {  // and so does practice's "skip"
      var skip = document.getElementById(id);
      if (skip && data.next) skip.hidden = true;
    });
    if (data.next) prefetchPage(data.next);
    celebrate(data, next);
  }

  // ---------------------------------------------------------------- puzzles
  var ASKS_MAX = 40;  // a move the computer is still reading is asked for again, this many times at most (a minute)
  function playMove(point, asked) {
    if ((busy && !asked) || done) return;
    busy = true;
    var body = {move: point, attempt: attempt, ply: ply};
    // a first move carries an id of its own: sent again after its answer was lost, the server knows it
    if (attempt === null) body.tap = Math.random().toString(36).slice(2, 12).padEnd(10, "0");
    sendKept(step.dataset.moveUrl, body, point).then(function (data) {
      busy = false;
      moveArrived();
      if (data.result === "thinking" && data.retry && (asked || 0) < ASKS_MAX) { stillThinking(data, point, asked); return; }
      step.classList.remove("thinking");
      if (data.result === "signed-out") { signedOut(data); return; }
      if (data.reason === "not-reached" && data.next) { location.href = data.next; return; }  // another tab moved on
      if (data.result === "illegal" || data.result === "error") { say(data.message, false); beep(false); return; }
      if (data.result === "stale") { setRows(data.rows); attempt = data.attempt; ply = data.ply; say(data.message); return; }
      if (data.result === "thinking" || data.result === "slow") { notAMove(data, point); return; }
      setRows(data.rows, point);
      clack();
      var after = function () {
        if (data.reply_rows) setRows(data.reply_rows, data.reply);
        if (data.result === "correct") { say(data.message, true); beep(true); finish(data); }
        else if (data.result === "wrong") {
          say(data.message, false); beep(false);
          document.getElementById("retry").hidden = false; done = true;
          // on a tablet the board can fill the screen: the words and "try again" are brought into view
          var actions = retry && retry.parentNode;
          if (actions && actions.scrollIntoView) actions.scrollIntoView({block: "nearest", behavior: "smooth"});
        } else { say(data.message, true); attempt = data.attempt; ply = data.ply; }
        step.dispatchEvent(new CustomEvent("teach:verdict", {detail: data}));  // help.js listens
      };
      if (data.reply_rows) { busy = true; setTimeout(function () { busy = false; after(); }, 650); } else after();
    }, function () { busy = false; moveLost(point); });
  }
  // the computer reads the move on a larger budget meanwhile: the stone stays, the board thinks, the page asks again
  function stillThinking(data, point, asked) {
    busy = true;
    if (!asked) {
      setRows(data.rows, point);
      clack();
      say(data.message);
      // on a tablet the board can fill the screen: the words under it are brought into view
      if (feedback.scrollIntoView) feedback.scrollIntoView({block: "nearest", behavior: "smooth"});
    }
    step.classList.add("thinking");
    setTimeout(function () { playMove(point, (asked || 0) + 1); }, data.retry);
  }
  // "thinking" (the judge needs another go) and "slow" (it works, but there is a better move): no move of the line
  // and no miss. The stone is shown, the words said, then the stone goes back and the child taps again.
  function notAMove(data, point) {
    busy = true;
    setRows(data.rows, point);
    clack();
    say(data.message);
    step.classList.add("thinking");
    setTimeout(function () {
      setRows(data.back_rows, null, true);
      step.classList.remove("thinking");
      busy = false;
      step.dispatchEvent(new CustomEvent("teach:verdict", {detail: data}));
    }, 1200);
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
    sendKept(step.dataset.answerUrl, body, null).then(function (data) {
      busy = false;
      moveArrived();
      if (data.result === "signed-out") signedOut(data);
      else if (data.reason === "not-reached" && data.next) location.href = data.next;
      else if (data.result === "correct") { say(data.message, true); beep(true); finish(data); }
      else { missed(data, body); }
    }, function () { busy = false; answerLost(body); });
  }
  // a wrong answer says what is wrong: the tapped points that are not right get a ✗ (and are no longer picked),
  // a wrong answer button shakes; the words are said aloud where the step narrates
  function missed(data, body) {
    say(data.message, false); beep(false);
    board && board.querySelectorAll("g.pt.not-right").forEach(function (pt) { pt.classList.remove("not-right"); });
    (data.not_right || []).forEach(function (name) {
      var pt = board.querySelector('g.pt[data-point="' + name + '"]');
      if (!pt) return;
      pt.classList.remove("picked"); pt.classList.add("not-right");
      if (!pt.querySelector(".not-right-mark")) {
        var c = pt.querySelector("circle.stone"), x = +c.getAttribute("cx"), y = +c.getAttribute("cy");
        var cross = document.createElementNS("http://www.w3.org/2000/svg", "path");
        cross.setAttribute("class", "not-right-mark");
        cross.setAttribute("d", "M" + (x - 9) + " " + (y - 9) + "L" + (x + 9) + " " + (y + 9) + "M" + (x + 9) + " " + (y - 9) + "L" + (x - 9) + " " + (y + 9));
        pt.appendChild(cross);
      }
    });
    var key = JSON.stringify(body);
    step.querySelectorAll("button.answer").forEach(function (b) {
      var wrong = JSON.stringify(JSON.parse(b.dataset.answer)) === key;
      b.classList.toggle("not-right", wrong);
    });
  }
  step.querySelectorAll("button.answer").forEach(function (b) {
    b.addEventListener("click", function () { answer(JSON.parse(b.dataset.answer)); });
  });
  var check = document.getElementById("check");
  if (check) check.addEventListener("click", function () {
    var picked = [];
    board.querySelectorAll("g.pt.picked").forEach(function (pt) { picked.push(pt.dataset.point); });
    // nothing tapped yet: say how to answer (the server's "almost! 4 more" read as if a point had been found)
    if (!picked.length && step.dataset.sayPickFirst) { say(step.dataset.sayPickFirst, false); return; }
    answer({points: picked});
  });

  function tap(pt) {
    var name = pt.dataset.point;
    if (kind === "puzzle" && done && retry && !retry.hidden && !busy) {
      // a tap on the board after a wrong move is a new try: the board starts again (as "try again" does) and,
      // where the point is free at the start, the tapped point is the first move; a child who cannot read the
      // words or find the button is never left tapping a board that does nothing
      retry.click();
      if (!pt.classList.contains("black") && !pt.classList.contains("white")) playMove(name);
      return;
    }
    if (kind === "puzzle") playMove(name);
    else if (kind === "quiz") {
      var ask = step.dataset.ask;
      if (ask === "atari") answer({points: [name]});
      else if (ask === "liberties" || ask === "forbidden" || ask === "tap") {
        pt.classList.remove("not-right"); pt.classList.toggle("picked");
      }
    }
  }
  if (board && board.classList.contains("playable")) {
    points().forEach(function (pt) {
      pt.addEventListener("click", function () { tap(pt); });
      pt.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tap(pt); } });
    });
  }

  boardZoom();

  var hint = document.getElementById("hint");
  if (hint) hint.addEventListener("click", function () {
    post(step.dataset.hintUrl, {}).then(function (data) {
      say(data.hint);
      if (step.dataset.narrate !== "1") speak(data.hint);  // asked for: said aloud even where the step is quiet
    });
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

  // ---------------------------------------------------------------- narration: pre-readers hear each step
  // (the step's words, then each answer while its button lights up); it starts by itself when the lesson's level
  // or the grown-ups' setting says so (data-narrate), and the 🔊 button says it again
  function narrate() {
    if (!voice) return;
    var items = [];
    step.querySelectorAll(".speak").forEach(function (el) {
      if (!el.closest("[hidden]") && el.textContent.trim()) items.push({text: el.textContent.trim()});
    });
    if (feedback.textContent) items.push({text: feedback.textContent});
    step.querySelectorAll("button.answer[data-say]").forEach(function (b) {
      if (!b.hidden) items.push({text: b.dataset.say, el: b});
    });
    voice.speakAll(items);
  }
  function narration() {
    if (step.dataset.narrate === "1" && voice) voice.whenAllowed(narrate);
  }

  // ---------------------------------------------------------------- the grown-ups' settings (this kid's own)
  // stored on the kid's account, so the next child on a shared tablet keeps theirs
  function grownUpSettings() {
    var panel = step.querySelector(".grown-ups");
    var narrateBox = document.getElementById("set-narrate"), coordBox = document.getElementById("set-coordinates");
    function keep(name, box, then) {
      var body = {}; body[name] = box.checked;
      post(panel.dataset.settingsUrl, body).then(function (data) {
        if (data.result !== "saved") throw new Error("not saved");
        if (then) then();
      }).catch(function () { box.checked = !box.checked; say(step.dataset.sayOffline, false); });
    }
    if (narrateBox) narrateBox.addEventListener("change", function () {
      keep("narrate", narrateBox, null);
      step.dataset.narrate = narrateBox.checked ? "1" : "0";
      if (narrateBox.checked) narrate(); else if (window.speechSynthesis) speechSynthesis.cancel();
    });
    if (coordBox) coordBox.addEventListener("change", function () {
      keep("coordinates", coordBox, function () { window.location.reload(); });  // the server draws the board
    });
  }

  // ---------------------------------------------------------------- celebration: a puzzle solved, a lesson done
  function fanfare(big) {
    if (muted || !window.AudioContext) return;
    audio = audio || new AudioContext();
    var notes = big ? [523, 659, 784, 1047] : [659, 988], t0 = audio.currentTime;
    notes.forEach(function (f, i) {
      var o = audio.createOscillator(), g = audio.createGain(), at = t0 + i * 0.14;
      o.type = "triangle"; o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, at); g.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, at + (i === notes.length - 1 ? 0.6 : 0.2));
      o.connect(g); g.connect(audio.destination); o.start(at); o.stop(at + 0.7);
    });
  }
  function celebrate(data, next) {
    var won = data.milestones || [];
    if (data.finished) {
      var box = document.getElementById("celebrate"), stars = document.getElementById("stars-won");
      var pictures = [], names = [];
      if (data.sticker) { pictures.push(data.sticker.glyph); names.push(data.sticker.name); }
      won.forEach(function (m) { pictures.push(m.glyph); names.push(m.name); });
      stars.innerHTML = "";
      for (var i = 0; i < 3; i++) {
        var s = document.createElement("span");
        s.className = "star " + (i < data.stars ? "won" : "not-won");
        s.style.animationDelay = (0.25 + i * 0.2) + "s";
        s.textContent = i < data.stars ? "★" : "☆";
        stars.appendChild(s);
      }
      stars.setAttribute("aria-label", data.stars + " / 3");
      document.getElementById("sticker-picture").textContent = pictures.join(" ");
      document.getElementById("sticker-won").textContent = names.join(" · ");
      var recap = document.getElementById("recap");
      if (recap) recap.hidden = false;
      var onward = document.getElementById("celebrate-next");
      onward.href = data.next || next.href;
      box.hidden = false;
      onward.focus({preventScroll: true});
      fanfare(true);
      if (step.dataset.narrate === "1") speak(names.join(", ") + (recap ? " " + recap.textContent : ""));
      return;
    }
    if (won.length) showMilestones(won);
    fanfare(false);
    step.classList.add("solved");
    if (data.next) {
      next.focus({preventScroll: true});
      next.scrollIntoView({block: "nearest", behavior: "smooth"});
    }
  }
  // a milestone in the middle of a lesson: the sticker flies in, the lesson goes on
  function showMilestones(won) {
    var toast = document.getElementById("milestone-won");
    document.getElementById("milestone-picture").textContent = won.map(function (m) { return m.glyph; }).join(" ");
    document.getElementById("milestone-name").textContent = won.map(function (m) { return m.name; }).join(" · ");
    toast.hidden = false;
    setTimeout(function () { toast.hidden = true; }, 6000);
  }

  // ---------------------------------------------------------------- school Wi-Fi: a move is retried, never lost
  var resend = document.getElementById("resend"), lost = null, retrying = false;
  // post, and on no answer (no network, or a proxy's page instead of ours) try again a few times, waiting longer
  var stopWaiting = function () {};
  function waiting(on) {
    stopWaiting();
    stopWaiting = on ? stones.waitFor(step, say) : function () {};
  }
  function sendKept(url, body, point) {
    var tries = 0;
    if (point) { pendingMark(point, true); waiting(true); }
    return new Promise(function (resolve, reject) {
      (function go() {
        post(url, body).then(function (data) {
          if (data.result === "error" && !data.message) throw new Error("no answer");
          resolve(data);
        }).catch(function () {
          tries += 1;
          if (tries > 3) { reject(); return; }
          retrying = true;
          say(step.dataset.sayRetrying);
          setTimeout(go, 700 * Math.pow(2, tries - 1));
        });
      })();
    });
  }
  function pendingMark(point, on) {
    points().forEach(function (pt) { pt.classList.toggle("pending", on && pt.dataset.point === point); });
  }
  function moveArrived() {
    pendingMark(null, false);
    waiting(false);
    if (retrying) say(step.dataset.saySaved, true);
    retrying = false; lost = null;
    if (resend) resend.hidden = true;
  }
  function keepLost(send) {
    lost = send;
    say(step.dataset.sayOffline, false);
    if (resend) { resend.hidden = false; resend.focus({preventScroll: true}); }
  }
  function moveLost(point) {
    waiting(false); step.classList.remove("thinking");
    pendingMark(point, true); keepLost(function () { playMove(point); });
  }
  function answerLost(body) { keepLost(function () { answer(body); }); }
  if (resend) resend.addEventListener("click", function () { if (lost) lost(); });
  window.addEventListener("online", function () { if (lost && !busy) lost(); });

  // ---------------------------------------------------------------- offline: the lesson's pages are kept
  function prefetchPage(url) {
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({keep: [url]});
    }
  }

  // ---------------------------------------------------------------- zoom: a big board on a small screen
  // (stones.js): in a puzzle, a played move zooms back out once its answer is on the board; in a quiz where
  // several points are tapped, a pick zooms back out too, so the next corner is one tap away, not three
  function boardZoom() {
    if (!board || !board.classList.contains("playable")) return;
    var multi = kind === "quiz" && ["liberties", "forbidden", "tap"].indexOf(step.dataset.ask) >= 0;
    window.TeachStones.zoom(board.parentNode, lang, kind === "puzzle" ? function () { return !busy; }
      : multi ? function () { return true; } : null);
  }
})();
