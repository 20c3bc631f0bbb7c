// Runs the browser's version rules (static/versions.js) under node.
//
//   node tests/js/versions.js cases tests/version_cases.txt
//       checks the shared table of cases; prints each failure, then
//       "N passed, M failed"; exits 1 on any failure.
//   node tests/js/versions.js corpus INPUT.json
//       INPUT is {"versions": [...], "entries": [{affected, clean, ...}]};
//       prints {"parsed": [...], "states": [[...]]} for tests/outputs.rs to
//       compare with the Rust implementation: each version's parse result
//       (its rank among the valid ones, or the reason it is not a version)
//       and the state of every valid version under every entry.
"use strict";
var fs = require("fs");
var path = require("path");
var V = require(path.join(__dirname, "..", "..", "static", "versions.js"));

function parseLine(line) {
  var words = line.trim().split(/\s+/);
  return { op: words[0], args: words.slice(1) };
}

function runCases(file) {
  var lines = fs.readFileSync(file, "utf8").split("\n");
  var entries = {};
  var passed = 0;
  var failed = 0;
  function check(ok, lineNo, what) {
    if (ok) {
      passed++;
    } else {
      failed++;
      console.log(file + ":" + lineNo + ": " + what);
    }
  }
  function ver(text, lineNo) {
    var v = V.parse(text);
    if (!V.isVersion(v)) {
      check(false, lineNo, v.message);
      return null;
    }
    return v;
  }
  lines.forEach(function (raw, k) {
    var lineNo = k + 1;
    var line = raw.trim();
    if (line === "" || line.charAt(0) === "#") return;
    var l = parseLine(line);
    var a = l.args;
    var i, j;
    if (l.op === "valid") {
      a.forEach(function (t) { check(V.isVersion(V.parse(t)), lineNo, JSON.stringify(t) + " should parse"); });
    } else if (l.op === "order") {
      var vs = a.filter(function (w) { return w !== "<"; }).map(function (t) { return ver(t, lineNo); });
      for (i = 0; i < vs.length; i++) {
        for (j = i + 1; j < vs.length; j++) {
          if (vs[i] && vs[j]) {
            check(V.compare(vs[i], vs[j]) < 0 && V.compare(vs[j], vs[i]) > 0, lineNo, vs[i].raw + " < " + vs[j].raw);
          }
        }
      }
    } else if (l.op === "same") {
      var ss = a.map(function (t) { return ver(t, lineNo); });
      for (i = 0; i < ss.length; i++) {
        for (j = 0; j < ss.length; j++) {
          if (ss[i] && ss[j]) check(V.compare(ss[i], ss[j]) === 0, lineNo, ss[i].raw + " == " + ss[j].raw);
        }
      }
    } else if (l.op === "invalid") {
      var m = /^invalid\s+("(?:[^"\\]|\\.)*")\s*(.*)$/.exec(line);
      if (!m) { check(false, lineNo, "bad invalid line"); return; }
      var text = JSON.parse(m[1]);
      var r = V.parse(text);
      check(!V.isVersion(r) && r.reason === m[2], lineNo,
        JSON.stringify(text) + ": expected " + JSON.stringify(m[2]) + ", got " + (V.isVersion(r) ? "a version" : JSON.stringify(r.reason)));
    } else if (l.op === "entry") {
      var e = {};
      a.slice(1).forEach(function (kv) {
        var p = kv.split("=");
        var key = p[0];
        var vals = p[1] === "" ? [] : p[1].split(",");
        if (key === "affected" || key === "clean" || key === "seen") e[key] = vals;
        else if (key === "observed") e.observed = vals.map(function (x) { var q = x.split(":"); return { v: q[0], state: q[1] }; });
        else e[key] = vals[0];
      });
      entries[a[0]] = V.entry(e);
    } else if (l.op === "state") {
      var en = entries[a[0]];
      var v = ver(a[1], lineNo);
      if (!en) { check(false, lineNo, "no entry " + a[0]); return; }
      if (v) {
        var got = V.stateOf(en, v);
        check(got === a[2], lineNo, a[0] + " at " + a[1] + ": expected " + a[2] + ", got " + got);
      }
    } else {
      check(false, lineNo, "unknown line kind " + l.op);
    }
  });
  console.log(passed + " passed, " + failed + " failed");
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

function runCorpus(file) {
  var input = JSON.parse(fs.readFileSync(file, "utf8"));
  var parsed = input.versions.map(function (t) { return V.parse(t); });
  var valid = parsed.filter(V.isVersion).slice();
  valid.sort(V.compare);
  // Dense rank: equal versions share a rank.
  var rankOf = new Map();
  var rank = -1;
  valid.forEach(function (v, i) {
    if (i === 0 || V.compare(valid[i - 1], v) !== 0) rank++;
    rankOf.set(v, rank);
  });
  var entries = input.entries.map(V.entry);
  var out = {
    parsed: parsed.map(function (p) {
      return V.isVersion(p) ? { rank: rankOf.get(p) } : { reason: p.reason };
    }),
    states: entries.map(function (e) {
      return parsed.filter(V.isVersion).map(function (v) { return V.stateOf(e, v); });
    })
  };
  process.stdout.write(JSON.stringify(out));
}

var mode = process.argv[2];
if (mode === "cases") runCases(process.argv[3]);
else if (mode === "corpus") runCorpus(process.argv[3]);
else {
  console.error("usage: node tests/js/versions.js cases FILE | corpus FILE");
  process.exit(2);
}
