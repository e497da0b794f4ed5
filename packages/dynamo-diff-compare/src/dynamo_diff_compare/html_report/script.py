"""The page's one inline script, allowed by its hash in the Content-Security-Policy (nothing else may run). It only
adds to a page that reads whole without it (the VS Code webview runs no script): a link to a function's details
or to a record opens the <details> it points to or into, and the functions table sorts by a column clicked."""

from __future__ import annotations

import base64
import hashlib

SCRIPT = """
(function () {
  "use strict";
  function openTo(id) {
    var el = id && document.getElementById(id);
    for (var at = el; at; at = at.parentElement) {
      if (at.tagName === "DETAILS") at.open = true;
    }
    var inner = el && el.querySelector(":scope > details");  // a function's section holds its details
    if (inner) inner.open = true;
    return el;
  }
  function fromHash() {
    var el = openTo(decodeURIComponent(location.hash.slice(1)));
    if (el) el.scrollIntoView();
  }
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#"]');
    if (link) openTo(decodeURIComponent(link.getAttribute("href").slice(1)));
  });
  fromHash();
  var table = document.getElementById("functions");
  if (!table) return;
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, column) {
    var kind = th.getAttribute("data-sort");
    if (!kind) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    // Numbers sort largest first, names from A; a second click reverses.
    var first = kind === "num" ? "descending" : "ascending";
    button.addEventListener("click", function () {
      var dir = th.getAttribute("aria-sort") === first ? (first === "ascending" ? "descending" : "ascending") : first;
      Array.prototype.forEach.call(heads, function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", dir);
      var sign = dir === "ascending" ? 1 : -1;
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute("data-v"), y = b.cells[column].getAttribute("data-v");
        var by = kind === "num" ? parseFloat(x) - parseFloat(y) : x.localeCompare(y);
        return sign * by || a.getAttribute("data-order") - b.getAttribute("data-order");
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
  var hint = document.getElementById("sort-hint");
  if (hint) hint.hidden = false;
})();
"""

# The CSP source that allows exactly this script.
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
