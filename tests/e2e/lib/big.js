// Journeys on a generated site of a few thousand findings (lib/bigsite.js),
// where every list is longer than a page: following pagination, searching a
// sharded index, and filters and "your version" that must cover findings
// the page in view does not show.
"use strict";

const path = require("path");
const { spawnSync } = require("child_process");
const H = require("./harness");
const axe = require("./axe");
const { context, watchedPage } = require("./browser");
const { follow } = require("./journeys");

async function text(loc) {
  return (await loc.textContent()).replace(/\s+/g, " ").trim();
}

/// A journey on a fresh page that also counts every byte it downloads.
async function journey(env, name, fn) {
  await H.check(`big site: ${name}`, async () => {
    const ctx = await context(env.browser, env.srv.origin);
    try {
      const page = await watchedPage(ctx);
      page.bytes = 0;
      page.on("response", (r) => {
        page.bytes += Number(r.headers()["content-length"]) || 0;
      });
      const note = await fn(page);
      H.assertNone(page.problems, "problems on the way");
      return note;
    } finally {
      await ctx.close();
    }
  });
}

async function cardIds(page) {
  return page.locator("main article.card").evaluateAll((cs) =>
    cs.filter((c) => c.offsetParent !== null).map((c) => Number(c.getAttribute("data-id"))));
}

/// Pages of the big site that only long lists have: later pages, an
/// engine matrix of many rows, a version page cut into pages.
const SAMPLE = ["", "tags/kv-cache/page/2/", "status/open/page/3/", "engines/vllm/", "engines/vllm/page/2/",
  "engines/vllm/0.29/page/2/", "runs/", "groups/speed/page/2/"];

