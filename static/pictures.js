// Picture password: collect the taps, show them in the slots, send the form when the last one is tapped.
(function () {
  var form = document.getElementById("pictures-form");
  if (!form) return;
  var count = parseInt(form.dataset.count, 10);
  var field = form.querySelector("input[name=pictures]");
  var slots = form.querySelectorAll(".slot");
  var chosen = [];
  function show() {
    slots.forEach(function (slot, i) { slot.textContent = i < chosen.length ? "●" : ""; });
  }
  form.querySelectorAll("button.picture").forEach(function (button) {
    button.addEventListener("click", function () {
      if (chosen.length >= count) return;
      chosen.push(button.dataset.picture);
      show();
      if (chosen.length === count) {
        field.value = chosen.join(",");
        form.submit();
      }
    });
  });
  document.getElementById("pictures-clear").addEventListener("click", function () { chosen = []; show(); });
})();
