// A very small test harness: named checks run in order, and each passes or
// fails. A check that cannot run on the site it is given says why, in the
// words "cannot apply because …" (`notApplicable(because)`), and is counted
// apart; any other way out of a check is a failure, a bare `skip(reason)`
// included: a check that skips "until the feature lands" hides the
// feature's absence. The run ends with one summary line
// `e2e: N passed, N failed, N skipped` (skipped: the checks that cannot
// apply, each with its reason; the line keeps the shape CI reads) and a
// non-zero exit on any failure.
"use strict";

/// Thrown by `notApplicable`: the check cannot apply to this site.
class NotApplicable extends Error {}

/// Thrown by `skip`: a check that stopped without a reason it cannot
/// apply, which counts as a failure.
class Skip extends Error {}

const results = [];
const quiet = process.env.E2E_QUIET === "1";

function ms(t) {
  return `${((Date.now() - t) / 1000).toFixed(1)}s`;
}

function fail(name, t, text) {
  results.push({ name, status: "fail", reason: text });
  console.log(`FAIL  ${name} [${ms(t)}]`);
  for (const line of text.split("\n")) console.log(`      ${line}`);
}

/// Runs `fn` as the check `name`. `fn` throws to fail, calls
/// `notApplicable(because)` when the check cannot apply to the site it is
/// given; what it returns (a string) is printed beside "ok". A call of
/// `skip(reason)` fails the check.
async function check(name, fn) {
  const t = Date.now();
  try {
    const note = await fn();
    results.push({ name, status: "pass" });
    if (!quiet) console.log(`ok    ${name}${note ? ` (${note})` : ""} [${ms(t)}]`);
  } catch (e) {
    if (e instanceof NotApplicable) {
      results.push({ name, status: "n/a", reason: e.message });
      console.log(`n/a   ${name}: ${e.message}`);
    } else if (e instanceof Skip) {
      fail(name, t, `skipped without saying why it cannot apply (a skip is a failure): ${e.message}`);
    } else {
      fail(name, t, e && e.message ? e.message : String(e));
    }
  }
}

/// Ends the check as not applicable to the site: `because` says why, and
/// is printed as "cannot apply because <because>". An empty reason fails.
function notApplicable(because) {
  const why = String(because || "").trim().replace(/^cannot apply because\s*/i, "");
  if (!why) throw new Error("notApplicable() needs the reason the check cannot apply");
  throw new NotApplicable(`cannot apply because ${why}`);
}

/// Stops the check as skipped, which counts as a failure: say instead why
/// it cannot apply (`notApplicable`), or make it a check.
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

/// Passed, failed (skips without a reason among them) and not applicable.
function counts() {
  const c = { pass: 0, fail: 0, na: 0 };
  for (const r of results) {
    if (r.status === "pass") c.pass++;
    else if (r.status === "n/a") c.na++;
    else c.fail++;
  }
  return c;
}

/// Prints what did not pass, and the summary line; returns the counts.
function summary(seconds) {
  const c = counts();
  const failed = results.filter((r) => r.status === "fail");
  const na = results.filter((r) => r.status === "n/a");
  console.log("");
  if (na.length) {
    console.log("skipped, as not applicable:");
    for (const r of na) console.log(`  ${r.name}: ${r.reason}`);
  }
  if (failed.length) {
    console.log("failed:");
    for (const r of failed) console.log(`  ${r.name}`);
  }
  if (seconds !== undefined) console.log(`e2e: finished in ${seconds.toFixed(1)} s`);
  console.log(`e2e: ${c.pass} passed, ${c.fail} failed, ${c.na} skipped`);
  return c;
}

/// The exit status of a run with counts `c`: 0 only when something passed
/// and nothing failed (a skip without a reason is a failure).
function exitCode(c) {
  return c.fail === 0 && c.pass > 0 ? 0 : 1;
}

module.exports = { check, skip, notApplicable, assert, assertNone, summary, counts, exitCode, Skip, NotApplicable };
