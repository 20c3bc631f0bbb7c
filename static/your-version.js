// findings: "Your version" on an engine page.
//
// The reader types any version of the engine, listed or not, and sees each
// finding's state for it, worked out here by static/versions.js: the same
// ordering and state rules as the build (src/version.rs, src/state.rs),
// tested against the same table of cases. What it needs, the engine's known
// versions and every finding's entry for it (not only the findings on this
// page of the matrix), it fetches once, when the reader first types, from
// the file the box names in data-src (engines/<id>/findings.json). The
// version typed is kept in the address (?v=0.31).
(function () {
  "use strict";
  var V = window.FindingsVersions;
  var box = document.getElementById("your-version");
  if (!box || !V || !window.fetch || !box.getAttribute("data-src")) return;
  var SCHEMA_VERSION = 1;
  var data = null;
  var loading = null;
  var input = document.getElementById("your-version-input");
  var status = document.getElementById("your-version-status");
  var result = document.getElementById("your-version-result");
  var form = box.querySelector("form");
  var script = document.currentScript || document.querySelector("script[src$='your-version.js']");
  var siteRoot = new URL(".", script ? script.src : window.location.href);
  var name = "";
  var known = [];
  var findings = [];

  // The engine's data, fetched once; rows become objects by `fields`.
  function load() {
    if (!loading) {
      loading = fetch(box.getAttribute("data-src"))
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.json();
        })
        .then(function (d) {
          if (d.schema_version !== SCHEMA_VERSION) throw new Error("unknown data version");
          name = d.engine.name;
          known = d.versions.map(function (k) { return { v: V.parse(k.v), text: k.v, url: k.url }; });
          findings = d.findings.map(function (row) {
            var f = {};
            d.fields.forEach(function (k, i) { f[k] = row[i]; });
            f.url = "findings/" + f.slug + "/";
            return { f: f, entry: V.entry(f.entry) };
          });
          data = d;
        });
    }
    return loading;
  }

  var TITLES = {
    affected: "Affected",
    "in-range": "In range, untested",
    seen: "Seen, not in the engine",
    mitigated: "Mitigated",
    fixed: "Fixed before this version",
    clean: "Clean",
    unknown: "No data"
  };
  var BLURBS = {
    affected: "Tested on this version, and the problem showed.",
    "in-range": "Not tested on this version, but it lies inside the range the problem is known to span. Watch for it.",
    seen: "The problem showed while this version ran, but it lies elsewhere: a grader, a client, a chat template or a way of measuring.",
    mitigated: "The defaults of this version avoid the problem; it may remain behind a flag.",
    fixed: "Fixed in this version or an earlier release.",
    clean: "Tested on this version, and the problem did not show.",
    unknown: "The finding says nothing about this version."
  };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function link(url, text) {
    var a = el("a", "", text);
    a.href = new URL(url, siteRoot).href;
    return a;
  }

  function chip(state, text) {
    return el("span", "state-chip state-" + state + (V.isTested(state) ? " tested" : " inferred"), text);
  }

  // Where `v` sits among the known versions: equal to one, or between two.
  function place(v) {
    var below = null;
    var above = null;
    for (var i = 0; i < known.length; i++) {
      var c = V.compare(known[i].v, v);
      if (c === 0) return { same: known[i] };
      if (c < 0) below = known[i];
      if (c > 0 && above === null) above = known[i];
    }
    return { below: below, above: above };
  }

  function show(text) {
    result.textContent = "";
    status.textContent = "";
    box.classList.remove("has-result");
    if (text === "") return;
    var v = V.parse(text);
    if (!V.isVersion(v)) {
      status.className = "your-version-status";
      status.textContent = v.message + ".";
      return;
    }
    // The counts are shown as chips; the sentence is for screen readers.
    status.className = "your-version-status visually-hidden";
    box.classList.add("has-result");
    var p = place(v);
    var where = el("p", "your-version-place");
    if (p.same) {
      where.appendChild(document.createTextNode(name + " " + text + " is a listed version" +
        (p.same.text !== text ? " (written " + p.same.text + " here)" : "") + ": "));
      where.appendChild(link(p.same.url, "its page"));
      where.appendChild(document.createTextNode(" says the same."));
    } else if (p.below && p.above) {
      where.appendChild(document.createTextNode(name + " " + text + " is not a listed version; it sits between "));
      where.appendChild(link(p.below.url, p.below.text));
      where.appendChild(document.createTextNode(" and "));
      where.appendChild(link(p.above.url, p.above.text));
      where.appendChild(document.createTextNode("."));
    } else if (p.below) {
      where.appendChild(document.createTextNode(name + " " + text + " is newer than every listed version (the newest is "));
      where.appendChild(link(p.below.url, p.below.text));
      where.appendChild(document.createTextNode(")."));
    } else if (p.above) {
      where.appendChild(document.createTextNode(name + " " + text + " is older than every listed version (the oldest is "));
      where.appendChild(link(p.above.url, p.above.text));
      where.appendChild(document.createTextNode(")."));
    } else {
      where.textContent = "No " + name + " version is listed yet.";
    }
    result.appendChild(where);

    var by = {};
    V.ORDER.forEach(function (s) { by[s] = []; });
    findings.forEach(function (x) { by[V.stateOf(x.entry, v)].push(x.f); });

    var counts = el("ul", "version-summary");
    counts.setAttribute("aria-label", "Summary");
    V.ORDER.forEach(function (s) {
      var li = el("li");
      li.appendChild(chip(s, String(by[s].length)));
      li.appendChild(document.createTextNode(" " + TITLES[s]));
      counts.appendChild(li);
    });
    result.appendChild(counts);
    status.textContent = by.affected.length + " affected, " + by["in-range"].length + " in range, " +
      by.seen.length + " seen but not in the engine, " + by.mitigated.length + " mitigated, " + by.fixed.length + " fixed, " + by.clean.length + " clean on " +
      name + " " + text + ".";

    V.ORDER.forEach(function (s) {
      if (by[s].length === 0) return;
      var sec = el("section", "your-version-section section-" + s);
      var h = el("h3");
      h.appendChild(chip(s, String(by[s].length)));
      h.appendChild(document.createTextNode(" " + TITLES[s]));
      sec.appendChild(h);
      sec.appendChild(el("p", "muted section-blurb", BLURBS[s]));
      var ul = el("ul", "your-version-list");
      by[s].forEach(function (f) {
        var li = el("li");
        var a = link(f.url, "");
        a.appendChild(el("span", "fid", "F" + f.id));
        a.appendChild(document.createTextNode(" " + f.title));
        li.appendChild(a);
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("span", "status status-" + f.status, f.status));
        if (f.note) li.appendChild(el("span", "note", f.note));
        ul.appendChild(li);
      });
      sec.appendChild(ul);
      result.appendChild(sec);
    });
  }

  function remember(text) {
    if (!window.history || !window.history.replaceState) return;
    var url = new URL(window.location.href);
    if (text) url.searchParams.set("v", text); else url.searchParams.delete("v");
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  }

  // Shows the state of every finding at the version typed, once the data is
  // in; the last text typed wins.
  function update() {
    var t = input.value.trim();
    remember(t);
    if (t === "") {
      show("");
      return;
    }
    if (data) {
      show(t);
      return;
    }
    status.className = "your-version-status";
    status.textContent = "Loading the " + box.getAttribute("data-name") + " findings…";
    load().then(function () {
      if (input.value.trim() === t) show(t);
    }, function (e) {
      status.className = "your-version-status";
      status.textContent = "The findings could not be loaded (" + e.message + "). The version pages listed in the matrix say the same, one version at a time.";
    });
  }

  input.addEventListener("input", update);
  input.addEventListener("focus", function () { load().catch(function () {}); });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); });

  box.hidden = false;
  var start = new URL(window.location.href).searchParams.get("v");
  if (start) {
    input.value = start;
    update();
  }
})();
