// The class play room, a live game between two children, and the teacher's live view. Pages learn of changes by
// asking again with the ETag of what they show (a 304 costs the server almost nothing); every tap goes to the
// server, which answers with the game on record, so the page only ever draws what the record says.
(function () {
  "use strict";
  var S = window.TeachStones;
  var words = document.getElementById("words");
  function word(name) { return words ? (words.dataset[name] || "") : ""; }

  function getJSON(url, etag) {
    var headers = {"Accept": "application/json"};
    if (etag) headers["If-None-Match"] = etag;
    return fetch(url, {credentials: "same-origin", headers: headers, cache: "no-store"}).then(function (r) {
      if (r.status === 304) return {status: 304, etag: etag, data: null};
      return r.json().then(function (d) { return {status: r.status, etag: r.headers.get("ETag"), data: d}; });
    });
  }
  function postJSON(url, body) {
    var csrf = document.querySelector("meta[name=csrf-token]").content;
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json"},
      body: JSON.stringify(body || {})
    }).then(function (r) {
      return r.json().catch(function () { return {result: "error", message: word("offline")}; })
        .then(function (d) { d._etag = r.headers.get("ETag"); return d; });
    });
  }
  // a kid's page says aloud by itself what it shows (data-narrate: on for the youngest, as on the lessons and the
  // games against the computer): an invitation, a "no thanks", whose turn it is, a draw offered, the end
  var voice = window.TeachVoice;
  function aloud(root, text) {
    if (voice && root.dataset.narrate === "1" && text) voice.speak(text.replace(/\s+/g, " ").trim());
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  var roomRoot = document.getElementById("play-room");
  var gameRoot = document.getElementById("live-game");
  var liveRoot = document.getElementById("live-boards");
  if (roomRoot) roomPage(roomRoot);
  if (gameRoot) gamePage(gameRoot);
  if (liveRoot) liveView(liveRoot);

  // ---------------------------------------------------------------- the room
  function roomPage(root) {
    var feedback = document.getElementById("feedback");
    var poll = parseInt(root.dataset.poll, 10) || 2500;
    var leaving = false;
    function say(m) { feedback.textContent = m || ""; aloud(root, m); }
    function chosenGame() {
      var c = document.querySelector("#room-choice input[name=game]:checked");
      return c ? c.value : "";
    }
    function button(text, cls, onClick) {
      var b = el("button", "button " + (cls || ""), text);
      b.type = "button";
      b.addEventListener("click", onClick);
      return b;
    }
    function act(url) {
      postJSON(url, {}).then(function (d) {
        say(d.message);
        if (d.game) { leaving = true; window.location = d.game; } else refresh();
      }).catch(function () { say(word("offline")); });
    }
    var told = {};  // the "no thanks" answers already said on this page
    var heard = {};  // the invitations already said aloud
    function show(d) {
      if (d.game && !leaving) { leaving = true; window.location = d.game; return; }
      (d.declined || []).forEach(function (i) {
        if (told[i.invitation]) return;
        told[i.invitation] = true;
        say(i.glyph + " 🙅 " + i.message);
      });
      var sitOut = document.getElementById("sit-out");  // left out of the teacher's round: told why
      if (sitOut.textContent !== (d.sitting_out || "")) { sitOut.textContent = d.sitting_out || ""; aloud(root, d.sitting_out); }
      sitOut.hidden = !d.sitting_out;
      var stopped = document.getElementById("room-stopped");  // the teacher stopped the games: said, once
      if (stopped && stopped.lastElementChild.textContent !== (d.stopped || "")) {
        stopped.lastElementChild.textContent = d.stopped || "";
        aloud(root, d.stopped);
      }
      if (stopped) stopped.hidden = !d.stopped;
      var list = document.getElementById("classmates"), canInvite = list.dataset.canInvite === "1" && !d.stopped;
      list.textContent = "";
      // a classmate who invited this child, or whom this child invited, is not offered "invite" again: two
      // invitations crossing would ask each child twice
      var invitedMe = {}, askedBy = {};
      d.invitations.forEach(function (i) { invitedMe[i.id] = true; });
      d.sent.forEach(function (i) { askedBy[i.id] = true; });
      d.here.forEach(function (k) {
        var li = el("li", "classmate" + (k.busy ? " busy" : ""));
        li.appendChild(el("span", "kid-pic", k.glyph));
        li.appendChild(el("span", "kid-name", k.name));
        if (k.busy) li.appendChild(el("span", "kid-busy", word("playing")));
        else if (invitedMe[k.id]) li.appendChild(el("span", "kid-busy", "💌 " + word("invitedYou")));
        else if (askedBy[k.id]) li.appendChild(el("span", "kid-busy", word("asked")));
        else if (canInvite) li.appendChild(button("💌 " + word("invite"), "invite", function () {
          postJSON(root.dataset.inviteUrl, {to: k.id, game: chosenGame()}).then(function (r) { say(r.message); refresh(); })
            .catch(function () { say(word("offline")); });
        }));
        list.appendChild(li);
      });
      document.getElementById("empty-room").hidden = d.here.length > 0;
      var inv = document.getElementById("invitation-list");
      inv.textContent = "";
      d.invitations.forEach(function (i) {
        if (!heard[i.accept]) {  // a new invitation (its own answer link): who asks, to play what
          heard[i.accept] = true;
          aloud(root, word("invitedYou") + " " + i.name + " · " + i.game);
        }
        var li = el("li", "invitation");
        li.appendChild(el("span", "kid-pic", i.glyph));
        li.appendChild(el("span", "kid-name", i.name));
        li.appendChild(el("span", "invitation-game", i.game));
        li.appendChild(button("✔ " + word("accept"), "big-button accept", function () { act(i.accept); }));
        li.appendChild(button("✖ " + word("decline"), "keep decline", function () { act(i.decline); }));
        inv.appendChild(li);
      });
      document.getElementById("invitations").hidden = d.invitations.length === 0;
      var sent = document.getElementById("sent-list");
      sent.textContent = "";
      d.sent.forEach(function (i) {
        var li = el("li", "sent");
        li.appendChild(el("span", "kid-pic", i.glyph));
        li.appendChild(el("span", "kid-name", i.name + " · " + i.game));
        li.appendChild(button("↩ " + word("withdraw"), "keep withdraw", function () { act(i.withdraw); }));
        sent.appendChild(li);
      });
      document.getElementById("sent").hidden = d.sent.length === 0;
      var resting = document.getElementById("resting-list");
      resting.textContent = "";
      d.resting.forEach(function (r) {
        var li = el("li"), a = el("a", "button", "▶ " + word("resume") + " · " + r.game);
        a.href = r.url;
        li.appendChild(a);
        resting.appendChild(li);
      });
      document.getElementById("resting").hidden = d.resting.length === 0;
    }
    var timer = null;
    function refresh() {
      clearTimeout(timer);
      getJSON(root.dataset.stateUrl).then(function (r) {
        if (r.data && r.data.result === "signed-out") { window.location = r.data.login; return; }
        if (r.data) show(r.data);
        timer = setTimeout(refresh, poll);
      }).catch(function () { say(word("offline")); timer = setTimeout(refresh, poll * 2); });
    }
    refresh();
  }

  // ---------------------------------------------------------------- a live game
  function gamePage(root) {
    var you = root.dataset.you, teacher = root.dataset.teacher === "1";
    var version = parseInt(root.dataset.version, 10), ply = parseInt(root.dataset.ply, 10);
    var state = root.dataset.state, toMove = null, dead = [], etag = null, busy = false;
    var lastHeartbeat = 0, heartbeat = 10000, pollMs = 1000, timer = null, reactionSeen = null, stateShown = state;
    // waiting gets cheaper the longer nothing happens (quiet: [[after ms, ask every ms], ...]), and a hidden page
    // only says "still here" until it is looked at again
    var quiet = [], hiddenMs = 15000, lastChange = Date.now(), full = null;
    // hold: the server may hold a question until the game changes (seconds; 0: it answers at once, we poll)
    var hold = 0, inflight = false, again = false;
    var wrap = document.getElementById("board-wrap"), feedback = document.getElementById("feedback");
    function board() { return wrap.querySelector("svg.board"); }
    // a big board on a phone: the first tap zooms in, the next plays, the whole board again once it is answered
    if (wrap) S.zoom(wrap, document.documentElement.lang === "zh-Hans" ? "zh" : "en", function () { return !busy; });
    function say(m, good) {
      feedback.textContent = m || "";
      feedback.className = "feedback speak " + (good === false ? "bad" : "");
      aloud(root, m);
    }
    function hide(id, hidden) { var e = document.getElementById(id); if (e) e.hidden = hidden; }
    // a card that appears (a draw offered, the count) is brought into view: on a phone it opens below the board
    function reveal(id, shown) {
      var e = document.getElementById(id);
      if (!e) return;
      if (shown && e.hidden) {
        e.hidden = false; e.scrollIntoView({behavior: "smooth", block: "nearest"});
        aloud(root, e.textContent);  // a draw offered, the count: what it asks, and its buttons
      }
      else if (!shown) e.hidden = true;
    }
    // the wait for a child who left counts down every second between the server's answers (which come every
    // few seconds): a number that sits still, then jumps by fifteen, tells a child nothing
    var awayWords = "", awayUntil = 0, awayTimer = null;
    function tickAway() {
      var left = Math.max(0, Math.ceil((awayUntil - Date.now()) / 1000));
      document.getElementById("away").textContent = awayWords.split("{seconds}").join(left);
    }
    var offered = false;  // this child's draw offer is waiting for an answer
    var agreedShown = false;  // this child's agreement to the count is on record

    function show(d) {
      if (!d || typeof d.version !== "number") return;
      if (d.version < version) return;  // an answer overtaken by a newer one
      if (d.delta) {  // what changed since the ply shown: applied to the last full answer
        if (!full) return;
        d = Object.assign({}, full, d, {notice: null, count_board: null, points: undefined, banner: null});
      } else full = d;
      if (d.version !== version) lastChange = Date.now();
      quiet = d.quiet || quiet; hiddenMs = d.hidden_poll || hiddenMs;
      version = d.version; ply = d.ply; state = d.state; toMove = d.to_move; dead = d.dead || [];
      root.dataset.version = version; root.dataset.ply = ply; root.dataset.state = state;
      pollMs = d.poll || pollMs; heartbeat = d.heartbeat || heartbeat;
      if (typeof d.hold === "number") hold = d.hold;
      if (d.count_board) { wrap.innerHTML = d.count_board; }
      else if (board()) S.setRows(board(), d.rows, d.last);
      var svg = board();
      if (svg) svg.classList.toggle("playable", (state === "playing" && !!you) ||
                                     (state === "counting" && !!you) || (state === "disputed" && teacher));
      stateShown = state;
      root.querySelectorAll(".player").forEach(function (p) {
        var c = p.dataset.color;
        p.classList.toggle("now", state === "playing" && c === d.to_move);
        p.classList.toggle("won", state === "finished" && c === d.winner);
        var n = d.captures[c];
        S.catches(p, n);
        var count = p.querySelector(".caught-count");
        if (count) count.textContent = n;
      });
      hide("turn", state !== "playing");
      document.getElementById("turn-stone").className = "turn-stone " + d.to_move;
      var turnText = document.getElementById("turn-text");
      if (turnText.textContent !== (d.turn || "") && state === "playing" && you && d.to_move === you) aloud(root, d.turn);
      turnText.textContent = d.turn || "";
      var notice = document.getElementById("notice");
      notice.textContent = d.notice || ""; notice.hidden = !d.notice;
      var away = document.getElementById("away");
      if (d.away) {
        awayWords = word(d.away.outcome === "abandon" ? "awayAbandon" : "awayAdjourn")
          .split("{name}").join(d.players[d.away.color].name);
        awayUntil = Date.now() + d.away.seconds_left * 1000;
        tickAway();
        if (!awayTimer) awayTimer = setInterval(tickAway, 1000);
        away.hidden = false;
      } else { away.hidden = true; clearInterval(awayTimer); awayTimer = null; }
      hide("play-actions", state !== "playing");
      hide("reactions", state === "finished");
      hide("resume-box", state !== "adjourned" || !(you || teacher) || (d.stopped && !teacher));
      reveal("draw-offered", state === "playing" && d.draw_offer && d.draw_offer !== you);
      var offer = document.getElementById("offer-draw");
      if (offer) offer.disabled = !!d.draw_offer;
      if (d.draw_offer === you && state === "playing") say(word("offered"));
      else if (offered && state === "playing" && !d.draw_offer) say(word("declined"));  // the friend said no
      offered = !!you && d.draw_offer === you;
      reveal("count-panel", state === "counting" || state === "disputed");
      if (d.points !== undefined) {
        document.getElementById("points").textContent = d.points;
        document.getElementById("points-words").textContent = d.points_words || "";
        document.getElementById("referee").textContent = d.referee;
        var line = document.getElementById("kid-line");
        line.textContent = d.kid_line;
        var open = document.getElementById("open-line");
        open.textContent = d.open_line || ""; open.hidden = !d.open_line;
        line.classList.toggle("ahead", d.tone === "ahead"); line.classList.toggle("behind", d.tone === "behind");
        document.getElementById("agreed").textContent = (d.agreed && d.agreed.length) ?
          word("agreed") + " " + d.agreed.map(function (c) { return d.players[c].name; }).join(", ") : "";
        var agree = document.getElementById("agree"), mine = !!you && (d.agreed || []).indexOf(you) >= 0;
        if (agree) agree.disabled = state !== "counting" || mine;
        if (agreedShown && !mine && state === "counting") say(word("remarked"));  // a tap took the agreement back
        agreedShown = mine;
        var disputeButton = document.getElementById("dispute");
        if (disputeButton) disputeButton.disabled = state !== "counting";
      }
      if (d.reaction && d.reaction.n !== reactionSeen) {
        if (reactionSeen !== null) {
          var card = root.querySelector(".player[data-color=" + d.reaction.color + "] .reaction-bubble");
          if (card) { card.textContent = d.reaction.text; card.classList.add("on");
            setTimeout(function () { card.classList.remove("on"); }, 3000); }
        }
        reactionSeen = d.reaction.n;
      } else if (!d.reaction && reactionSeen === null) reactionSeen = 0;
      if (d.banner) {
        var b = d.banner, banner = document.getElementById("banner");
        banner.className = "banner card " + b.mood;
        document.getElementById("banner-glyph").textContent = b.glyph;
        document.getElementById("banner-title").textContent = b.title;
        document.getElementById("banner-reason").textContent = b.reason;
        document.getElementById("banner-result").textContent = b.result || "";
        document.getElementById("banner-result").parentNode.hidden = !b.result;
        document.getElementById("banner-result-words").textContent = b.result_words || "";
        document.getElementById("banner-referee").textContent = b.referee || "";
        if (d.review) { var link = document.getElementById("review-link"); link.href = d.review; link.hidden = false; }
        if (d.milestones && d.milestones.length) {
          var won = document.getElementById("stickers-won");
          won.textContent = "";
          d.milestones.forEach(function (m) { won.appendChild(el("span", "sticker-won", m.glyph + " " + m.name)); });
          won.hidden = false;
        }
        // the game has just ended: the result card is brought into view (it sat below the board, off screen)
        if (banner.hidden) {  // as on the play page: the last move first, then only as far as shows the card
          banner.hidden = false;
          aloud(root, [b.title, b.reason].filter(Boolean).join(" "));
          setTimeout(function () { banner.scrollIntoView({behavior: "smooth", block: "nearest"}); }, 1200);
        }
      }
    }
    function answered(d) {
      busy = false;
      if (d.result === "signed-out") { say(d.message, false); setTimeout(function () { window.location = d.login; }, 2000); return; }
      if (d._etag) etag = d._etag;
      if (d.result === "illegal" || d.result === "error") { say(d.message, false); return; }
      say(d.message || "");
      show(d);
      schedule(0);
    }
    function send(url, body) {
      if (busy) return;
      busy = true;
      postJSON(url, body).then(answered).catch(function () { busy = false; say(word("offline"), false); });
    }
    function tap(pt) {
      var p = pt.dataset.point;
      if (state === "playing" && you && toMove === you) send(root.dataset.moveUrl, {move: p, ply: ply});
      else if ((state === "counting" && you) || (state === "disputed" && teacher))
        send(root.dataset.countUrl, {point: p, version: version});
    }
    wrap.addEventListener("click", function (e) {
      var pt = e.target.closest("g.pt");
      if (pt && board() && board().classList.contains("playable")) tap(pt);
    });
    wrap.addEventListener("keydown", function (e) {
      var pt = e.target.closest("g.pt");
      if (pt && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); tap(pt); }
    });
    function on(id, f) { var b = document.getElementById(id); if (b) b.addEventListener("click", f); }
    on("pass", function () { if (toMove === you) send(root.dataset.moveUrl, {move: "pass", ply: ply}); });
    on("resign", function () {
      hide("resign-confirm", false);
      aloud(root, document.getElementById("resign-confirm").textContent);
      var box = document.getElementById("resign-confirm");  // below the fold on a phone
      if (box) box.scrollIntoView({behavior: "smooth", block: "nearest"});
    });
    on("resign-no", function () { hide("resign-confirm", true); });
    on("resign-yes", function () { hide("resign-confirm", true); send(root.dataset.resignUrl, {}); });
    on("offer-draw", function () { send(root.dataset.drawUrl, {action: "offer"}); });
    on("draw-yes", function () { send(root.dataset.drawUrl, {action: "accept"}); });
    on("draw-no", function () { send(root.dataset.drawUrl, {action: "decline"}); });
    on("agree", function () { send(root.dataset.agreeUrl, {dead: dead}); });
    on("dispute", function () { send(root.dataset.disputeUrl, {}); });
    on("settle", function () { send(root.dataset.settleUrl, {version: version}); });
    on("resume", function () { send(root.dataset.resumeUrl, {}); });
    root.querySelectorAll("button.reaction").forEach(function (b) {
      b.addEventListener("click", function () { send(root.dataset.reactUrl, {reaction: b.dataset.reaction}); });
    });

    function ask() {
      if (inflight) { again = true; return; }  // one question at a time: the next goes when this one is answered
      var now = Date.now(), tag = etag, url = root.dataset.stateUrl, held = false;
      var holding = hold > 0 && !document.hidden;
      if (!full || !etag) { tag = null; lastHeartbeat = now; }  // a reconnect: the whole game
      else if (now - lastHeartbeat >= heartbeat - (holding ? 2000 : 0)) {  // "still here"
        url += "?here=1"; lastHeartbeat = now;
      } else {
        url += "?ply=" + ply;  // a changed game is answered with what changed since this ply
        if (holding) {  // held no longer than "still here" waits
          url += "&wait=" + Math.min(hold, Math.floor((heartbeat - (now - lastHeartbeat)) / 1000)); held = true;
        }
      }
      inflight = true; again = false;
      getJSON(url, tag).then(function (r) {
        inflight = false;
        if (r.data && r.data.result === "signed-out") { window.location = r.data.login; return; }
        if (feedback.textContent === word("offline")) say("");
        if (r.etag) etag = r.etag;
        // the game moved on: what the last tap was told ("now your friend says...") is no longer news
        if (r.data && r.status === 200 && typeof r.data.version === "number" && r.data.version > version) say("");
        if (r.data && r.status === 200) show(r.data);
        var ms = state === "finished" ? -1 : next();
        // while the server holds questions, the next one goes at once after a change, "still here" or a question
        // that was held; one answered 304 without being held (the server holds no more) waits the usual rhythm
        if (ms >= 0 && hold > 0 && !document.hidden)
          ms = r.status === 200 || !held ? 0 : Math.max(0, ms - (Date.now() - now));
        if (ms > 0 && again) ms = 0;
        schedule(ms);
      }).catch(function () { inflight = false; say(word("offline"), false); schedule(2000); });
    }
    function next() {
      if (document.hidden) return hiddenMs;
      var ms = pollMs, still = Date.now() - lastChange;
      quiet.forEach(function (step) { if (still >= step[0]) ms = Math.max(ms, step[1]); });
      return ms;
    }
    function schedule(ms) {
      clearTimeout(timer);
      if (ms >= 0) timer = setTimeout(ask, ms);
    }
    document.addEventListener("visibilitychange", function () {
      // looked at again: ask now, and the quiet time starts over (the child is back at the board)
      if (!document.hidden && state !== "finished") { lastChange = Date.now(); schedule(0); }
    });
    ask();
  }

  // ---------------------------------------------------------------- the teacher's live view
  function liveView(root) {
    var etag = null;
    function ask() {
      getJSON(root.dataset.url, etag).then(function (r) {
        if (r.etag) etag = r.etag;
        if (r.data) {
          var cards = root.querySelectorAll(".live-card");
          var ids = Array.prototype.map.call(cards, function (c) { return c.dataset.game; }).join(",");
          if (ids !== r.data.games.map(function (gm) { return String(gm.id); }).join(",")) {
            window.location.reload(); return;
          }
          r.data.games.forEach(function (gm) {
            var card = root.querySelector(".live-card[data-game='" + gm.id + "']");
            var svg = card.querySelector("svg.board");
            if (svg) S.setRows(svg, gm.rows, gm.last, true);
            card.className = "live-card state-" + gm.state;
            card.querySelector(".live-state-words").textContent = gm.state_words;
            card.querySelector(".live-result").textContent = gm.result_words || "";
            var reviews = card.querySelector(".live-reviews");
            if (reviews.children.length !== Object.keys(gm.reviews).length) {
              reviews.textContent = "";
              Object.keys(gm.reviews).forEach(function (c) {
                var a = el("a", "review-link", "🔍 " + gm.names[c]); a.href = gm.reviews[c];
                reviews.appendChild(a); reviews.appendChild(document.createTextNode(" "));
              });
            }
          });
        }
        setTimeout(ask, 2000);
      }).catch(function () { setTimeout(ask, 4000); });
    }
    ask();
  }
})();
