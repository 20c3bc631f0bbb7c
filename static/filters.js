// findings: instant filters on the home page.
//
// Without JS the filter bar is a set of links to pages that list the same
// thing (engine, version, group and status pages). With it, a click filters
// the cards in place instead, the choice is kept in the address
// (?engine=vllm&version=0.30&group=…&status=open) so it can be shared, and a
// version filter shows what affects that version: the findings whose state
// there is affected or in range, worked out by static/versions.js from each
// finding's engine entry, with the same rules as the engine pages.
(function () {
  "use strict";
  var V = window.FindingsVersions;
  var bar = document.getElementById("filters");
  var dataEl = document.getElementById("finding-entries");
  if (!bar || !dataEl || !V) return;
  var entries;
  try {
    entries = JSON.parse(dataEl.textContent);
  } catch (e) {
    return;
  }
  var KEYS = ["engine", "version", "group", "status"];
  var state = { engine: "", version: "", group: "", status: "" };
  var cards = Array.prototype.slice.call(document.querySelectorAll("section.group article.card"));
  var groups = Array.prototype.slice.call(document.querySelectorAll("section.group"));
  var summary = document.getElementById("filter-summary");
  var empty = document.getElementById("filter-empty");
  var versionRow = bar.querySelector('[data-filter="version"]');
  var versionLists = Array.prototype.slice.call(versionRow.querySelectorAll("ul[data-engine]"));
  var parsedEntries = {};

  bar.classList.add("filters-live");

  // The version row: a hint until an engine is chosen, then that engine's
  // versions and a box for any other version.
  var hint = document.createElement("p");
  hint.className = "filter-hint muted small";
  hint.textContent = "Choose an engine to see what affects one of its versions.";
  versionRow.querySelector(".filter-versions").appendChild(hint);
  var typed = document.createElement("form");
  typed.className = "filter-typed";
  typed.innerHTML = '<label for="filter-version-input">or type one</label> ' +
    '<input id="filter-version-input" type="text" autocomplete="off" spellcheck="false" size="10" placeholder="0.31">' +
    ' <span class="filter-typed-error" role="alert"></span>';
  versionRow.querySelector(".filter-versions").appendChild(typed);
  var typedInput = typed.querySelector("input");
  var typedError = typed.querySelector(".filter-typed-error");

  function entryOf(id, engine) {
    var key = id + " " + engine;
    if (!(key in parsedEntries)) {
      var e = entries[id] && entries[id][engine];
      parsedEntries[key] = e ? V.entry(e) : null;
    }
    return parsedEntries[key];
  }

  // The link of `value` in the filter row `key` (values come from the
  // address, so they are compared, never put into a selector).
  function option(key, value, engine) {
    var links = bar.querySelectorAll('[data-filter="' + key + '"] a[data-value]');
    for (var i = 0; i < links.length; i++) {
      var list = links[i].closest("ul[data-engine]");
      if (links[i].getAttribute("data-value") === value &&
          (engine === undefined || (list && list.getAttribute("data-engine") === engine))) {
        return links[i];
      }
    }
    return null;
  }

  function engineName(id) {
    var a = option("engine", id);
    var tag = a && a.querySelector(".engine-tag");
    return tag ? tag.textContent : id;
  }

  function read() {
    var params = new URLSearchParams(window.location.search);
    KEYS.forEach(function (k) { state[k] = params.get(k) || ""; });
    if (!state.engine) state.version = "";
  }

  function write() {
    var params = new URLSearchParams(window.location.search);
    KEYS.forEach(function (k) { if (state[k]) params.set(k, state[k]); else params.delete(k); });
    var qs = params.toString();
    window.history.replaceState(null, "", window.location.pathname + (qs ? "?" + qs : "") + window.location.hash);
  }

  function mark() {
    KEYS.forEach(function (k) {
      var links = bar.querySelectorAll('[data-filter="' + k + '"] a[data-value]');
      Array.prototype.forEach.call(links, function (a) {
        var list = a.closest("ul[data-engine]");
        var on = a.getAttribute("data-value") === state[k] && (!list || list.getAttribute("data-engine") === state.engine);
        if (on) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
      });
    });
    versionLists.forEach(function (ul) { ul.hidden = ul.getAttribute("data-engine") !== state.engine; });
    hint.hidden = !!state.engine;
    typed.hidden = !state.engine;
    var listed = versionLists.some(function (ul) {
      return ul.getAttribute("data-engine") === state.engine && ul.querySelector('a[aria-current="true"]');
    });
    if (document.activeElement !== typedInput) typedInput.value = state.version && !listed ? state.version : "";
  }

  function chip(card, st) {
    var old = card.querySelector(".card-state");
    if (old) old.parentNode.removeChild(old);
    if (!st) return;
    var p = document.createElement("p");
    p.className = "card-state";
    var s = document.createElement("span");
    s.className = "state-chip state-" + st + (V.isTested(st) ? " tested" : " inferred");
    s.textContent = V.LABELS[st];
    p.appendChild(s);
    p.appendChild(document.createTextNode(" on " + engineName(state.engine) + " " + state.version));
    var meta = card.querySelector(".card-meta");
    meta.parentNode.insertBefore(p, meta.nextSibling);
  }

  function apply() {
    var version = null;
    typedError.textContent = "";
    if (state.engine && state.version) {
      version = V.parse(state.version);
      if (!V.isVersion(version)) {
        typedError.textContent = version.message;
        version = null;
      }
    }
    var counts = { affected: 0, "in-range": 0, mitigated: 0, fixed: 0, clean: 0, unknown: 0 };
    var visible = 0;
    cards.forEach(function (card) {
      var id = card.getAttribute("data-id");
      var show = true;
      var st = null;
      if (state.engine) {
        var engines = (card.getAttribute("data-engines") || "").split(" ");
        show = engines.indexOf(state.engine) >= 0;
        if (show && version) {
          var e = entryOf(id, state.engine);
          st = e ? V.stateOf(e, version) : "unknown";
          counts[st]++;
          show = st === "affected" || st === "in-range";
        }
      }
      if (state.group && card.getAttribute("data-group") !== state.group) show = false;
      if (state.status && card.getAttribute("data-status") !== state.status) show = false;
      card.hidden = !show;
      chip(card, show ? st : null);
      if (show) visible++;
    });
    groups.forEach(function (g) {
      var any = g.querySelector("article.card:not([hidden])");
      g.hidden = !any && (state.engine || state.group || state.status) ? true : false;
    });
    var active = KEYS.some(function (k) { return state[k]; });
    summary.hidden = !active;
    empty.hidden = !active || visible > 0;
    summary.textContent = "";
    if (active) {
      var total = Number(bar.getAttribute("data-total")) || cards.length;
      var text;
      if (version) {
        text = visible + " of " + total + " findings concern " + engineName(state.engine) + " " + state.version +
          ": " + counts.affected + " affected (tested), " + counts["in-range"] + " in range (untested).";
        var rest = [];
        ["mitigated", "fixed", "clean"].forEach(function (s) { if (counts[s]) rest.push(counts[s] + " " + s); });
        text += rest.length ? " Not shown: " + rest.join(", ") + ". " : " ";
      } else {
        text = "Showing " + visible + " of " + total + " findings. ";
      }
      summary.appendChild(document.createTextNode(text));
      var page = version && option("version", state.version, state.engine);
      if (page) {
        var link = document.createElement("a");
        link.href = page.href;
        link.textContent = "The " + engineName(state.engine) + " " + page.textContent + " page";
        summary.appendChild(link);
        summary.appendChild(document.createTextNode(" lists them all. "));
      }
      var clear = document.createElement("button");
      clear.type = "button";
      clear.className = "filter-clear";
      clear.textContent = "Clear filters";
      clear.addEventListener("click", function () { set({ engine: "", version: "", group: "", status: "" }); });
      summary.appendChild(clear);
    }
  }

  function set(change) {
    Object.keys(change).forEach(function (k) { state[k] = change[k]; });
    if (!state.engine) state.version = "";
    write();
    mark();
    apply();
  }

  bar.addEventListener("click", function (ev) {
    var a = ev.target.closest ? ev.target.closest("a[data-value]") : null;
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey || ev.button > 0) return;
    var row = a.closest("[data-filter]");
    var key = row.getAttribute("data-filter");
    var value = a.getAttribute("data-value");
    ev.preventDefault();
    var change = {};
    change[key] = state[key] === value && a.getAttribute("aria-current") === "true" ? "" : value;
    if (key === "engine" && change.engine !== state.engine) change.version = "";
    set(change);
  });

  typed.addEventListener("submit", function (ev) { ev.preventDefault(); });
  typedInput.addEventListener("input", function () { set({ version: typedInput.value.trim() }); });

  document.addEventListener("click", function (ev) {
    var a = ev.target.closest ? ev.target.closest("a[data-filter-clear]") : null;
    if (!a) return;
    ev.preventDefault();
    set({ engine: "", version: "", group: "", status: "" });
  });

  read();
  mark();
  apply();
})();
