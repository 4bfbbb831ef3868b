// The play pages: choosing a game (big picture cards, read aloud), and playing it. Every tap goes to the server,
// which plays the move and the computer's reply and answers with the boards; the page only draws what it is told.
(function () {
  "use strict";
  var root = document.getElementById("play-game") || document.getElementById("play-start");
  if (!root) return;
  var lang = root.dataset.lang;

  // ---------------------------------------------------------------- sound and voice (as on the lesson page)
  var muted = localStorage.getItem("teach-muted") === "1";
  var audio = null;
  function beep(good) {
    if (muted || !window.AudioContext) return;
    try {
      audio = audio || new AudioContext();
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = good ? 660 : 220;
      g.gain.setValueAtTime(0.15, audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
      o.connect(g); g.connect(audio.destination); o.start(); o.stop(audio.currentTime + 0.3);
    } catch (e) { /* no sound on this device */ }
  }
  // read-aloud as on the lesson pages (voice.js): by itself when the kid's setting says so (whose turn, the
  // result, what a tapped choice is), and always when 🔊 is tapped: the page's words, then each button to find
  var voice = window.TeachVoice;
  function narrating() { return root.dataset.narrate === "1"; }
  function speak(text) { if (voice && narrating() && text) voice.speak(text); }
  function readPage() {
    if (!voice) return;
    var items = [];
    root.querySelectorAll(".speak, [data-say]").forEach(function (el) {
      if (el.closest("[hidden]") || el.closest("details")) return;
      var text = el.dataset.say || el.textContent.replace(/\s+/g, " ").trim();
      if (text) items.push({text: text, el: el.dataset.say ? el : null});
    });
    voice.speakAll(items);
  }
  var muteButton = document.getElementById("mute");
  function showMute() { muteButton.textContent = muted ? "🔕" : "🔔"; muteButton.setAttribute("aria-pressed", muted); }
  if (muteButton) {
    showMute();
    muteButton.addEventListener("click", function () {
      muted = !muted; localStorage.setItem("teach-muted", muted ? "1" : "0"); showMute();
    });
  }
  var readAloud = document.getElementById("read-aloud");
  if (readAloud) readAloud.addEventListener("click", readPage);
  if (root.id === "play-game" && narrating() && voice) voice.whenAllowed(readPage);
  grownUpSettings();

  // the grown-ups' panel: the kid's own settings (kept on the account, as on the lesson page)
  function grownUpSettings() {
    var panel = root.querySelector(".grown-ups");
    if (!panel) return;
    function keep(name, box, then) {
      var body = {}; body[name] = box.checked;
      window.TeachStones.post(panel.dataset.settingsUrl, body).then(function (data) {
        if (data.result !== "saved") throw new Error("not saved");
        if (then) then();
      }).catch(function () { box.checked = !box.checked; });
    }
    var narrateBox = document.getElementById("set-narrate"), coordBox = document.getElementById("set-coordinates");
    if (narrateBox) narrateBox.addEventListener("change", function () {
      keep("narrate", narrateBox, null);
      root.dataset.narrate = narrateBox.checked ? "1" : "0";
      if (narrateBox.checked) readPage(); else if (window.speechSynthesis) speechSynthesis.cancel();
    });
    if (coordBox) coordBox.addEventListener("change", function () {
      keep("coordinates", coordBox, function () { window.location.reload(); });
    });
  }

  if (root.id === "play-start") {
    // back from a game restores this page as it was before the game began: load it again, with "keep playing"
    window.addEventListener("pageshow", function (e) { if (e.persisted) window.location.reload(); });
    startPage();
    return;
  }

  // ---------------------------------------------------------------- choosing a game
  function startPage() {
    var form = document.getElementById("new-game");
    function checked(name) { var el = form.querySelector("input[name=" + name + "]:checked"); return el ? el.value : ""; }
    function show() {
      var kind = checked("kind");
      form.querySelectorAll("fieldset[data-kind]").forEach(function (fs) {
        var on = fs.dataset.kind === kind;
        fs.hidden = !on; fs.disabled = !on;  // a hidden choice is not sent
      });
      if (kind === "full") {
        var sizes = form.querySelectorAll("fieldset[data-kind=full] input[name=size]");
        if (!form.querySelector("fieldset[data-kind=full] input[name=size]:checked")) sizes[0].checked = true;
        var size = form.querySelector("fieldset[data-kind=full] input[name=size]:checked").value;
        form.querySelectorAll("#choose-handicap label.pick").forEach(function (label) {
          var ok = label.dataset.sizes.split(" ").indexOf(size) >= 0;
          label.hidden = !ok;
          var input = label.querySelector("input");
          input.disabled = !ok;
          if (!ok && input.checked) form.querySelector("#choose-handicap input[value='0']").checked = true;
        });
      }
      document.getElementById("friend-name").hidden = checked("who") !== "friend";
      // with handicap stones Black gets the stones and White moves first: the colours' notes say so
      var handicap = kind === "full" && checked("handicap") && checked("handicap") !== "0";
      form.querySelectorAll("label.pick[data-note-even]").forEach(function (label) {
        label.querySelector(".pick-note").textContent = handicap ? label.dataset.noteHandicap : label.dataset.noteEven;
      });
    }
    form.addEventListener("change", function (e) {
      show();
      var label = e.target.closest("label.pick");
      if (label) speak(label.querySelector(".pick-name").textContent + ". " +
                       (label.querySelector(".pick-note") ? label.querySelector(".pick-note").textContent : ""));
    });
    show();
  }

  // ---------------------------------------------------------------- the game
  var ply = parseInt(root.dataset.ply, 10);
  var state = root.dataset.state;
  var busy = false;
  var feedback = document.getElementById("feedback");
  var wrap = document.getElementById("board-wrap");
  function board() { return wrap.querySelector("svg.board"); }
  // a 13x13 or 19x19 game on a phone: the first tap zooms in, the next plays, and once the computer has answered
  // (or, at one tablet, the other player's turn has come) the whole board shows again
  window.TeachStones.zoom(wrap, lang, function () { return !busy; });
  function setRows(rows, last) { window.TeachStones.setRows(board(), rows, last); }
  function say(message, good) {
    feedback.textContent = message || "";
    feedback.className = "feedback speak " + (good === true ? "good" : good === false ? "bad" : "");
    // a refusal ("that point is taken") must be read: on a phone with a notice above the board it can sit under
    // the screen's edge, so it is brought up (only then: the board does not move for the words under it)
    if (message && good === false && feedback.getBoundingClientRect().bottom > window.innerHeight &&
        feedback.scrollIntoView) feedback.scrollIntoView({block: "nearest", behavior: "smooth"});
  }
  function post(url, body) { return window.TeachStones.post(url, body); }
  function offline() {
    busy = false;
    say(lang === "zh" ? "网络断了，再试一次。" : "No connection. Try again.", false);
  }
  function signedOut(data) {
    say(data.message, false);
    setTimeout(function () { window.location = data.login; }, 2000);
  }

  function showTurn(data) {
    var playing = data.state === "playing";
    document.getElementById("turn").hidden = !playing;
    document.getElementById("play-actions").hidden = !playing;
    root.querySelectorAll(".player").forEach(function (p) {
      p.classList.toggle("now", playing && p.dataset.color === data.to_move);
    });
    var stone = document.getElementById("turn-stone");
    stone.className = "turn-stone " + data.to_move;
    document.getElementById("turn-text").textContent = data.turn || "";
  }
  function showCaptures(captures) {
    root.querySelectorAll(".player").forEach(function (p) {
      var n = captures[p.dataset.color];
      window.TeachStones.catches(p, n);
      var count = p.querySelector(".caught-count");
      if (count) count.textContent = n;
    });
  }
  function showBanner(data) {
    if (!data.banner) return;
    root.querySelectorAll(".player").forEach(function (p) { p.classList.toggle("won", p.dataset.color === data.winner); });
    var b = data.banner, banner = document.getElementById("banner");
    banner.className = "banner card " + b.mood;
    document.getElementById("banner-glyph").textContent = b.glyph;
    document.getElementById("banner-title").textContent = b.title;
    document.getElementById("banner-reason").textContent = b.reason;
    document.getElementById("banner-result").textContent = b.result || "";
    document.getElementById("banner-result").parentNode.hidden = !b.result;
    document.getElementById("banner-result-words").textContent = b.result_words || "";
    document.getElementById("banner-referee").textContent = b.referee || "";
    if (data.milestones && data.milestones.length) {
      var won = document.getElementById("stickers-won");
      won.textContent = "";
      data.milestones.forEach(function (m) {
        var chip = document.createElement("span");
        chip.className = "sticker-won";
        chip.textContent = m.glyph + " " + m.name;
        won.appendChild(chip);
      });
      won.hidden = false;
    }
    banner.hidden = false;
    var panel = document.getElementById("count-panel");
    if (panel) panel.hidden = true;  // the banner says it all now
    beep(b.mood !== "lose");
    speak([b.title, b.reason].filter(Boolean).join(" "));
    // the last capture first (the board), then as little scrolling as shows the card: centred, it pushed most of
    // the board off a tablet's screen the moment the game ended
    setTimeout(function () { banner.scrollIntoView({behavior: "smooth", block: "nearest"}); }, 1200);
  }
  function update(data) {
    if (typeof data.ply === "number") { ply = data.ply; root.dataset.ply = ply; }
    if (data.state) { state = data.state; root.dataset.state = state; }
    if (data.to_move) showTurn(data);
    if (data.captures) showCaptures(data.captures);
    if (data.state === "finished") {
      var svg = board(); if (svg) svg.classList.remove("playable");
      showBanner(data);
    }
    if (data.reload) setTimeout(function () { window.location.reload(); }, 900);
  }
  function answered(data, point) {
    if (data.result === "signed-out") { signedOut(data); return; }
    if (data.result === "illegal" || data.result === "error") {
      busy = false; say(data.message, false); beep(false); speak(data.message); return;
    }
    if (data.result === "stale") { busy = false; setRows(data.rows, data.last); update(data); say(data.message); return; }
    setRows(data.kid_rows || data.rows, point === "pass" ? null : point);
    beep(true);
    say(data.message || "", data.message ? null : undefined);
    if (data.reply) {
      // the computer's move shows a moment later, as if it thought
      var thinking = document.getElementById("turn-text");
      root.querySelectorAll(".player").forEach(function (p) { p.classList.toggle("now", p.dataset.color !== data.side); });
      setTimeout(function () {
        setRows(data.rows, data.reply === "pass" ? null : data.reply);
        busy = false; update(data);
        if (data.state === "playing") speak([data.message, data.turn].filter(Boolean).join(" "));
      }, 700);
      if (thinking && data.thinking) thinking.textContent = data.thinking;
      document.getElementById("turn-stone").className = "turn-stone " + (data.side === "black" ? "white" : "black");
    } else {
      busy = false; update(data);
      // two players on one tablet: say whose turn it is now, for a child who cannot read yet
      if (data.state === "playing") speak([data.message, data.turn].filter(Boolean).join(" "));
    }
  }
  function move(point) {
    if (busy || state !== "playing") return;
    busy = true;
    post(root.dataset.moveUrl, {move: point, ply: ply}).then(function (d) { answered(d, point); }).catch(offline);
  }
  function toggle(point) {
    if (busy || state !== "counting") return;
    busy = true;
    post(root.dataset.countUrl, {point: point, ply: ply}).then(function (data) {
      busy = false;
      if (data.result === "signed-out") { signedOut(data); return; }
      if (data.result !== "ok") { say(data.message, false); if (data.reload || data.result === "stale") update(data); return; }
      wrap.innerHTML = data.board;
      window.TeachStones.fit(board());  // the new board, drawn edge to edge like the first
      document.getElementById("points").textContent = data.points;
      document.getElementById("points-words").textContent = data.points_words || "";
      document.getElementById("referee").textContent = data.referee;
      var line = document.getElementById("kid-line");
      line.textContent = data.kid_line;
      var open = document.getElementById("open-line");
      open.textContent = data.open_line || ""; open.hidden = !data.open_line;
      line.classList.toggle("ahead", data.tone === "ahead"); line.classList.toggle("behind", data.tone === "behind");
      say("");
    }).catch(offline);
  }
  function tap(pt) {
    if (state === "playing") move(pt.dataset.point);
    else if (state === "counting") toggle(pt.dataset.point);
  }
  wrap.addEventListener("click", function (e) {
    var pt = e.target.closest("g.pt");
    if (pt && board().classList.contains("playable")) tap(pt);
  });
  wrap.addEventListener("keydown", function (e) {
    var pt = e.target.closest("g.pt");
    if (pt && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); tap(pt); }
  });

  var passButton = document.getElementById("pass");
  passButton.addEventListener("click", function () { move("pass"); });
  var confirmBox = document.getElementById("resign-confirm");
  document.getElementById("resign").addEventListener("click", function () {
    var question = document.getElementById("resign-question"), now = document.querySelector(".player.now .player-name");
    if (root.dataset.computer === "0" && now) question.textContent = question.dataset.named.replace("{name}", now.textContent);
    confirmBox.hidden = false; speak(question.textContent);
    confirmBox.scrollIntoView({behavior: "smooth", block: "nearest"});  // below the fold on a phone
  });
  document.getElementById("resign-no").addEventListener("click", function () { confirmBox.hidden = true; });
  document.getElementById("resign-yes").addEventListener("click", function () {
    confirmBox.hidden = true;
    if (busy) return;
    busy = true;
    post(root.dataset.moveUrl, {resign: true, ply: ply}).then(function (d) { answered(d, "pass"); }).catch(offline);
  });
  function countAction(url) {
    if (busy) return;
    busy = true;
    post(url, {ply: ply}).then(function (data) {
      busy = false;
      if (data.result === "signed-out") { signedOut(data); return; }
      if (data.result === "error") { say(data.message, false); return; }
      say(data.message || "");
      update(data);
    }).catch(offline);
  }
  var done = document.getElementById("count-done");
  if (done) done.addEventListener("click", function () { countAction(root.dataset.doneUrl); });
  var resume = document.getElementById("resume");
  if (resume) resume.addEventListener("click", function () { countAction(root.dataset.resumeUrl); });
  // the count screen opens on the board, with the result and "done" right under it (above it are the players,
  // which would push them out of sight on a tablet or a phone); the page reloads itself when counting starts,
  // and the browser would put back the old scroll position
  var countPanel = document.getElementById("count-panel");
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  function toCount() { if (state === "counting" && countPanel && !countPanel.hidden) wrap.scrollIntoView({block: "start"}); }
  toCount();
  window.addEventListener("load", toCount);
})();
