#!/usr/bin/env node
// End-to-end checks of the built site, as a reader gets it: the bundled site
// (and the fixture site, which has an alias) built with the findings binary,
// served from a loopback port under a sub-path like a static host, visited
// page by page in Debian's headless Chromium with axe-core, and validated by
// the Nu HTML Checker. See docs/testing.md.
//
//   node run.js            (from tests/e2e, after `npm ci`)
//
// Environment: FINDINGS_BIN (a built binary instead of `cargo run --release`),
// E2E_SCREENSHOTS (folder for screenshots, default target/e2e-screenshots),
// E2E_CHROMIUM (default /usr/bin/chromium), E2E_JAVA (default java),
// E2E_WORKERS (pages visited at once, default 2), E2E_TIMEOUT (seconds, default 900).
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");

const H = require("./lib/harness");
const server = require("./lib/server");
const site = require("./lib/site");
const browserLib = require("./lib/browser");
const crawl = require("./lib/crawl");
const journeys = require("./lib/journeys");
const validate = require("./lib/validate");
const screenshots = require("./lib/screenshots");
const bigsite = require("./lib/bigsite");
const imported = require("./lib/imported");
const observed = require("./lib/observed");
const big = require("./lib/big");
const answers = require("./lib/answers");
const workloads = require("./lib/workloads");

// Findings in the generated site for the journeys on long lists.
const BIG_FINDINGS = Number(process.env.E2E_BIG_FINDINGS || 3000);

const T0 = Date.now();
const TIMEOUT_S = Number(process.env.E2E_TIMEOUT || 900);
const SHOTS = path.resolve(
  process.env.E2E_SCREENSHOTS || path.join(site.REPO, "target", "e2e-screenshots"),
);

let cleanup = async () => {};

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "findings-e2e-"));
  const srv = await server.start();
  let browser = null;
  cleanup = async () => {
    cleanup = async () => {};
    if (browser) await browser.close().catch(() => {});
    await srv.close().catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  console.log(`e2e: serving on ${srv.origin} (127.0.0.1 only), output in ${tmp}`);

  // The sites: the bundled one, the fixture (it has an alias), and a
  // generated one of a few thousand findings (lists longer than a page).
  const bigRoot = path.join(tmp, "big-root");
  const bigInfo = bigsite.generate(bigRoot, BIG_FINDINGS);
  const importedRoot = path.join(tmp, "imported-root");
  const importedInfo = imported.generate(importedRoot);
  // Issue 38's site: the bundled one with two recorded vLLM runs imported
  // and compared (only with the shared recorded runs).
  const answersRoot = path.join(tmp, "answers-root");
  const answersInfo = answers.generate(answersRoot);
  const sites = [
    { name: "bundled", root: site.REPO, prefix: "/site/" },
    { name: "fixture", root: path.join(site.REPO, "tests", "fixtures", "minimal"), prefix: "/fixture/" },
    { name: "imported", root: importedRoot, prefix: "/imported/", ...importedInfo },
    { name: "big", root: bigRoot, prefix: "/big/", ...bigInfo },
  ];
  if (answersInfo) sites.push({ name: "answers", root: answersRoot, prefix: "/answers/", ...answersInfo });
  // Issue 39's site: a new one with the shared llama.cpp series and the
  // recorded vLLM runs imported (only with ../shared).
  const workloadsRoot = path.join(tmp, "workloads-root");
  const workloadsInfo = workloads.generate(workloadsRoot);
  if (workloadsInfo) sites.push({ name: "workloads", root: workloadsRoot, prefix: "/workloads-site/", ...workloadsInfo });
  for (const s of sites) {
    s.out = path.join(tmp, s.name);
    s.base = `${srv.origin}${s.prefix}`;
    srv.mount(s.prefix, s.out);
  }
  let built = true;
  for (const s of sites) {
    await H.check(`build the ${s.name} site`, async () => {
      try {
        return site.build({ root: s.root, out: s.out, baseUrl: s.base });
      } catch (e) {
        built = false;
        throw e;
      }
    });
  }
  if (!built) return;

  browser = await browserLib.launch();
  // The small sites are crawled page by page; the big one is for the
  // journeys on long lists.
  const env = { srv, browser, sites: sites.slice(0, 3), bundled: sites[0], fixture: sites[1], imported: sites[2], big: sites[3], answers: sites.find((s) => s.name === "answers"), workloads: sites.find((s) => s.name === "workloads"), tmp, shots: SHOTS };

  // Every page of the two small sites, then every internal link and
  // fragment they hold (the big site is for the journeys on long lists).
  const found = {};
  for (const s of env.sites) found[s.name] = await crawl.everyPage(env, s);
  await crawl.links(env, found);
  await crawl.darkPhone(env, found.bundled);

  await journeys.all(env, found.bundled);
  await journeys.seen(env, found.bundled);
  await journeys.importedRun(env);
  await journeys.checkedRun(env);
  await observed.all(env);
  await journeys.comparedRuns(env);
  await big.all(env);
  await answers.all(env);
  await workloads.all(env);
  await validate.all(env);
  await screenshots.all(env, found.bundled);
}

const guard = setTimeout(async () => {
  console.log(`FAIL  the suite did not finish within ${TIMEOUT_S} s (E2E_TIMEOUT)`);
  H.summary((Date.now() - T0) / 1000);
  await cleanup();
  process.exit(1);
}, TIMEOUT_S * 1000);

for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, async () => {
    await cleanup();
    process.exit(130);
  });
}

main()
  .catch((e) => H.check("e2e harness", () => Promise.reject(e)))
  .finally(async () => {
    await cleanup();
    clearTimeout(guard);
    const c = H.summary((Date.now() - T0) / 1000);
    // A skip without a reason it cannot apply is a failure (lib/harness.js).
    process.exit(H.exitCode(c));
  });
