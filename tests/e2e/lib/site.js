// Building a site with the findings binary and listing what it wrote.
"use strict";

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const REPO = path.resolve(__dirname, "..", "..", "..");

/// Builds the site at `root` into `out` with `baseUrl`, through
/// `cargo run --release` (or $FINDINGS_BIN when set). Returns the summary line.
function build({ root, out, baseUrl }) {
  const args = ["build", "--root", root, "--output", out, "--base-url", baseUrl];
  const bin = process.env.FINDINGS_BIN;
  const [cmd, argv] = bin
    ? [bin, args]
    : ["cargo", ["run", "--release", "--quiet", "--", ...args]];
  const r = spawnSync(cmd, argv, {
    cwd: REPO,
    encoding: "utf8",
    timeout: 20 * 60 * 1000,
    env: { ...process.env, CARGO_TERM_COLOR: "never" },
  });
  if (r.error) throw new Error(`${cmd} ${argv.join(" ")}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(`${cmd} ${argv.join(" ")} exited ${r.status}:\n${r.stderr}${r.stdout}`);
  }
  if (!fs.existsSync(path.join(out, "index.html"))) throw new Error(`no index.html in ${out}`);
  return (r.stdout + r.stderr).trim().split("\n").pop();
}

/// Every file under `dir`, as paths relative to it with `/` separators, sorted.
function walk(dir) {
  const out = [];
  const rec = (d, prefix) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const rel = prefix + e.name;
      if (e.isDirectory()) rec(path.join(d, e.name), rel + "/");
      else out.push(rel);
    }
  };
  rec(dir, "");
  return out.sort();
}

/// What kind of page a site-relative path is, from the URL scheme in
/// README.md ("" is the home page).
function pageType(rel) {
  const p = rel.replace(/index\.html$/, "");
  const parts = p.split("/").filter(Boolean);
  if (p === "") return "home";
  if (p === "404.html") return "404";
  const [first] = parts;
  const depth = parts.length;
  const table = {
    findings: ["findings", "finding"],
    engines: ["engines", "engine", "version"],
    groups: ["groups", "group"],
    tags: ["tags", "tag"],
    models: ["models", "model"],
    runs: ["runs", "run"],
    f: ["short", "short"],
    search: ["search"],
    compare: ["comparisons", "compare"],
  };
  const kinds = table[first];
  if (!kinds) return "other";
  return kinds[Math.min(depth, kinds.length) - 1];
}

/// The target of a redirect page (its `<meta http-equiv="refresh">`), or null.
function redirectTarget(html) {
  const m = /<meta\s+http-equiv="refresh"\s+content="\d+;\s*url=([^"]+)"/i.exec(html);
  return m ? m[1].replace(/&amp;/g, "&") : null;
}

/// Runs `findings` with `args` from the repository (FINDINGS_BIN, or
/// `cargo run --release`); throws with its stderr when it fails.
function findings(args) {
  const bin = process.env.FINDINGS_BIN;
  const [cmd, argv] = bin ? [bin, args] : ["cargo", ["run", "--release", "--quiet", "--", ...args]];
  const r = spawnSync(cmd, argv, { cwd: REPO, encoding: "utf8", timeout: 20 * 60 * 1000 });
  if (r.error) throw new Error(`${cmd} ${argv.join(" ")}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")} exited ${r.status}:\n${r.stderr}`);
  return r;
}

module.exports = { REPO, build, walk, pageType, redirectTarget, findings };
