#!/usr/bin/env node
// What a reader downloads to see a page: every byte headless Chromium
// fetches (HTML, CSS, JS, JSON, images) from the moment it opens the page
// until the page is shown and the network is quiet, counted from the
// responses' bodies as a plain static host serves them (uncompressed: the
// worst case; most hosts compress text). For the benchmark
// (bench/bench.py), not for the tests' pass/fail.
//
//   node weigh.js SITE_DIR PAGE [PAGE ...]
//
// Each PAGE is a site path, optionally with a query (`search/?q=prefill`);
// a PAGE starting with `search/` waits for its results on screen. Prints
// one JSON object: {"<page>": {"bytes": N, "requests": N, "largest": [[url, bytes], ...]}}.
"use strict";

const path = require("path");
const server = require("./lib/server");
const { launch, context } = require("./lib/browser");

async function weigh(browser, origin, base, page) {
  const ctx = await context(browser, origin);
  try {
    const p = await ctx.newPage();
    const sizes = new Map();
    p.on("response", async (r) => {
      // The test server always sends Content-Length; Chromium drops the
      // bodies of very large responses before they can be read.
      let n = Number(r.headers()["content-length"]);
      if (!Number.isFinite(n)) {
        try {
          n = (await r.body()).length;
        } catch (_) {
          n = 0; // a redirect or an aborted request has no body
        }
      }
      sizes.set(r.url(), (sizes.get(r.url()) || 0) + n);
    });
    await p.goto(base + page, { waitUntil: "load" });
    if (page.startsWith("search/")) {
      await p.locator("#search-results li").first().waitFor({ state: "visible", timeout: 30000 });
    }
    await p.waitForLoadState("networkidle");
    await new Promise((r) => setTimeout(r, 200));
    const all = [...sizes.entries()].sort((a, b) => b[1] - a[1]);
    return {
      bytes: all.reduce((s, [, n]) => s + n, 0),
      requests: all.length,
      largest: all.slice(0, 4).map(([u, n]) => [u.slice(base.length), n]),
    };
  } finally {
    await ctx.close();
  }
}

async function main() {
  const [dir, ...pages] = process.argv.slice(2);
  if (!dir || pages.length === 0) {
    console.error("usage: node weigh.js SITE_DIR PAGE [PAGE ...]");
    process.exit(2);
  }
  const srv = await server.start();
  srv.mount("/site/", path.resolve(dir));
  const browser = await launch();
  const out = {};
  try {
    for (const page of pages) out[page] = await weigh(browser, srv.origin, `${srv.origin}/site/`, page);
  } finally {
    await browser.close();
    await srv.close();
  }
  console.log(JSON.stringify(out, null, 1));
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
