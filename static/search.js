// findings: the search page. Searches the index the build writes (see
// src/outputs/search.rs) as you type, fetching only what a query needs: a
// small manifest, one shard of the index per word typed, and the JSON file
// of each finding shown. No library, nothing from another site. Under node
// the search functions are a CommonJS module, for tests; in a page they
// drive the search form.
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

  var SCHEMA_VERSION = 3;
  // Results shown at first, and added by each "Show more".
  var LIMIT = 20;
  // Runs and workloads shown at first, and added by each "Show more".
  var DOCS_LIMIT = 10;
  // Letters of a shard key before any split (KEY_CHARS in the build).
  var KEY_CHARS = 2;

  // Query words that match almost everything; ignored unless nothing else is typed.
  var STOP = ("a about after all also an and any are as at be been before both but by can could did do " +
    "does each either for from had has have how if in into is it its may more most much no nor not of on " +
    "one only or other our out over same so some such than that the their them then there these they this " +
    "those through to too two under until up us was we were what when where which while who why will with " +
    "would you your").split(" ");

  // The score of a word by the field it is found in, in the index's field
  // order (title, advice, terms, summary, body). Every indexed word starts a
  // word of its field, so each score includes the bonus for that.
  var WEIGHTS = { title: 14, advice: 8, terms: 7, summary: 4, body: 1 };

  // The words of a query as the build cuts text into words: lowercased,
  // runs of letters, digits and . - _ + /, trimmed to start and end with a
  // letter or digit (so 0.32.0 and max-model-len stay whole).
  function words(query) {
    var out = [];
    String(query).toLowerCase().split(/[^\p{L}\p{N}._+/-]+/u).forEach(function (w) {
      w = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
      if (w !== "" && out.indexOf(w) < 0) out.push(w);
    });
    // Stop words and single letters match almost everything: ignore them
    // unless nothing else was typed.
    var kept = out.filter(function (w) { return STOP.indexOf(w) < 0 && !/^[a-z]$/.test(w); });
    return kept.length > 0 ? kept : out;
  }

  // A word without a common English ending, so that "cache" also finds
  // "caching" and "crashes" finds "crashed"; null when nothing is cut.
  function stem(w) {
    if (w.length < 5 || /\d/.test(w)) return null;
    var m = /^(.{4,}?)(ing|ed|es|s|e)$/.exec(w);
    return m ? m[1] : null;
  }

  // The first `n` characters of `w` (not UTF-16 units).
  function prefix(w, n) {
    return Array.from(w).slice(0, n).join("");
  }

  function hex(s) {
    var out = "";
    new TextEncoder().encode(s).forEach(function (b) { out += (b < 16 ? "0" : "") + b.toString(16); });
    return out;
  }

  // The numbers of a word in a shard, written in base64's URL-safe
  // letters, five bits a letter, lowest first, each letter but a number's
  // last with its sixth bit set (src/outputs/search.rs, push_number).
  var LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var VALUE = {};
  Array.from(LETTERS).forEach(function (c, k) { VALUE[c] = k; });
  function postings(s) {
    var out = [];
    var n = 0;
    var scale = 1;
    for (var i = 0; i < s.length; i++) {
      var d = VALUE[s.charAt(i)];
      n += (d & 31) * scale;
      if (d & 32) {
        scale *= 32;
      } else {
        out.push(n);
        n = 0;
        scale = 1;
      }
    }
    return out;
  }

  // The shard keys of a manifest's `keys`, a trie in one string: each
  // letter extends the key it stands in; `~` after it, that key has no
  // shard; `{...}` after it, the keys one letter longer (it was split).
  function trie(s) {
    var keys = Object.create(null);
    var split = Object.create(null);
    var at = [""];
    var last = "";
    Array.from(s).forEach(function (c) {
      if (c === "{") {
        split[last] = true;
        at.push(last);
      } else if (c === "}") {
        at.pop();
      } else if (c === "~") {
        delete keys[last];
      } else {
        last = at[at.length - 1] + c;
        keys[last] = true;
      }
    });
    return { keys: keys, split: split };
  }

  // The search of one index (the findings', or the runs' and workloads'):
  // `spec` its manifest's keys and shard folder; `fieldNames`
  // the fields its numbers' bits stand for; `numbers` whether a number
  // typed finds the finding of that number.
  function indexOf(spec, fieldNames, load, numbers) {
    var t = trie(spec.keys);
    var split = t.split;
    var keys = t.keys;
    var shards = {};

    // The key of the shard that holds the words starting with `w`.
    function keyOf(w) {
      var n = Math.min(KEY_CHARS, Array.from(w).length);
      var k = prefix(w, n);
      while (split[k] && Array.from(w).length > n) {
        n++;
        k = prefix(w, n);
      }
      return k;
    }

    // The shard with key `k`; no word of any entry has a key that is not
    // in the manifest, so nothing is fetched for it.
    function shard(k) {
      if (!keys[k]) return Promise.resolve({});
      if (!shards[k]) shards[k] = load(spec.shards + hex(k) + ".json");
      return shards[k];
    }

    // Per entry id, the fields where a word starting with `w` occurs.
    function fields(w) {
      var k = keyOf(w);
      return shard(k).then(function (s) {
        var found = {};
        Object.keys(s).forEach(function (x) {
          if (x.lastIndexOf(w, 0) !== 0) return;
          var id = 0;
          postings(s[x]).forEach(function (n) {
            id += Math.floor(n / 32) + 1;
            found[id] = (found[id] || 0) | (n % 32);
          });
        });
        return found;
      });
    }

    // How well each entry matches one query word: the best field's score
    // and half a point for each other field; a word found only through its
    // stem counts for less; a number finds its finding.
    function scores(w) {
      var st = stem(w);
      return Promise.all([fields(w), st ? fields(st) : Promise.resolve({})]).then(function (r) {
        var out = {};
        function add(found, factor) {
          Object.keys(found).forEach(function (id) {
            var bits = found[id];
            var best = 0;
            var count = 0;
            fieldNames.forEach(function (f, b) {
              if (bits & (1 << b)) {
                count++;
                best = Math.max(best, WEIGHTS[f] || 1);
              }
            });
            var v = (best + (count - 1) * 0.5) * factor;
            if (!(out[id] >= v)) out[id] = v;
          });
        }
        add(r[1], 0.7);
        add(r[0], 1);
        var num = numbers ? /^f?(\d+)$/.exec(w) : null;
        if (num) out[Number(num[1])] = Math.max(out[Number(num[1])] || 0, 100);
        return out;
      });
    }

    // The entries matching every word of `query`, best first (then by
    // number): [{id, score}].
    return function search(query) {
      var ws = words(query);
      if (ws.length === 0) return Promise.resolve([]);
      return Promise.all(ws.map(scores)).then(function (per) {
        var total = {};
        Object.keys(per[0]).forEach(function (id) {
          var s = 0;
          for (var k = 0; k < per.length; k++) {
            if (!(per[k][id] > 0)) return;
            s += per[k][id];
          }
          total[id] = s;
        });
        var hits = Object.keys(total).map(function (id) { return { id: Number(id), score: total[id] }; });
        hits.sort(function (a, b) { return b.score - a.score || a.id - b.id; });
        return hits;
      });
    };
  }

  // An index read through `load(path)`, a function that returns a promise of
  // the parsed JSON file at `path` (relative to the site root): the
  // findings' search, and where the site has runs or workloads, theirs
  // (`docs`, whose `entry(id)` gives [kind, title, path, line]).
  function open(load) {
    return load("search-index.json").then(function (m) {
      if (!m || m.schema_version !== SCHEMA_VERSION) throw new Error("unknown search index version");
      var out = { count: m.count, search: indexOf(m, m.fields, load, true), docs: null };
      if (m.docs) {
        var d = m.docs;
        out.docs = {
          count: d.count,
          search: indexOf(d, m.fields, load, false),
          entry: function (id) {
            var k = id - 1;
            return load(d.entries + Math.floor(k / d.per) + ".json").then(function (rows) {
              return rows[k % d.per] || null;
            });
          }
        };
      }
      return out;
    });
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
    var docList = doc.getElementById("search-docs");
    var docHeading = doc.getElementById("search-docs-heading");
    var docMore = null;
    var form = doc.getElementById("search-form");
    if (!input || !list || !status) return;
    var script = doc.currentScript || doc.querySelector("script[src$='search.js']");
    var siteRoot = new URL(".", script ? script.src : win.location.href);
    var index = null;
    var active = -1;
    var shown = [];
    var more = null;
    var runs = 0;
    var files = {};

    function load(path) {
      if (!files[path]) {
        files[path] = win.fetch(new URL(path, siteRoot).href).then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status + " for " + path);
          return r.json();
        });
      }
      return files[path];
    }

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

    // One result, from its finding's JSON file.
    function item(f, ws) {
      var k = shown.length;
      var li = el("li", "search-result");
      li.id = "search-result-" + f.id;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      var a = el("a", "search-result-link");
      a.href = new URL("findings/" + f.slug + "/", siteRoot).href;
      a.tabIndex = -1;
      a.appendChild(el("span", "fid", "F" + f.id));
      a.appendChild(doc.createTextNode(" "));
      var title = el("span", "search-result-title");
      highlight(title, f.title_text, ws);
      a.appendChild(title);
      li.appendChild(a);
      var meta = el("p", "card-meta");
      var advice = el("span", "advice");
      highlight(advice, f.advice, ws);
      meta.appendChild(advice);
      meta.appendChild(doc.createTextNode(" "));
      meta.appendChild(el("span", "status status-" + f.status, f.status));
      li.appendChild(meta);
      if (f.summary_text) li.appendChild(el("p", "search-result-summary", f.summary_text));
      li.addEventListener("mousemove", function () { if (active !== k) setActive(k); });
      list.appendChild(li);
      shown.push(li);
    }

    // Shows hits[from..from+LIMIT], each from its finding's file (a
    // finding that left the lists since is skipped), then a "Show more".
    function page(hits, from, ws, run) {
      var batch = hits.slice(from, from + LIMIT);
      return Promise.all(batch.map(function (h) {
        return load("f/" + h.id + ".json").then(function (d) { return d.finding; }, function () { return null; });
      })).then(function (found) {
        if (run !== runs) return;
        found.forEach(function (f) { if (f && f.listed) item(f, ws); });
        list.hidden = shown.length === 0;
        input.setAttribute("aria-expanded", shown.length > 0 ? "true" : "false");
        if (more) more.parentNode.removeChild(more);
        more = null;
        var next = from + batch.length;
        if (next < hits.length) {
          more = el("button", "search-more filter-clear", "Show " + Math.min(LIMIT, hits.length - next) + " more");
          more.type = "button";
          more.addEventListener("click", function () {
            more.disabled = true;
            page(hits, next, ws, run);
          });
          list.parentNode.insertBefore(more, list.nextSibling);
        }
      });
    }

    // The runs and workloads of `hits[from..from+DOCS_LIMIT]`, each from
    // its chunk of entries, then a "Show more".
    function docPage(hits, from, ws, run) {
      var batch = hits.slice(from, from + DOCS_LIMIT);
      return Promise.all(batch.map(function (h) {
        return index.docs.entry(h.id).then(null, function () { return null; });
      })).then(function (found) {
        if (run !== runs) return;
        found.forEach(function (d) {
          if (!d) return;
          var li = el("li", "search-doc search-doc-" + d[0]);
          var a = el("a", "search-result-link");
          a.href = new URL(d[2], siteRoot).href;
          a.appendChild(el("span", "doc-kind", d[0] === "run" ? "Run" : "Workload"));
          a.appendChild(doc.createTextNode(" "));
          var title = el("span", "search-result-title");
          highlight(title, d[1], ws);
          a.appendChild(title);
          li.appendChild(a);
          if (d[3]) li.appendChild(el("p", "muted small search-doc-line", d[3]));
          docList.appendChild(li);
        });
        docList.hidden = docList.childNodes.length === 0;
        if (docHeading) docHeading.hidden = docList.hidden;
        if (docMore) docMore.parentNode.removeChild(docMore);
        docMore = null;
        var next = from + batch.length;
        if (next < hits.length) {
          docMore = el("button", "search-more filter-clear", "Show " + Math.min(DOCS_LIMIT, hits.length - next) + " more runs and workloads");
          docMore.type = "button";
          docMore.addEventListener("click", function () {
            docMore.disabled = true;
            docPage(hits, next, ws, run);
          });
          docList.parentNode.insertBefore(docMore, docList.nextSibling);
        }
      });
    }

    function clearDocs() {
      if (!docList) return;
      docList.textContent = "";
      docList.hidden = true;
      if (docHeading) docHeading.hidden = true;
      if (docMore) docMore.parentNode.removeChild(docMore);
      docMore = null;
    }

    function render() {
      var q = input.value;
      var run = ++runs;
      list.textContent = "";
      shown = [];
      setActive(-1);
      if (more) more.parentNode.removeChild(more);
      more = null;
      clearDocs();
      if (index === null) return Promise.resolve();
      var ws = words(q);
      var docs = index.docs && docList ? index.docs : null;
      if (ws.length === 0) {
        list.hidden = true;
        input.setAttribute("aria-expanded", "false");
        say("Type to search " + index.count + " finding" + (index.count === 1 ? "" : "s") +
          (docs ? " and " + docs.count + " run" + (docs.count === 1 ? "" : "s") + " and workloads" : "") + ".");
        return Promise.resolve();
      }
      var docHits = docs ? docs.search(q) : Promise.resolve([]);
      return Promise.all([index.search(q), docHits]).then(function (r) {
        if (run !== runs) return;
        var hits = r[0];
        var dh = r[1];
        var also = dh.length === 0 ? "" : " " + dh.length + " run" + (dh.length === 1 ? "" : "s") +
          " or workload" + (dh.length === 1 ? "" : "s") + (hits.length === 0 ? " do" + (dh.length === 1 ? "es" : "") : " too") + ", below.";
        var pages = [];
        if (hits.length === 0) {
          list.hidden = true;
          input.setAttribute("aria-expanded", "false");
          say("No finding matches \u201c" + q.trim() + "\u201d." + also);
        } else {
          say(hits.length + " finding" + (hits.length === 1 ? " matches" : "s match") + " \u201c" + q.trim() + "\u201d" +
            (hits.length > LIMIT ? "; the best " + LIMIT + " are shown first." : ".") + also);
          pages.push(page(hits, 0, ws, run));
        }
        if (dh.length > 0) pages.push(docPage(dh, 0, ws, run));
        return Promise.all(pages);
      }, function (err) {
        if (run === runs) say("The search index could not be read (" + err.message + ").");
      });
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

    var opened = typeof win.fetch === "function"
      ? open(load)
      : Promise.reject(new Error("this browser has no fetch"));
    opened.then(function (ix) {
      index = ix;
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

  return { words: words, stem: stem, trie: trie, postings: postings, open: open, start: start, LIMIT: LIMIT };
});
