// findings: instant filters on the home page.
//
// Without JS the filter bar is a set of links to pages that list the same
// thing (engine, group and status pages). With it, a click filters the
// findings in place instead, the choice is kept in the address
// (?engine=vllm&version=0.30&group=…&status=open) so it can be shared, and a
// version filter shows what affects that version: the findings whose state
// there is affected or in range, worked out by static/versions.js from each
// finding's engine entry, with the same rules as the engine pages.
//
// The home page shows only each group's first findings, so the filters work
// on data that covers every finding, fetched when a filter is first used:
// the engine's findings (engines/<id>/findings.json: entries, groups and
// statuses) once an engine is chosen, else the group and status of every
// finding (filters.json). Matches already on the page are shown in place;
// the others come from each finding's JSON file (f/<id>.json), a few at a
// time per group.
(function () {
  "use strict";
  var V = window.FindingsVersions;
  var bar = document.getElementById("filters");
  if (!bar || !V || !window.fetch) return;
  var SCHEMA_VERSION = 1;
  var KEYS = ["engine", "version", "group", "status"];
  var state = { engine: "", version: "", group: "", status: "" };
  var groups = Array.prototype.slice.call(document.querySelectorAll("section.group"));
  var summary = document.getElementById("filter-summary");
  var empty = document.getElementById("filter-empty");
  var versionRow = bar.querySelector('[data-filter="version"]');
  var versionBox = versionRow.querySelector(".filter-versions");
  var script = document.currentScript || document.querySelector("script[src$='filters.js']");
  var siteRoot = new URL(".", script ? script.src : window.location.href);
  // How many matches a group shows before "Show more".
  var STEP = 10;

  bar.classList.add("filters-live");
  versionRow.hidden = false;

  // The version row: a hint until an engine is chosen, then that engine's
  // versions and a box for any other version.
  var hint = document.createElement("p");
  hint.className = "filter-hint muted small";
  hint.textContent = "Choose an engine to see what affects one of its versions.";
  versionBox.appendChild(hint);
  var versionList = document.createElement("ul");
  versionList.className = "filter-options";
  versionBox.appendChild(versionList);
  var typed = document.createElement("form");
  typed.className = "filter-typed";
  typed.innerHTML = '<label for="filter-version-input">or type one</label> ' +
    '<input id="filter-version-input" type="text" autocomplete="off" spellcheck="false" size="10" placeholder="0.31">' +
    ' <span class="filter-typed-error" role="alert"></span>';
  versionBox.appendChild(typed);
  var typedInput = typed.querySelector("input");
  var typedError = typed.querySelector(".filter-typed-error");

  // ------------------------------------------------------------ data

  var cache = {};

  function getJSON(url) {
    if (!cache[url]) {
      cache[url] = fetch(url).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status + " for " + url);
        return r.json();
      });
    }
    return cache[url];
  }

  // Rows of a data file as objects, by its `fields`.
  function rows(d) {
    if (d.schema_version !== SCHEMA_VERSION) throw new Error("unknown data version");
    return d.findings.map(function (row) {
      var o = {};
      d.fields.forEach(function (k, i) { o[k] = row[i]; });
      return o;
    });
  }

  // Every listed finding that the engine filter (if any) keeps, with its
  // group, status and, under an engine, its entry.
  function candidates() {
    if (state.engine) {
      var chip = option("engine", state.engine);
      if (!chip) return Promise.reject(new Error("no engine " + state.engine + " in the filter bar"));
      return getJSON(chip.getAttribute("data-src")).then(function (d) {
        var list = rows(d);
        list.engineData = d;
        list.forEach(function (f) { f.parsed = V.entry(f.entry); });
        return list;
      });
    }
    return getJSON(bar.getAttribute("data-src")).then(function (d) {
      return rows(d).map(function (f) {
        return { id: f.id, group: d.groups[f.group], status: d.statuses[f.status] };
      });
    });
  }

  // ------------------------------------------------------------ the bar

  // The link of `value` in the filter row `key` (values come from the
  // address, so they are compared, never put into a selector).
  function option(key, value) {
    var links = bar.querySelectorAll('[data-filter="' + key + '"] a[data-value]');
    for (var i = 0; i < links.length; i++) {
      if (links[i].getAttribute("data-value") === value) return links[i];
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

  // The version chips of the chosen engine, each a link to its page.
  function versionChips(d) {
    versionList.textContent = "";
    versionList.setAttribute("data-engine", state.engine);
    versionList.setAttribute("aria-label", engineName(state.engine) + " versions");
    if (!d) return;
    d.versions.forEach(function (v) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.className = "filter-chip";
      a.href = new URL(v.url, siteRoot).href;
      a.setAttribute("data-value", v.v);
      a.textContent = v.v;
      li.appendChild(a);
      versionList.appendChild(li);
    });
  }

  function mark() {
    KEYS.forEach(function (k) {
      var links = bar.querySelectorAll('[data-filter="' + k + '"] a[data-value]');
      Array.prototype.forEach.call(links, function (a) {
        if (a.getAttribute("data-value") === state[k]) a.setAttribute("aria-current", "true");
        else a.removeAttribute("aria-current");
      });
    });
    hint.hidden = !!state.engine;
    typed.hidden = !state.engine;
    versionList.hidden = !state.engine;
    var listed = !!versionList.querySelector('a[aria-current="true"]');
    if (document.activeElement !== typedInput) typedInput.value = state.version && !listed ? state.version : "";
  }

  // ------------------------------------------------------------ cards

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // A card for finding `f` (its f/<id>.json), as the site's cards look.
  function card(f) {
    var a = el("article", "card card-" + f.status + " card-fetched");
    a.setAttribute("data-id", String(f.id));
    a.setAttribute("data-status", f.status);
    a.setAttribute("data-group", f.group);
    a.setAttribute("data-engines", f.engines.map(function (e) { return e.engine + " "; }).join(""));
    var h = el("h3", "card-title");
    var link = el("a");
    link.href = new URL("findings/" + f.slug + "/", siteRoot).href;
    link.appendChild(el("span", "fid", "F" + f.id));
    link.appendChild(document.createTextNode(" " + f.title_text));
    h.appendChild(link);
    a.appendChild(h);
    var meta = el("p", "card-meta");
    meta.appendChild(el("span", "advice", f.advice));
    meta.appendChild(document.createTextNode(" "));
    meta.appendChild(el("span", "status status-" + f.status, f.status));
    if (f.status_note) {
      meta.appendChild(document.createTextNode(" "));
      meta.appendChild(el("span", "status-note", f.status_note));
    }
    a.appendChild(meta);
    if (f.summary_text) a.appendChild(el("p", "summary", f.summary_text));
    return a;
  }

  function stateChip(c, st) {
    var old = c.querySelector(".card-state");
    if (old) old.parentNode.removeChild(old);
    if (!st) return;
    var p = el("p", "card-state");
    p.appendChild(el("span", "state-chip state-" + st + (V.isTested(st) ? " tested" : " inferred"), V.LABELS[st]));
    p.appendChild(document.createTextNode(" on " + engineName(state.engine) + " " + state.version));
    var meta = c.querySelector(".card-meta");
    meta.parentNode.insertBefore(p, meta.nextSibling);
  }

  // Shows `matches` (findings of group `g`, best first) in its section: the
  // cards already there, and the others fetched, STEP at a time.
  function fill(section, matches, states, run) {
    var list = section.querySelector(".card-list");
    var have = {};
    Array.prototype.forEach.call(list.querySelectorAll("article.card"), function (c) {
      have[c.getAttribute("data-id")] = c;
      c.hidden = true;
    });
    var more = section.querySelector(".filter-more-button");
    if (more) more.parentNode.removeChild(more);
    var showing = 0;
    function next() {
      var batch = matches.slice(showing, showing + Math.max(STEP, 1));
      showing += batch.length;
      var wanted = batch.filter(function (f) { return !have[String(f.id)]; });
      return Promise.all(wanted.map(function (f) {
        return getJSON(new URL("f/" + f.id + ".json", siteRoot).href).then(function (d) { return d.finding; });
      })).then(function (found) {
        if (run !== runs) return;
        found.forEach(function (f) {
          var c = card(f);
          have[String(f.id)] = c;
          list.appendChild(c);
        });
        batch.forEach(function (f) {
          var c = have[String(f.id)];
          c.hidden = false;
          list.appendChild(c);
          stateChip(c, states[f.id] || null);
        });
        var old = section.querySelector(".filter-more-button");
        if (old) old.parentNode.removeChild(old);
        if (showing < matches.length) {
          var b = el("button", "filter-more-button filter-clear", "Show more (" + (matches.length - showing) + " left)");
          b.type = "button";
          b.addEventListener("click", function () { b.disabled = true; next(); });
          list.parentNode.insertBefore(b, list.nextSibling);
        }
      });
    }
    return next();
  }

  // ------------------------------------------------------------ filtering

  var runs = 0;

  function unfiltered() {
    groups.forEach(function (g) {
      g.hidden = false;
      Array.prototype.forEach.call(g.querySelectorAll("article.card"), function (c) {
        if (c.classList.contains("card-fetched")) c.parentNode.removeChild(c);
        else {
          c.hidden = false;
          stateChip(c, null);
        }
      });
      var more = g.querySelector(".filter-more-button");
      if (more) more.parentNode.removeChild(more);
      var link = g.querySelector(".group-more");
      if (link) link.hidden = false;
    });
    summary.hidden = true;
    empty.hidden = true;
    summary.textContent = "";
  }

  // While a filter is being applied the bar says so in data-state
  // ("loading", then "ready"), for tests and styles.
  function apply() {
    var run = ++runs;
    bar.setAttribute("data-state", "loading");
    var version = null;
    typedError.textContent = "";
    if (state.engine && state.version) {
      version = V.parse(state.version);
      if (!V.isVersion(version)) {
        typedError.textContent = version.message;
        version = null;
      }
    }
    var active = KEYS.some(function (k) { return state[k]; });
    if (!active) {
      versionChips(null);
      mark();
      unfiltered();
      bar.setAttribute("data-state", "ready");
      return Promise.resolve();
    }
    summary.hidden = false;
    summary.textContent = "Filtering…";
    return candidates().then(function (list) {
      if (run !== runs) return;
      versionChips(list.engineData || null);
      mark();
      var counts = { affected: 0, "in-range": 0, seen: 0, mitigated: 0, fixed: 0, clean: 0, unknown: 0 };
      var states = {};
      var matches = list.filter(function (f) {
        if (state.group && f.group !== state.group) return false;
        if (state.status && f.status !== state.status) return false;
        if (version) {
          var st = V.stateOf(f.parsed, version);
          counts[st]++;
          states[f.id] = st;
          return st === "affected" || st === "in-range";
        }
        return true;
      });
      var shown = [];
      groups.forEach(function (g) {
        var mine = matches.filter(function (f) { return f.group === g.id; });
        g.hidden = mine.length === 0;
        var link = g.querySelector(".group-more");
        if (link) link.hidden = true;
        shown.push(fill(g, mine, states, run));
      });
      report(matches.length, version, counts);
      return Promise.all(shown);
    }).catch(function (e) {
      if (run !== runs) return;
      summary.hidden = false;
      summary.textContent = "The filter could not be applied (" + e.message + "). The engine, group and status pages list the same findings.";
    }).then(function () {
      if (run === runs) bar.setAttribute("data-state", "ready");
    });
  }

  function report(n, version, counts) {
    var total = Number(bar.getAttribute("data-total")) || 0;
    empty.hidden = n > 0;
    summary.textContent = "";
    var text;
    if (version) {
      text = n + " of " + total + " findings concern " + engineName(state.engine) + " " + state.version +
        ": " + counts.affected + " affected (tested), " + counts["in-range"] + " in range (untested).";
      var rest = [];
      ["seen", "mitigated", "fixed", "clean"].forEach(function (s) {
        if (counts[s]) rest.push(counts[s] + " " + (s === "seen" ? "seen but not in the engine" : s));
      });
      text += rest.length ? " Not shown: " + rest.join(", ") + ". " : " ";
    } else {
      text = "Showing " + n + " of " + total + " findings. ";
    }
    summary.appendChild(document.createTextNode(text));
    var page = version && option("version", state.version);
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

  function set(change) {
    Object.keys(change).forEach(function (k) { state[k] = change[k]; });
    if (!state.engine) state.version = "";
    write();
    mark();
    return apply();
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
