// findings: engine versions and version states, in the browser.
//
// A line-by-line port of src/version.rs (parsing and ordering) and
// src/state.rs (the state of a version under one engine entry). The two
// must never disagree: tests/version_cases.txt is the shared table of cases,
// run against the Rust code by `cargo test` and against this file by
// tests/js/versions.js (under node, from the same `cargo test`), and a
// generated corpus of spellings is compared between the two as well.
//
// Plain ES5, no dependencies. In a page it defines `FindingsVersions`; under
// node it is a CommonJS module.
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.FindingsVersions = api;
  }
})(this, function () {
  "use strict";

  // Rust's u64::MAX: larger numbers are "too large", as in the Rust parser.
  var U64_MAX = "18446744073709551615";

  // The characters Rust's str::trim removes (Unicode White_Space). JS's own
  // trim() differs (it removes U+FEFF, keeps U+0085), so it is not used.
  function isRustSpace(c) {
    return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0xa0 ||
      c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
      c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
  }

  function rustTrim(s) {
    var a = 0;
    var b = s.length;
    while (a < b && isRustSpace(s.charCodeAt(a))) a++;
    while (b > a && isRustSpace(s.charCodeAt(b - 1))) b--;
    return s.slice(a, b);
  }

  function isDigit(ch) {
    return ch >= "0" && ch <= "9";
  }

  function isAlpha(ch) {
    return (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z");
  }

  // ASCII-only lowercase, as Rust's to_ascii_lowercase.
  function asciiLower(s) {
    return s.replace(/[A-Z]+/g, function (m) { return m.toLowerCase(); });
  }

  // A run of ASCII digits as a canonical decimal string (no leading zeros),
  // or null when it does not fit in a u64. Numbers stay strings so that
  // comparisons are exact at any size.
  function number(digits) {
    var d = digits.replace(/^0+/, "");
    if (d === "") return "0";
    if (d.length > U64_MAX.length || (d.length === U64_MAX.length && d > U64_MAX)) return null;
    return d;
  }

  function cmpNum(a, b) {
    if (a.length !== b.length) return a.length < b.length ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  var PRE = { a: 0, alpha: 0, b: 1, beta: 1, rc: 2, c: 2, pre: 2, preview: 2 };

  function VersionError(text, reason) {
    this.text = text;
    this.reason = reason;
    this.message = "\"" + text + "\" is not a version: " + reason;
  }

  // Parses a version as engines write it. Returns a version object, or a
  // VersionError (never throws) whose `reason` matches the Rust wording.
  function parse(text) {
    function fail(reason) { return new VersionError(text, reason); }
    var s = rustTrim(text);
    if (s === "") return fail("it is empty");
    if (s !== text) return fail("it has spaces around it");
    if (s.charAt(0) === "v" || s.charAt(0) === "V") s = s.slice(1);
    // llama.cpp's build tag, b6119: the build number 6119.
    else if (/^[bB][0-9]+$/.test(s)) s = s.slice(1);
    var lower = asciiLower(s);

    // Release: digits separated by dots.
    var release = [];
    var i = 0;
    for (;;) {
      var start = i;
      while (i < lower.length && isDigit(lower.charAt(i))) i++;
      if (start === i) {
        return fail(release.length === 0 ? "it must start with a number" : "a dot must be followed by a number");
      }
      var n = number(lower.slice(start, i));
      if (n === null) return fail("a number is too large");
      release.push(n);
      if (i + 1 < lower.length && lower.charAt(i) === "." && isDigit(lower.charAt(i + 1))) {
        i++;
        continue;
      }
      break;
    }

    var v = { raw: text, release: release, pre: null, post: null, dev: null };

    // Suffixes: [sep] label [sep] [number], in the order pre, post, dev.
    var rest = lower.slice(i);
    var stage = 0; // 0: pre allowed, 1: post allowed, 2: dev allowed, 3: nothing
    while (rest !== "") {
      var afterSep = rest.replace(/^[.\-_+]+/, "");
      if (afterSep.length + 1 < rest.length) return fail("separators may not repeat");
      var labelLen = 0;
      while (labelLen < afterSep.length && isAlpha(afterSep.charAt(labelLen))) labelLen++;
      var label = afterSep.slice(0, labelLen);
      if (label === "") return fail("expected a label such as rc, a, b, post or dev after the numbers");
      var tail = afterSep.slice(labelLen);
      var numPart = tail.replace(/^[.\-_]+/, "");
      var sepLen = tail.length - numPart.length;
      if (sepLen > 1) return fail("separators may not repeat");
      var digits = 0;
      while (digits < numPart.length && isDigit(numPart.charAt(digits))) digits++;
      if (sepLen === 1 && digits === 0) return fail("a separator after a label must be followed by a number");
      var num = "0";
      if (digits > 0) {
        num = number(numPart.slice(0, digits));
        if (num === null) return fail("a number is too large");
      }
      rest = numPart.slice(digits);
      var kind = Object.prototype.hasOwnProperty.call(PRE, label) ? PRE[label] : null;
      var isPost = label === "post" || label === "rev" || label === "r";
      if (kind !== null && stage === 0) {
        v.pre = [kind, num];
        stage = 1;
      } else if (kind === null && isPost && stage <= 1) {
        v.post = num;
        stage = 2;
      } else if (kind === null && label === "dev" && stage <= 2) {
        v.dev = num;
        stage = 3;
      } else if (kind !== null || isPost || label === "dev") {
        return fail("its parts are out of order (pre-release, post, dev)");
      } else {
        return fail("unknown label; use rc, a, alpha, b, beta, post or dev");
      }
    }
    return v;
  }

  function isVersion(x) {
    return x !== null && typeof x === "object" && Object.prototype.hasOwnProperty.call(x, "release");
  }

  // Sort key of the suffix, PEP 440 style (see suffix_key in version.rs):
  // [pre class, pre number, post class, post number, dev class, dev number].
  function suffixKey(v) {
    var preClass, preN;
    if (v.pre === null && v.post === null && v.dev !== null) {
      preClass = 0; preN = "0"; // 1.0.dev3: below 1.0a1
    } else if (v.pre !== null) {
      preClass = 1 + v.pre[0]; preN = v.pre[1];
    } else {
      preClass = 5; preN = "0"; // the release itself
    }
    var postClass = v.post === null ? 0 : 1;
    var postN = v.post === null ? "0" : v.post;
    var devClass = v.dev === null ? 1 : 0;
    var devN = v.dev === null ? "0" : v.dev;
    return [preClass, preN, postClass, postN, devClass, devN];
  }

  // -1, 0 or 1. Missing release numbers count as zero: 0.32 equals 0.32.0.
  function compare(a, b) {
    var len = Math.max(a.release.length, b.release.length);
    for (var k = 0; k < len; k++) {
      var x = k < a.release.length ? a.release[k] : "0";
      var y = k < b.release.length ? b.release[k] : "0";
      var c = cmpNum(x, y);
      if (c !== 0) return c;
    }
    var ka = suffixKey(a);
    var kb = suffixKey(b);
    for (var j = 0; j < ka.length; j++) {
      var d = typeof ka[j] === "number" ? (ka[j] < kb[j] ? -1 : ka[j] > kb[j] ? 1 : 0) : cmpNum(ka[j], kb[j]);
      if (d !== 0) return d;
    }
    return 0;
  }

  function isPrerelease(v) {
    return v.pre !== null || (v.dev !== null && v.post === null);
  }

  // Parses a version known to be valid (from the site's own data).
  function must(text) {
    var v = parse(text);
    if (!isVersion(v)) throw new Error(v.message);
    return v;
  }

  function contains(list, v) {
    for (var i = 0; i < list.length; i++) {
      if (compare(list[i], v) === 0) return true;
    }
    return false;
  }

  // An engine entry as pages embed it and findings.json exports it:
  // { affected: [..], clean: [..], seen: [..], introduced_in, fixed_in,
  // mitigated_in, observed: [{v, state}] }, version strings, any of them
  // missing. `observed` holds the versions the site's runs tested where the
  // record leaves them untested (src/state.rs, `resolve`), with the state
  // they gave them. Parses it once for stateOf.
  function entry(e) {
    function list(xs) { return (xs || []).map(must); }
    function one(x) { return x === null || x === undefined ? null : must(x); }
    return {
      affected: list(e.affected),
      clean: list(e.clean),
      seen: list(e.seen),
      introduced_in: one(e.introduced_in),
      fixed_in: one(e.fixed_in),
      mitigated_in: one(e.mitigated_in),
      observed: (e.observed || []).map(function (o) { return { v: must(o.v), state: o.state }; })
    };
  }

  // The state the runs observed at `v`, or null.
  function observedAt(e, v) {
    var os = e.observed || [];
    for (var i = 0; i < os.length; i++) {
      if (compare(os[i].v, v) === 0) return os[i].state;
    }
    return null;
  }

  // The state of version `v` under a parsed entry: the precedence of
  // src/state.rs (`resolve`): what the record says, first match wins, and
  // for a version it leaves untested (in range or unknown) the state the
  // runs observed there.
  function stateOf(e, v) {
    var s = recordState(e, v);
    if (s === "in-range" || s === "unknown") {
      var seen = observedAt(e, v);
      if (seen !== null) return seen;
    }
    return s;
  }

  // The state the record alone gives `v` (src/state.rs, `state_of`).
  function recordState(e, v) {
    if (contains(e.affected, v)) return "affected";
    if (contains(e.clean, v)) return "clean";
    if (contains(e.seen, v)) return "seen";
    if (e.fixed_in !== null && compare(v, e.fixed_in) >= 0) return "fixed";
    if (e.mitigated_in !== null && compare(v, e.mitigated_in) >= 0) return "mitigated";
    var low = e.introduced_in;
    if (low === null) {
      for (var i = 0; i < e.affected.length; i++) {
        if (low === null || compare(e.affected[i], low) < 0) low = e.affected[i];
      }
    }
    if (low !== null) {
      var belowFix = e.fixed_in === null || compare(v, e.fixed_in) < 0;
      if (compare(v, low) >= 0 && belowFix) return "in-range";
    }
    return "unknown";
  }

  // The words readers see for each state, and the order of the legend.
  var LABELS = {
    affected: "affected", "in-range": "in range", seen: "seen", mitigated: "mitigated",
    fixed: "fixed", clean: "clean", unknown: "unknown"
  };
  var ORDER = ["affected", "in-range", "seen", "mitigated", "fixed", "clean", "unknown"];

  return {
    parse: parse,
    isVersion: isVersion,
    compare: compare,
    isPrerelease: isPrerelease,
    entry: entry,
    stateOf: stateOf,
    observedAt: observedAt,
    isTested: function (s) { return s === "affected" || s === "clean" || s === "seen"; },
    LABELS: LABELS,
    ORDER: ORDER
  };
});
