// Read-aloud for children who cannot read yet, on every kid page and sign-in screen.
// TeachVoice.speakAll([{text, el}]) says each text in turn and lights up its element while it is said;
// a long press on anything with data-say says its name instead of pressing it; the page's 🔊 button reads the
// page. A device without a voice for the page's language shows it (.no-voice, a crossed-out speaker) instead
// of staying silent.
(function () {
  "use strict";
  var lang = (document.documentElement.lang || "zh").indexOf("zh") === 0 ? "zh" : "en";
  var synth = window.speechSynthesis;
  var asked = null;    // the narration the page started by itself
  var blocked = null;  // ... when the browser refused it before the first tap: it is said on that tap

  function voiceFor(voices) {
    return voices.some(function (v) { return (v.lang || "").replace("_", "-").toLowerCase().indexOf(lang) === 0; });
  }
  function checkVoice(then) {
    if (!synth || !window.SpeechSynthesisUtterance) { then(false); return; }
    var voices = synth.getVoices(), answered = false;
    if (voices && voices.length) { then(voiceFor(voices)); return; }
    function answer() { if (!answered) { answered = true; then(voiceFor(synth.getVoices() || [])); } }
    if (synth.addEventListener) synth.addEventListener("voiceschanged", answer);
    setTimeout(answer, 1500);  // some browsers never send voiceschanged
  }
  // the notice shows until a grown-up taps "got it" (kept on this device, per language); the crossed-out 🔊
  // stays on every page, and a tap on it shows the notice again
  var NOTICE_OK = "teach-no-voice-ok-" + lang;
  function noticeOk() { try { return localStorage.getItem(NOTICE_OK) === "1"; } catch (e) { return false; } }
  function showNotice(show) { document.querySelectorAll(".no-voice").forEach(function (el) { el.hidden = !show; }); }
  function showSilent() {
    document.querySelectorAll(".no-voice").forEach(function (el) {
      if (el.querySelector(".no-voice-ok")) return;
      var ok = document.createElement("button");
      ok.type = "button"; ok.className = "no-voice-ok";
      ok.textContent = lang === "zh" ? "知道了" : "Got it";
      ok.addEventListener("click", function () {
        try { localStorage.setItem(NOTICE_OK, "1"); } catch (e) { /* private mode: hidden on this page only */ }
        showNotice(false);
      });
      el.appendChild(document.createTextNode(" "));
      el.appendChild(ok);
    });
    showNotice(!noticeOk());
    document.querySelectorAll(".read-aloud").forEach(function (b) {
      b.classList.add("silent"); b.textContent = "🔇";
      b.addEventListener("click", function () { showNotice(true); });
    });
  }
  var PICTURES = /[\u2190-\u21ff\u2300-\u23ff\u2460-\u27bf\u2b00-\u2bff\ufe0f\u200d]|\ud83c[\udc00-\udfff]|\ud83d[\udc00-\udfff]|\ud83e[\udc00-\udfff]/g;
  function speakAll(items) {
    if (!synth || !window.SpeechSynthesisUtterance) return;
    // pictures are for the eyes: a voice reads "🐱" as "cat face" and "✗" as "cross mark"
    items = items.map(function (it) {
      return it && it.text ? {text: it.text.replace(PICTURES, " ").replace(/\s+/g, " ").trim(), el: it.el} : it;
    }).filter(function (it) { return it && it.text; });
    if (!items.length) return;
    synth.cancel();
    items.forEach(function (it, i) {
      var u = new SpeechSynthesisUtterance(it.text);
      u.lang = lang === "zh" ? "zh-CN" : "en-US";
      u.rate = 0.9;
      u.onstart = function () { asked = null; if (it.el) it.el.classList.add("reading"); };
      u.onend = function () { if (it.el) it.el.classList.remove("reading"); };
      u.onerror = function (e) {
        if (it.el) it.el.classList.remove("reading");
        if (i === 0 && e && e.error === "not-allowed" && asked) { blocked = asked; asked = null; }
      };
      synth.speak(u);
    });
  }
  function speak(text) { speakAll([{text: text}]); }
  // what a thing says of itself: its data-say, or (data-say left empty) its own text
  function words(el) { return el.dataset.say || el.textContent.replace(/\s+/g, " ").trim(); }
  // narration a page starts by itself; where the browser wants a tap first, the first tap starts it
  function whenAllowed(say) {
    asked = say;
    say();
  }
  document.addEventListener("pointerdown", function () {
    if (blocked) { var say = blocked; blocked = null; setTimeout(say, 0); }
  }, true);

  // a long press says what a button or picture is, and does not press it
  var pressTimer = null, saidByPress = false;
  document.addEventListener("pointerdown", function (e) {
    var el = e.target.closest && e.target.closest("[data-say]");
    saidByPress = false;
    if (!el) return;
    pressTimer = setTimeout(function () { saidByPress = true; speakAll([{text: words(el), el: el}]); }, 550);
  });
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (name) {
    document.addEventListener(name, function () { clearTimeout(pressTimer); });
  });
  document.addEventListener("click", function (e) {
    if (saidByPress) { saidByPress = false; e.preventDefault(); e.stopPropagation(); }
  }, true);
  document.addEventListener("contextmenu", function (e) {
    if (e.target.closest && e.target.closest("[data-say]")) e.preventDefault();
  });

  // the page's own 🔊 (sign-in screens, the map): its words, then each thing to tap, lit up as it is said
  function readPage() {
    var items = [];
    document.querySelectorAll("main .speak").forEach(function (el) {
      if (!el.closest("[hidden]") && el.textContent.trim()) items.push({text: el.textContent.trim()});
    });
    document.querySelectorAll("header [data-say].page-say, main [data-say].page-say").forEach(function (el) {
      if (!el.closest("[hidden]")) items.push({text: words(el), el: el});
    });
    speakAll(items);
  }
  var pageButton = document.getElementById("page-read");
  if (pageButton) pageButton.addEventListener("click", readPage);
  checkVoice(function (ok) { if (!ok) showSilent(); });
  if (document.body.dataset.narrate === "1" && pageButton) whenAllowed(readPage);

  window.TeachVoice = {speak: speak, speakAll: speakAll, whenAllowed: whenAllowed, lang: lang};
})();