async function all(env) {
  const big = env.big;
  const base = big.base;

  await journey(env, "pages of long lists pass axe (WCAG 2.1 A/AA) and the Nu HTML Checker", async (page) => {
    const problems = [];
    for (const p of SAMPLE) {
      await page.goto(base + p);
      for (const v of await axe.run(page)) problems.push(`${p}: axe: ${v}`);
    }
    const files = SAMPLE.map((p) => path.join(big.out, p, "index.html"));
    const vnu = require.resolve("vnu-jar/build/dist/vnu.jar");
    const r = spawnSync(process.env.E2E_JAVA || "java", ["-Xss2m", "-jar", vnu, "--errors-only", "--format", "gnu", ...files],
      { encoding: "utf8", timeout: 120000 });
    if (r.error) throw new Error(`vnu: ${r.error.message}`);
    for (const l of (r.stderr + r.stdout).split("\n").filter((l) => l.trim())) problems.push(l.split(big.out).join(""));
    H.assertNone(problems, "problems on the pages of long lists");
    return `${SAMPLE.length} pages`;
  });

  await journey(env, "a tag's pages: Next, a numbered page and Previous, each a page of its own", async (page) => {
    await page.goto(`${base}tags/kv-cache/`);
    const nav = page.locator("nav.pagination");
    H.assert((await nav.count()) === 1, "no pagination on a tag with hundreds of findings");
    const first = await cardIds(page);
    H.assert(first.length > 0 && first.length <= 30, `page 1 shows ${first.length} cards`);
    const next = await page.locator('link[rel="next"]').getAttribute("href");
    H.assert(next && next.endsWith("tags/kv-cache/page/2/"), `rel=next is ${next}`);
    await follow(page, nav.locator('a[rel="next"]'));
    H.assert(page.url() === `${base}tags/kv-cache/page/2/`, `Next went to ${page.url()}`);
    const second = await cardIds(page);
    H.assert(second.length > 0 && second.every((id) => !first.includes(id)), "page 2 repeats page 1's findings");
    H.assert(Math.min(...second) > Math.max(...first), "pages are not in order");
    H.assert((await text(page.locator("title"))).includes("(page 2 of"), "page 2's title does not say so");
    const current = page.locator('nav.pagination a[aria-current="page"]');
    H.assert((await text(current)) === "Page 2", `the current page is marked "${await text(current)}"`);
    // The last page, by its number.
    const last = page.locator("nav.pagination li a").filter({ hasNotText: /Previous|Next/ }).last();
    const n = Number((await text(last)).replace("Page ", ""));
    await follow(page, last);
    H.assert(page.url() === `${base}tags/kv-cache/page/${n}/`, `page ${n} is at ${page.url()}`);
    H.assert((await page.locator('nav.pagination a[rel="next"]').count()) === 0, "the last page has a Next link");
    await follow(page, page.locator('nav.pagination a[rel="prev"]'));
    H.assert(page.url() === `${base}tags/kv-cache/page/${n - 1}/`, `Previous went to ${page.url()}`);
    return `${n} pages; page 2: F${second[0]}…F${second[second.length - 1]}`;
  });

  await journey(env, "search: a word from one body finds it, fetching a small part of the index", async (page) => {
    await page.goto(`${base}search/?q=${big.rare.word}`);
    const hit = page.locator("#search-results a").first();
    await hit.waitFor({ state: "visible", timeout: 10000 });
    H.assert((await page.locator("#search-results li").count()) === 1, "the rare word matched more than one finding");
    const href = await hit.evaluate((a) => a.href);
    H.assert(href === `${base}findings/case-${big.rare.id}/`, `the hit links to ${href}`);
    H.assert(page.bytes < 300 * 1024, `showing the result downloaded ${page.bytes} bytes`);
    // A common word: many results, the best 20 shown, more on demand.
    await page.goto(`${base}search/?q=cache`);
    await page.locator("#search-results li").first().waitFor({ state: "visible", timeout: 10000 });
    const said = await text(page.locator("#search-status"));
    const total = Number(/^(\d+) findings match/.exec(said)[1]);
    H.assert(total > 100, `"cache" matched ${total}`);
    H.assert((await page.locator("#search-results li").count()) === 20, "not 20 results at first");
    await page.locator("button.search-more").click();
    await page.waitForFunction(() => document.querySelectorAll("#search-results li").length === 40, null, { timeout: 10000 });
    return `${big.rare.word} -> F${big.rare.id} in ${Math.round(page.bytes / 1024)} KB; "cache": ${total}`;
  });

  await journey(env, "engine page: 'your version' covers findings beyond the matrix page in view", async (page) => {
    await page.goto(`${base}engines/vllm/`);
    const rows = await page.locator("table.matrix tbody tr").count();
    H.assert(rows === 30, `the matrix shows ${rows} rows, not a page of 30`);
    H.assert((await page.locator("nav.pagination").count()) === 1, "the matrix has no pagination");
    // What the version page says of 0.29, over all its pages: the counts.
    await page.goto(`${base}engines/vllm/0.29/`);
    const counts = await page.locator(".version-summary li").evaluateAll((lis) =>
      Object.fromEntries(lis.map((li) => [li.querySelector("a").getAttribute("href").split("#sec-")[1], Number(li.querySelector(".state-chip").textContent)])));
    await page.goto(`${base}engines/vllm/`);
    const input = page.locator("#your-version-input");
    await input.click();
    await input.pressSequentially("0.29", { delay: 10 });
    await page.locator("#your-version-result .your-version-section").first().waitFor();
    const got = await page.locator("#your-version-result .your-version-section").evaluateAll((ss) =>
      Object.fromEntries(ss.map((s) => [/section-([a-z-]+)/.exec(s.className)[1], s.querySelectorAll("li").length])));
    const problems = Object.keys(counts).filter((s) => (got[s] || 0) !== counts[s]).map((s) => `${s}: version page ${counts[s]}, box ${got[s] || 0}`);
    H.assertNone(problems, "'your version' and the version page disagree");
    const listed = Object.values(got).reduce((a, b) => a + b, 0);
    H.assert(listed > rows, `the box lists ${listed} findings, no more than the page's ${rows}`);
    return `0.29: ${JSON.stringify(got)}`;
  });

  await journey(env, "home: a version filter counts every finding and shows them group by group", async (page) => {
    await page.goto(`${base}engines/sglang/0.5.19/`);
    const affects = await page.locator(".version-summary li").evaluateAll((lis) => lis
      .filter((li) => /#sec-(affected|in-range)$/.test(li.querySelector("a").getAttribute("href")))
      .reduce((n, li) => n + Number(li.querySelector(".state-chip").textContent), 0));
    await page.goto(base);
    const shownBefore = await cardIds(page);
    H.assert(shownBefore.length <= 40, `the home page shows ${shownBefore.length} cards`);
    await page.locator('#filters [data-filter="engine"] a[data-value="sglang"]').click();
    await page.locator('#filters [data-filter="version"] a[data-value="0.5.19"]').click();
    await page.waitForFunction(() => document.getElementById("filters").getAttribute("data-state") === "ready");
    const summary = await text(page.locator("#filter-summary"));
    const n = Number(/^(\d+) of \d+ findings concern/.exec(summary)[1]);
    H.assert(n === affects, `the filter counts ${n}; the version page lists ${affects} as affected or in range`);
    const shown = await cardIds(page);
    H.assert(shown.length > 0 && shown.length <= 40, `the filter shows ${shown.length} cards`);
    // Cards the page did not have come from each finding's JSON file.
    const fetched = await page.locator("article.card-fetched").count();
    H.assert(fetched > 0, "no card was fetched: the filter only saw the page's own cards");
    const more = page.locator("button.filter-more-button").first();
    H.assert((await more.count()) === 1, "no Show more for a group with more matches");
    await more.click();
    await page.waitForFunction((k) => document.querySelectorAll("main article.card:not([hidden])").length > k, shown.length, { timeout: 10000 });
    return `sglang 0.5.19: ${n} findings, ${shown.length} shown at first, ${fetched} fetched`;
  });
}

module.exports = { all };
