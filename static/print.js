// Print buttons without inline script (the Content-Security-Policy allows none): any [data-print] prints the page.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});

// On a phone the report's tables read as cards, one line a cell: each cell is given its column's heading
// (data-label, taken from the table's own headings) for parent.css to show before it.
document.querySelectorAll(".report table").forEach(function (table) {
  var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) { return th.textContent; });
  table.querySelectorAll("tbody tr").forEach(function (row) {
    Array.prototype.forEach.call(row.children, function (cell, i) {
      if (heads[i] && !cell.hasAttribute("colspan")) { cell.setAttribute("data-label", heads[i]); }
    });
  });
  table.classList.add("cards");
});
