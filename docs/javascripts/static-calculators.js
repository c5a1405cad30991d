/* Static calculators: swap in the answer precomputed for the chosen inputs (rulesbook.site.static).
   No computing happens here: every answer was produced by the Python calculator at build time. */
(function () {
  "use strict";
  function setup(box) {
    var data = box.querySelector("script.rb-states");
    var result = box.querySelector(".rb-static-result");
    if (!data || !result) return;
    var states = JSON.parse(data.textContent);
    var selects = Array.prototype.slice.call(box.querySelectorAll("select[data-key]"));
    function update() {
      var position = 0;
      selects.forEach(function (select) {
        position = position * select.options.length + select.selectedIndex;
      });
      result.innerHTML = states.html[states.index[position]];
      box.setAttribute("data-state", String(position));
    }
    selects.forEach(function (select) { select.addEventListener("change", update); });
    box.setAttribute("data-ready", "true");
  }
  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".rb-static-calc"), setup);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
