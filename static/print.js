// Print buttons without inline script (the Content-Security-Policy allows none): any [data-print] prints the page.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
