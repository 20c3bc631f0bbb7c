// Debian's Chromium driven by playwright-core (which never downloads a
// browser), with the watchers every visit uses: console errors, page
// errors, failed requests and requests that leave the machine.
"use strict";

const fs = require("fs");
const { chromium } = require("playwright-core");

const EXECUTABLE = process.env.E2E_CHROMIUM || "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/// Launches Chromium. playwright-core gives each launch a fresh, temporary
/// user-data-dir (removed on close), so no profile state carries over.
async function launch() {
  if (!fs.existsSync(EXECUTABLE)) {
    throw new Error(
      `${EXECUTABLE} not found: install Debian's chromium (apt-get install -y chromium chromium-driver) or set E2E_CHROMIUM`,
    );
  }
  return chromium.launch({ executablePath: EXECUTABLE, headless: true, args: ARGS, timeout: 60000 });
}

/// A browser context whose pages may only reach `origin`: any other request
/// is blocked and reported (the site must not load anything from elsewhere).
async function context(browser, origin, options = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  ctx.setDefaultTimeout(15000);
  ctx.setDefaultNavigationTimeout(15000);
  ctx.external = [];
  await ctx.route(
    (url) => url.origin !== origin,
    (route) => {
      ctx.external.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );
  return ctx;
}

/// Opens a page in `ctx` that records every problem a reader would meet.
/// `expect404` lists URLs whose 404 is the point of the visit.
async function watchedPage(ctx, { expect404 = [] } = {}) {
  const page = await ctx.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") {
      const loc = m.location();
      // Chromium logs the status of a page that answers 404; expected here.
      if (loc && expect404.includes(loc.url) && m.text().startsWith("Failed to load resource")) return;
      problems.push(`console error: ${m.text()}${loc && loc.url ? ` (${loc.url}:${loc.lineNumber})` : ""}`);
    }
  });
  page.on("pageerror", (e) => problems.push(`uncaught exception: ${e.message}`));
  page.on("requestfailed", (r) => {
    const f = r.failure();
    const why = f ? f.errorText : "failed";
    if (why.includes("ERR_BLOCKED_BY_CLIENT")) {
      problems.push(`request to another host (blocked): ${r.url()}`);
    } else if (why.includes("ERR_ABORTED") && r.resourceType() === "document") {
      // A navigation replaced by another (e.g. a redirect page leaving): not an error.
    } else {
      problems.push(`request failed: ${r.url()} (${why})`);
    }
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && !expect404.includes(r.url())) {
      problems.push(`HTTP ${r.status()}: ${r.url()}`);
    }
  });
  page.problems = problems;
  return page;
}

module.exports = { launch, context, watchedPage, EXECUTABLE, ARGS };
