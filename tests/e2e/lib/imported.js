// A site with a run read from result files: a copy of the fixture site
// into which `findings import` reads an inferlint run folder and a vLLM
// file that keeps every request (the fixtures of tests/fixtures/results),
// so that the suite opens a run page with a series chart (the concurrency
// asked for marked), a distribution (cdf) chart, the facts of the files
// and the checks: the server ran fewer requests than asked for (flagged),
// the preemptions are recorded (passed) and one request failed
// (acknowledged, with its reason). The finding that cites the run names
// those checks, so its page lists the run as flagged.
"use strict";

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const { REPO } = require("./site");

/// Writes the site into `root`; returns the imported run's id.
function generate(root) {
  fs.rmSync(root, { recursive: true, force: true });
  fs.cpSync(path.join(REPO, "tests", "fixtures", "minimal"), root, { recursive: true });
  const results = path.join(REPO, "tests", "fixtures", "results");
  const run = "imported-live";
  const args = [
    "import", run,
    path.join(results, "inferlint", "vllm-run"),
    path.join(results, "vllm", "detailed.json"),
    "--engine", "vllm", "--version", "0.30.0", "--root", root,
  ];
  const bin = process.env.FINDINGS_BIN;
  const [cmd, argv] = bin ? [bin, args] : ["cargo", ["run", "--release", "--quiet", "--", ...args]];
  const r = spawnSync(cmd, argv, { cwd: REPO, encoding: "utf8", timeout: 20 * 60 * 1000 });
  if (r.error) throw new Error(`${cmd} ${argv.join(" ")}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")} exited ${r.status}:\n${r.stderr}`);
  // The failed request is part of what the run shows: acknowledged.
  const y = path.join(root, "data", "runs", run, "run.yaml");
  fs.appendFileSync(y, "acknowledged:\n  - check: no-lost-requests\n    reason: The failed request is the one the fixture keeps to show a failure.\n");
  // A finding that cites the run and names the checks, as a finding would.
  const f = path.join(root, "findings", "cache-size.md");
  const named = "checks: [preemptions-read, concurrency-achieved, no-lost-requests]";
  fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace("runs: [cache-sweep]", `runs: [cache-sweep, ${run}]\n${named}`));
  return { run, finding: "cache-size" };
}

module.exports = { generate };
