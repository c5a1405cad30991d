/* Static calculators: swap in the answer precomputed for the chosen inputs (rulesbook.site.static).
   No computing happens here: every answer was produced by the Python calculator at build time. */
(function () {
  "use strict";
  function setup(box) {
    var data = box.querySelector("script.rb-states");
    var result = box.querySelector(".rb-static-result");
    if (!data || !result) return;
    var states = null;  // read at the first change: a page that goes live never needs them
    var selects = Array.prototype.slice.call(box.querySelectorAll("select[data-key]"));
    // an answer's workings start closed on a phone (the inputs right under the headline); a tap
    // on their summary sets them for the page
    var workings;
    result.addEventListener("click", function (event) {
      var summary = event.target.closest && event.target.closest("details.rb-workings > summary");
      if (summary) workings = !summary.parentElement.open;
    });
    function fold() {
      var open = workings === undefined ? !window.matchMedia("(max-width: 700px)").matches : workings;
      Array.prototype.forEach.call(result.querySelectorAll("details.rb-workings"), function (details) {
        details.open = open;
      });
    }
    function update() {
      states = states || JSON.parse(data.textContent);
      var position = 0;
      selects.forEach(function (select) {
        position = position * select.options.length + select.selectedIndex;
      });
      result.innerHTML = states.html[states.index[position]];
      fold();
      box.setAttribute("data-state", String(position));
    }
    fold();
    selects.forEach(function (select) { select.addEventListener("change", update); });
    box.setAttribute("data-ready", "true");
  }
  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".rb-static-calc"), setup);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
