// findings: filters on the runs index, as the home page's findings filters.
//
// Without JS the filter bar stays hidden and the index is the list of runs,
// a page at a time. With it, the bar shows; a click on a chip filters every
// run, not only the page's: the script fetches runs/filters.json (each
// run's entry, as the index shows it) when a filter is first used, and
// lists the matches in place of the page's runs, STEP at a time. Its chips
// are buttons (aria-pressed); the choice is kept in the address (?engine=vllm&version=0.30&model=…&hardware=…
// &tool=…&flagged=yes), so that it can be shared. Choosing an engine offers the
// versions its runs measured.
(function () {
  "use strict";
  var bar = document.getElementById("run-filters");
  if (!bar || !window.fetch || !window.URLSearchParams) return;
  var SCHEMA_VERSION = 1;
  var STEP = 50;
  var KEYS = ["engine", "version", "model", "hardware", "tool", "flagged"];
  var state = { engine: "", version: "", model: "", hardware: "", tool: "", flagged: "" };
  var list = document.getElementById("run-list");
  var matches = document.getElementById("run-matches");
  var empty = document.getElementById("run-filter-empty");
  var pagination = document.getElementById("run-pagination");
  var summary = document.getElementById("run-filter-summary");
  var versionRow = bar.querySelector('[data-filter="version"]');
  var versionList = versionRow.querySelector("ul");
  var script = document.currentScript || document.querySelector("script[src$='runs.js']");
  var siteRoot = new URL(".", script ? script.src : window.location.href);
  var box = document.getElementById("run-filters-box");
  bar.hidden = false;
  bar.classList.add("filters-live");

  var data = null;
  function load() {
    if (!data) {
      data = fetch(new URL(bar.getAttribute("data-src"), window.location.href).href).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      }).then(function (d) {
        if (d.schema_version !== SCHEMA_VERSION) throw new Error("unknown data version");
        d.rows = d.runs.map(function (row) {
          var o = {};
          d.fields.forEach(function (k, i) { o[k] = row[i]; });
          return o;
        });
        return d;
      });
      data.catch(function () { data = null; });
    }
    return data;
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

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function link(path, text, title) {
    var a = el("a", null, text);
    a.href = new URL(path, siteRoot).href;
    if (title) a.title = title;
    return a;
  }

  // The version chips of the chosen engine.
  function versionChips(d) {
    versionList.textContent = "";
    versionRow.hidden = !state.engine;
    if (!state.engine || !d) return;
    d.engines.forEach(function (e) {
      if (e.id !== state.engine) return;
      e.versions.forEach(function (v) {
        var li = el("li");
        var b = el("button", "filter-chip", v);
        b.type = "button";
        b.setAttribute("data-value", v);
        li.appendChild(b);
        versionList.appendChild(li);
      });
    });
  }

  function mark() {
    KEYS.forEach(function (k) {
      var chips = bar.querySelectorAll('[data-filter="' + k + '"] [data-value]');
      Array.prototype.forEach.call(chips, function (b) {
        b.setAttribute("aria-pressed", b.getAttribute("data-value") === state[k] ? "true" : "false");
      });
    });
  }

  function keeps(r) {
    if (state.engine && !r.setups.some(function (s) {
      return s[0] === state.engine && (!state.version || s[1] === state.version);
    })) return false;
    if (state.model && r.model !== state.model) return false;
    if (state.hardware === "-" ? r.hardware : state.hardware && r.hardware !== state.hardware) return false;
    if (state.tool && r.tool !== state.tool) return false;
    if (state.flagged && !r.flags.length) return false;
    return true;
  }

  // A run's entry, as the index writes it.
  function entry(r) {
    var li = el("li", "run-entry");
    li.appendChild(link(r.path, r.title));
    li.appendChild(document.createTextNode(" "));
    var meta = el("span", "run-meta muted small");
    var time = el("time", null, r.date_long);
    time.setAttribute("datetime", r.date);
    meta.appendChild(time);
    [r.measured, r.model, r.hardware, r.tool].forEach(function (t) {
      if (t) meta.appendChild(document.createTextNode(" · " + t));
    });
    li.appendChild(meta);
    if (r.workload) {
      var w = el("span", "run-workload small");
      w.appendChild(r.workload[1] ? link(r.workload[1], r.workload[0]) : document.createTextNode(r.workload[0]));
      if (r.workload[2]) w.appendChild(el("span", "muted", " and " + r.workload[2] + " more workload" + (r.workload[2] === 1 ? "" : "s")));
      li.appendChild(w);
    }
    if (r.figure || r.flags.length) {
      var fig = el("span", "run-figure", r.figure || "");
      r.flags.forEach(function (f) {
        fig.appendChild(document.createTextNode(" "));
        var a = link(r.path + "#check-" + f[1], f[0]);
        a.className = "figure-flag";
        fig.appendChild(a);
      });
      li.appendChild(fig);
    }
    var found = el("span", "run-findings small");
    [["shows", "shows "], ["absent", "shows absent "], ["cited", "cited by "]].forEach(function (k) {
      var refs = r[k[0]];
      if (!refs.length) return;
      if (found.childNodes.length) found.appendChild(document.createTextNode(" · "));
      found.appendChild(document.createTextNode(k[1]));
      refs.forEach(function (f, i) {
        if (i) found.appendChild(document.createTextNode(", "));
        found.appendChild(link(f[1], f[0], f[2]));
      });
    });
    if (!found.childNodes.length) found.appendChild(el("span", "muted", "no finding cites it, and it shows none"));
    li.appendChild(found);
    return li;
  }

  var runs = 0;
  var more = null;

  function dropMore() {
    if (more && more.parentNode) more.parentNode.removeChild(more);
    more = null;
  }

  function apply() {
    var run = ++runs;
    var active = KEYS.some(function (k) { return state[k]; });
    mark();
    dropMore();
    if (!active) {
      versionChips(null);
      list.hidden = false;
      if (pagination) pagination.hidden = false;
      matches.hidden = true;
      matches.textContent = "";
      empty.hidden = true;
      summary.hidden = true;
      bar.setAttribute("data-state", "ready");
      return Promise.resolve();
    }
    bar.setAttribute("data-state", "loading");
    summary.hidden = false;
    summary.textContent = "Filtering…";
    return load().then(function (d) {
      if (run !== runs) return;
      versionChips(d);
      mark();
      var found = d.rows.filter(keeps);
      list.hidden = true;
      if (pagination) pagination.hidden = true;
      matches.textContent = "";
      matches.hidden = found.length === 0;
      empty.hidden = found.length > 0;
      var shown = 0;
      function next() {
        found.slice(shown, shown + STEP).forEach(function (r) { matches.appendChild(entry(r)); });
        shown = Math.min(found.length, shown + STEP);
        dropMore();
        if (shown < found.length) {
          more = el("button", "filter-more-button filter-clear", "Show more (" + (found.length - shown) + " left)");
          more.type = "button";
          more.addEventListener("click", next);
          matches.parentNode.insertBefore(more, matches.nextSibling);
        }
      }
      next();
      report(found.length, d.rows.length);
    }).catch(function (e) {
      if (run !== runs) return;
      summary.textContent = "The filter could not be applied (" + e.message + "); the list below is every run, a page at a time.";
      list.hidden = false;
      if (pagination) pagination.hidden = false;
    }).then(function () {
      if (run === runs) bar.setAttribute("data-state", "ready");
    });
  }

  function report(n, total) {
    summary.textContent = "Showing " + n + " of " + total + " run" + (total === 1 ? "" : "s") + ". ";
    var clear = el("button", "filter-clear", "Clear filters");
    clear.type = "button";
    clear.addEventListener("click", function () { set({ engine: "", version: "", model: "", hardware: "", tool: "", flagged: "" }); });
    summary.appendChild(clear);
  }

  function set(change) {
    Object.keys(change).forEach(function (k) { state[k] = change[k]; });
    if (!state.engine) state.version = "";
    write();
    return apply();
  }

  bar.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button[data-value]") : null;
    if (!b) return;
    var key = b.closest("[data-filter]").getAttribute("data-filter");
    var value = b.getAttribute("data-value");
    var change = {};
    change[key] = state[key] === value ? "" : value;
    if (key === "engine" && change.engine !== state.engine) change.version = "";
    set(change);
  });

  read();
  // Open on a wide screen, or with a filter chosen; on a phone the runs
  // come first, the bar one tap away.
  if (box && (KEYS.some(function (k) { return state[k]; }) || window.matchMedia("(min-width: 48rem)").matches)) box.open = true;
  apply();
})();
