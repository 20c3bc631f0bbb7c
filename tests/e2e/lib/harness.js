// A very small test harness: named checks run in order, each passes, fails
// or skips with a reason; the run ends with one summary line
// `e2e: N passed, N failed, N skipped` and a non-zero exit on any failure.
"use strict";

class Skip extends Error {}

const results = [];
const quiet = process.env.E2E_QUIET === "1";

function ms(t) {
  return `${((Date.now() - t) / 1000).toFixed(1)}s`;
}

/// Runs `fn` as the check `name`. `fn` throws to fail, calls `skip(reason)`
/// to skip; what it returns (a string) is printed beside "ok".
async function check(name, fn) {
  const t = Date.now();
  try {
    const note = await fn();
    results.push({ name, status: "pass" });
    if (!quiet) console.log(`ok    ${name}${note ? ` (${note})` : ""} [${ms(t)}]`);
  } catch (e) {
    if (e instanceof Skip) {
      results.push({ name, status: "skip", reason: e.message });
      console.log(`skip  ${name}: ${e.message}`);
    } else {
      results.push({ name, status: "fail", reason: e && e.stack ? e.message : String(e) });
      console.log(`FAIL  ${name} [${ms(t)}]`);
      const text = e && e.message ? e.message : String(e);
      for (const line of text.split("\n")) console.log(`      ${line}`);
    }
  }
}

function skip(reason) {
  throw new Skip(reason);
}

/// Throws with `message` and the listed problems (at most `max` shown).
function assertNone(problems, message, max = 25) {
  if (problems.length === 0) return;
  const shown = problems.slice(0, max).map((p) => `- ${p}`);
  if (problems.length > max) shown.push(`- … and ${problems.length - max} more`);
  throw new Error(`${message} (${problems.length}):\n${shown.join("\n")}`);
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

function counts() {
  const c = { pass: 0, fail: 0, skip: 0 };
  for (const r of results) c[r.status]++;
  return c;
}

function summary(seconds) {
  const c = counts();
  const failed = results.filter((r) => r.status === "fail");
  const skipped = results.filter((r) => r.status === "skip");
  console.log("");
  if (skipped.length) {
    console.log("skipped:");
    for (const r of skipped) console.log(`  ${r.name}: ${r.reason}`);
  }
  if (failed.length) {
    console.log("failed:");
    for (const r of failed) console.log(`  ${r.name}`);
  }
  if (seconds !== undefined) console.log(`e2e: finished in ${seconds.toFixed(1)} s`);
  console.log(`e2e: ${c.pass} passed, ${c.fail} failed, ${c.skip} skipped`);
  return c;
}

module.exports = { check, skip, assert, assertNone, summary, counts, Skip };
