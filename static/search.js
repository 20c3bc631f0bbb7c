// findings: the search page. Fetches search-index.json (written by the
// build, see src/search.rs) once and searches it as you type. No library,
// nothing from another site. Under node the matching functions are a
// CommonJS module, for tests; in a page they drive the search form.
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.FindingsSearch = api;
    api.start(root);
  }
})(this, function () {
  "use strict";

  var SCHEMA_VERSION = 1;
  var LIMIT = 50;

  // Query words that match almost everything; ignored unless nothing else is typed.
  var STOP = ("a about after all also an and any are as at be been before both but by can could did do " +
    "does each either for from had has have how if in into is it its may more most much no nor not of on " +
    "one only or other our out over same so some such than that the their them then there these they this " +
    "those through to too two under until up us was we were what when where which while who why will with " +
    "would you your").split(" ");

  // Where a word scores, by field: [field, score, bonus when it starts a word].
  var WEIGHTS = [["title", 10, 4], ["advice", 6, 2], ["terms", 5, 2], ["summary", 3, 1], ["body", 1, 0]];

  // The words of a query: lowercased, split on spaces and punctuation, but
  // dots and dashes inside a word kept (0.32.0, max-model-len).
  function words(query) {
    var out = [];
    String(query).toLowerCase().split(/[^\w.+\-/\u00c0-\uffff]+/).forEach(function (w) {
      w = w.replace(/^[^\w\u00c0-\uffff]+|[^\w\u00c0-\uffff]+$/g, "");
      if (w !== "" && out.indexOf(w) < 0) out.push(w);
    });
    // Stop words and single letters match almost everything: ignore them
    // unless nothing else was typed.
    var kept = out.filter(function (w) { return STOP.indexOf(w) < 0 && !/^[a-z]$/.test(w); });
    return kept.length > 0 ? kept : out;
  }

  // The index as a list of items, each field also lowercased for matching.
  function prepare(index) {
    if (!index || index.schema_version !== SCHEMA_VERSION) {
      throw new Error("unknown search index version");
    }
    var f = index.fields;
    return index.items.map(function (row) {
      var item = { lower: {} };
      for (var k = 0; k < f.length; k++) item[f[k]] = row[k];
      WEIGHTS.forEach(function (w) { item.lower[w[0]] = String(item[w[0]] || "").toLowerCase(); });
      return item;
    });
  }

  // A word without a common English ending, so that "cache" also finds
  // "caching" and "crashes" finds "crashed"; null when nothing is cut.
  function stem(w) {
    if (w.length < 5 || /\d/.test(w)) return null;
    var m = /^(.{4,}?)(ing|ed|es|s|e)$/.exec(w);
    return m ? m[1] : null;
  }

  function startsWord(s, i) {
    return i === 0 || !/[a-z0-9\u00c0-\uffff]/.test(s.charAt(i - 1));
  }

  // Where `w` occurs in `s`: 0 nowhere, 1 inside a word, 2 at a word's start.
  function find(s, w) {
    var i = s.indexOf(w);
    if (i < 0) return 0;
    while (i >= 0) {
      if (startsWord(s, i)) return 2;
      i = s.indexOf(w, i + 1);
    }
    return 1;
  }

  // How well `item` matches all `ws`; 0 when a word matches nowhere. A word
  // found only through its stem counts for less.
  function score(item, ws, phrase) {
    var total = 0;
    for (var k = 0; k < ws.length; k++) {
      var w = ws[k];
      var st = stem(w);
      var best = 0;
      var also = 0;
      var num = /^f?(\d+)$/.exec(w);
      if (num && Number(num[1]) === item.id) best = 100;
      for (var j = 0; j < WEIGHTS.length; j++) {
        var s = item.lower[WEIGHTS[j][0]];
        var where = find(s, w);
        var factor = 1;
        if (where === 0 && st) {
          where = find(s, st);
          factor = 0.7;
        }
        if (where === 0) continue;
        var v = (WEIGHTS[j][1] + (where === 2 ? WEIGHTS[j][2] : 0)) * factor;
        if (v > best) { if (best > 0) also++; best = v; } else also++;
      }
      if (best === 0) return 0;
      total += best + also * 0.5;
    }
    if (phrase && ws.length > 1 && item.lower.title.indexOf(phrase) >= 0) total += 8;
    return total;
  }

  // The items matching `query`, best first (then by number).
  function search(items, query) {
    var ws = words(query);
    if (ws.length === 0) return [];
    var phrase = String(query).toLowerCase().replace(/\s+/g, " ").trim();
    var hits = [];
    items.forEach(function (item) {
      var s = score(item, ws, phrase);
      if (s > 0) hits.push({ item: item, score: s });
    });
    hits.sort(function (a, b) { return b.score - a.score || a.item.id - b.item.id; });
    return hits;
  }

  // ---------------------------------------------------------------- page

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // `text` into `parent`, the places where `ws` occur wrapped in <mark>.
  function highlight(parent, text, ws) {
    var lower = text.toLowerCase();
    var ranges = [];
    if (lower.length === text.length) {
      var all = ws.slice();
      ws.forEach(function (w) { var st = stem(w); if (st) all.push(st); });
      all.forEach(function (w) {
        var i = lower.indexOf(w);
        while (i >= 0 && w.length > 0) {
          ranges.push([i, i + w.length]);
          i = lower.indexOf(w, i + w.length);
        }
      });
    }
    ranges.sort(function (a, b) { return a[0] - b[0]; });
    var at = 0;
    ranges.forEach(function (r) {
      if (r[1] <= at) return;
      var from = Math.max(r[0], at);
      if (from > at) parent.appendChild(document.createTextNode(text.slice(at, from)));
      parent.appendChild(el("mark", "", text.slice(from, r[1])));
      at = r[1];
    });
    if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
  }

  function start(win) {
    var doc = win.document;
    var input = doc.getElementById("search-q");
    var list = doc.getElementById("search-results");
    var status = doc.getElementById("search-status");
    var form = doc.getElementById("search-form");
    if (!input || !list || !status) return;
    var script = doc.currentScript || doc.querySelector("script[src$='search.js']");
    var siteRoot = new URL(".", script ? script.src : win.location.href);
    var items = null;
    var active = -1;
    var shown = [];

    var help = doc.getElementById("search-help");
    if (help) help.hidden = false;
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", "search-results");
    input.setAttribute("aria-expanded", "false");

    function say(text) { status.textContent = text; }

    function setActive(k) {
      if (active >= 0 && shown[active]) shown[active].setAttribute("aria-selected", "false");
      active = k;
      if (active >= 0 && shown[active]) {
        shown[active].setAttribute("aria-selected", "true");
        input.setAttribute("aria-activedescendant", shown[active].id);
        if (shown[active].scrollIntoView) shown[active].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function remember(q) {
      if (!win.history || !win.history.replaceState) return;
      var url = new URL(win.location.href);
      if (q) url.searchParams.set("q", q); else url.searchParams.delete("q");
      win.history.replaceState(null, "", url.pathname + url.search + url.hash);
    }

    function render() {
      var q = input.value;
      list.textContent = "";
      shown = [];
      setActive(-1);
      if (items === null) return;
      var hits = search(items, q);
      var ws = words(q);
      hits.slice(0, LIMIT).forEach(function (h, k) {
        var it = h.item;
        var li = el("li", "search-result");
        li.id = "search-result-" + it.id;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        var a = el("a", "search-result-link");
        a.href = new URL(it.url, siteRoot).href;
        a.tabIndex = -1;
        a.appendChild(el("span", "fid", "F" + it.id));
        a.appendChild(doc.createTextNode(" "));
        var title = el("span", "search-result-title");
        highlight(title, it.title, ws);
        a.appendChild(title);
        li.appendChild(a);
        var meta = el("p", "card-meta");
        var advice = el("span", "advice");
        highlight(advice, it.advice, ws);
        meta.appendChild(advice);
        meta.appendChild(doc.createTextNode(" "));
        meta.appendChild(el("span", "status status-" + it.status, it.status));
        li.appendChild(meta);
        if (it.summary) li.appendChild(el("p", "search-result-summary", it.summary));
        li.addEventListener("mousemove", function () { if (active !== k) setActive(k); });
        list.appendChild(li);
        shown.push(li);
      });
      list.hidden = shown.length === 0;
      input.setAttribute("aria-expanded", shown.length > 0 ? "true" : "false");
      if (ws.length === 0) {
        say("Type to search " + items.length + " finding" + (items.length === 1 ? "" : "s") + ".");
      } else if (hits.length === 0) {
        say("No finding matches \u201c" + q.trim() + "\u201d.");
      } else {
        say(hits.length + " finding" + (hits.length === 1 ? " matches" : "s match") + " \u201c" + q.trim() + "\u201d" +
          (hits.length > LIMIT ? "; the best " + LIMIT + " are shown." : "."));
      }
    }

    input.addEventListener("input", function () {
      render();
      remember(input.value.trim());
    });

    input.addEventListener("keydown", function (ev) {
      if (ev.key === "ArrowDown" || ev.key === "Down") {
        if (shown.length > 0) setActive(Math.min(active + 1, shown.length - 1));
        ev.preventDefault();
      } else if (ev.key === "ArrowUp" || ev.key === "Up") {
        if (shown.length > 0) setActive(Math.max(active - 1, -1));
        ev.preventDefault();
      } else if (ev.key === "Home" && active >= 0) {
        setActive(0);
        ev.preventDefault();
      } else if (ev.key === "End" && active >= 0) {
        setActive(shown.length - 1);
        ev.preventDefault();
      } else if (ev.key === "Enter") {
        ev.preventDefault();
        var k = active >= 0 ? active : (shown.length === 1 ? 0 : -1);
        if (k >= 0) win.location.href = shown[k].querySelector("a").href;
      } else if (ev.key === "Escape" || ev.key === "Esc") {
        if (active >= 0) {
          setActive(-1);
        } else if (input.value !== "") {
          input.value = "";
          render();
          remember("");
        }
        ev.preventDefault();
      }
    });

    if (form) form.addEventListener("submit", function (ev) { ev.preventDefault(); });

    var q = new URL(win.location.href).searchParams.get("q");
    if (q) input.value = q;
    input.focus();
    say("Loading the search index\u2026");

    var indexUrl = new URL("search-index.json", siteRoot).href;
    var loaded = typeof win.fetch === "function"
      ? win.fetch(indexUrl).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      })
      : Promise.reject(new Error("this browser has no fetch"));
    loaded.then(function (index) {
      items = prepare(index);
      render();
    }, function (err) {
      if (win.location.protocol === "file:") {
        say("Search cannot read its index from a page opened from disk. Serve the site folder over HTTP " +
          "(for example: python3 -m http.server -d public) and open it from there.");
      } else {
        say("The search index could not be loaded (" + err.message + "). Browse by engine, group, tag or model instead.");
      }
    });
  }

  return { words: words, stem: stem, prepare: prepare, search: search, start: start, LIMIT: LIMIT };
});
