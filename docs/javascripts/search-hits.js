/* Direct search hits: when the search box holds exactly a rule, calculator, interpretation or
   system ID, or a glossary term or abbreviation, its own page (or glossary entry) is listed first,
   above the full-text results. The map comes from rulesbook.site.publish.search_hits. */
(function () {
  "use strict";
  var hits = window.rulesbookSearchHits || {};
  var here = document.currentScript ? document.currentScript.src : "";
  var base = here.replace(/javascripts\/search-hits\.js(\?.*)?$/, "");

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function item(hit) {
    var li = element("li", "md-search-result__item rb-direct-hit");
    var link = element("a", "md-search-result__link");
    link.href = base + hit[0];
    var article = element("article", "md-search-result__article md-typeset");
    article.appendChild(element("div", "md-search-result__icon md-icon"));
    article.appendChild(element("h1", "", hit[1]));
    article.appendChild(element("p", "rb-direct-hit__what", hit[2]));
    link.appendChild(article);
    li.appendChild(link);
    return li;
  }

  function update(input, list) {
    var key = input.value.trim().toLowerCase().replace(/\s+/g, " ");
    var current = list.getAttribute("data-rb-hits") || "";
    var present = list.querySelector(".rb-direct-hit");
    if (current === key && (present || !hits[key])) return;
    Array.prototype.forEach.call(list.querySelectorAll(".rb-direct-hit"), function (old) { old.remove(); });
    list.setAttribute("data-rb-hits", key);
    var found = Object.prototype.hasOwnProperty.call(hits, key) ? hits[key] : [];
    for (var i = found.length - 1; i >= 0; i--) list.insertBefore(item(found[i]), list.firstChild);
  }

  function init() {
    var input = document.querySelector("input.md-search__input");
    var list = document.querySelector(".md-search-result__list");
    if (!input || !list) return;
    var run = function () { update(input, list); };
    new MutationObserver(run).observe(list, { childList: true });
    input.addEventListener("input", run);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
