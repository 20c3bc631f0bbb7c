// findings: "Your version" on an engine page.
//
// The reader types any version of the engine, listed or not, and sees each
// finding's state for it, worked out here by static/versions.js: the same
// ordering and state rules as the build (src/version.rs, src/state.rs),
// tested against the same table of cases. The page embeds what it needs in
// <script id="engine-data">: the engine's known versions and each finding's
// entry for it. The version typed is kept in the address (?v=0.31).
(function () {
  "use strict";
  var V = window.FindingsVersions;
  var box = document.getElementById("your-version");
  var dataEl = document.getElementById("engine-data");
  if (!box || !dataEl || !V) return;
  var data;
  try {
    data = JSON.parse(dataEl.textContent);
  } catch (e) {
    return;
  }
  var input = document.getElementById("your-version-input");
  var status = document.getElementById("your-version-status");
  var result = document.getElementById("your-version-result");
  var form = box.querySelector("form");
  var script = document.currentScript || document.querySelector("script[src$='your-version.js']");
  var siteRoot = new URL(".", script ? script.src : window.location.href);
  var name = data.engine.name;

  var known = data.versions.map(function (k) { return { v: V.parse(k.v), text: k.v, url: k.url }; });
  var findings = data.findings.map(function (f) {
    return { f: f, entry: V.entry(f.entry) };
  });

  var TITLES = {
    affected: "Affected",
    "in-range": "In range, untested",
    mitigated: "Mitigated",
    fixed: "Fixed before this version",
    clean: "Clean",
    unknown: "No data"
  };
  var BLURBS = {
    affected: "Tested on this version, and the problem showed.",
    "in-range": "Not tested on this version, but it lies inside the range the problem is known to span. Watch for it.",
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
      by.mitigated.length + " mitigated, " + by.fixed.length + " fixed, " + by.clean.length + " clean on " +
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
        li.appendChild(el("span", "advice", f.advice));
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

  input.addEventListener("input", function () {
    var t = input.value.trim();
    show(t);
    remember(t);
  });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); });

  box.hidden = false;
  var start = new URL(window.location.href).searchParams.get("v");
  if (start) {
    input.value = start;
    show(start.trim());
  }
})();
