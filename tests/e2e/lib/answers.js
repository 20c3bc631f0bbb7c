// Answers first (issue 38), measured as the issue measured them: the
// bundled site with the recorded runs vllm-0.29/live and vllm-0.30/live
// imported as live29 and live30 and compared in site.yaml
// (`compare: [{id: c-live, runs: [live29, live30]}]`), read in Chromium at
// 390 x 844. Where the answer a reader came for stands on the screen:
// - home: the first finding within the first screen (844 px);
// - vLLM's engine page: the link to 0.30 within the first screen and
//   inside the screen's width;
// - the 0.30 page: its verdict and first affected finding within the first
//   screen, the link to the run that showed F8 within 1,500 px, and the
//   verdict of what changed since 0.29 under its own, in the comparison's
//   words (issue 43), said once;
// - the comparison: its verdict in words within the first screen, its
//   sides in the order of its title, untested (single runs) with how many
//   metrics went worse and how large, citing neither F5 (SGLang's) nor F9
//   (TensorRT-LLM's);
// - /runs/live30/: every chart within 390 px, its text at least 11 px;
// - no page wider than the screen, axe clean.
// Without the shared recorded runs (FINDINGS_SHARED), the site cannot be
// made: the check says so and fails.
"use strict";

const fs = require("fs");
const path = require("path");

const H = require("./harness");
const axe = require("./axe");
const { REPO, findings } = require("./site");
const { context, watchedPage } = require("./browser");

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const SCREEN = 844;

/// The site in `root`: a copy of the bundled one (records, runs,
/// templates, static files), the two recorded vLLM runs imported, and
/// their comparison named in site.yaml as the issue names it. Returns
/// null without the shared recorded runs.
function generate(root) {
  const shared = process.env.FINDINGS_SHARED;
  if (!shared) return null;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  for (const x of ["findings", "data", "templates", "static", "site.yaml"]) {
    const from = path.join(REPO, x);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(root, x), { recursive: true });
  }
  const runs = path.join(shared, "recorded-runs");
  findings(["import", "live29", path.join(runs, "vllm-0.29", "live"), "--engine", "vllm", "--version", "0.29.0", "--root", root]);
  findings(["import", "live30", path.join(runs, "vllm-0.30", "live"), "--engine", "vllm", "--version", "0.30.0", "--root", root]);
  fs.appendFileSync(path.join(root, "site.yaml"), "compare:\n  - id: c-live\n    runs: [live29, live30]\n");
  return { comparison: "c-live" };
}

/// Opens `url` at phone size: status 200, no sideways scroll, axe clean.
async function open(page, url) {
  const resp = await page.goto(url);
  H.assert(resp && resp.status() === 200, `${url}: status ${resp && resp.status()}`);
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  H.assert(w.scroll <= w.inner + 1, `${url} is wider than the screen: ${w.scroll} px in a ${w.inner} px window`);
  H.assertNone(await axe.run(page), `axe on ${url}`);
}

/// The box of the first element `selector` matches, in page coordinates.
async function box(page, selector) {
  return page.evaluate((sel) => {
    const e = document.querySelector(sel);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return { top: Math.round(r.top + window.scrollY), bottom: Math.round(r.bottom + window.scrollY), left: Math.round(r.left), right: Math.round(r.right), text: e.textContent.replace(/\s+/g, " ").trim() };
  }, selector);
}

async function phone(env, name, fn) {
  await H.check(`answers first: ${name}`, async () => {
    if (!env.answers || !env.answers.comparison) {
      H.notApplicable("the issue's site needs the recorded runs of ../shared (FINDINGS_SHARED is not set), so it was not built");
    }
    const ctx = await context(env.browser, env.srv.origin, PHONE);
    try {
      const page = await watchedPage(ctx);
      const note = await fn(page, env.answers.base);
      H.assertNone(page.problems, "problems on the way");
      return note;
    } finally {
      await ctx.close();
    }
  });
}

async function all(env) {
  await phone(env, "home: the first finding within the first phone screen", async (page, base) => {
    await open(page, base);
    const first = await box(page, 'main a[href*="/findings/"]');
    H.assert(first, "the home page links no finding");
    H.assert(first.top < SCREEN, `the first finding is at ${first.top} px (${first.text})`);
    const latest = await box(page, "#latest-heading");
    H.assert(latest && latest.top < SCREEN, `"Latest" is at ${latest && latest.top} px`);
    // The group chips once (the filter's Group row), not a second list:
    // one chip, with its count, per group.
    const chips = await page.evaluate(() => [...document.querySelectorAll('main a[href*="/groups/"]')].filter((a) => a.querySelector(".count")).map((a) => a.getAttribute("href")));
    H.assert(chips.length === new Set(chips).size && chips.length === 4, `group chips: ${JSON.stringify(chips)}`);
    return `first finding at ${first.top} px`;
  });

  await phone(env, "vLLM's engine page: 0.30 one tap away, inside the screen", async (page, base) => {
    await open(page, `${base}engines/vllm/`);
    const link = await box(page, 'main a[href$="/engines/vllm/0.30/"]');
    H.assert(link, "the engine page links no 0.30 page");
    H.assert(link.top < SCREEN, `the first link to 0.30 is at ${link.top} px`);
    H.assert(link.left >= 0 && link.right <= 390, `the first link to 0.30 spans ${link.left} to ${link.right} px`);
    const row = await box(page, ".engine-version-list li:has(a[href$='/engines/vllm/0.30/'])");
    H.assert(row && /4\s*affected/.test(row.text), `0.30's entry does not count its affected findings: ${row && row.text}`);
    return `0.30 at ${link.top} px, ${link.left}-${link.right} px`;
  });

  await phone(env, "vLLM 0.30: the verdict, what affects it, and the run that showed F8 first", async (page, base) => {
    await open(page, `${base}engines/vllm/0.30/`);
    const verdict = await box(page, ".version-verdict");
    H.assert(verdict && verdict.top < SCREEN, `the verdict is at ${verdict && verdict.top} px`);
    H.assert(verdict.text.startsWith("vLLM 0.30: 4 findings affect it, 1 of them shown by this site's runs"), `the verdict reads "${verdict.text}"`);
    // What changed since 0.29, in the comparison's words, once.
    const changed = await box(page, ".version-trend");
    H.assert(changed && changed.top < SCREEN, `what changed is said at ${changed && changed.top} px`);
    H.assert(changed.text.startsWith("vLLM 0.30 against 0.29: 7 of 8 metrics untested, single runs: worse on 6 (ITL p99 +24%, output throughput −7.4%, …), better on 1 (TTFT p99 −5.6%); the same on 1."), `what changed reads "${changed.text}"`);
    const said = await page.locator("main").innerText();
    H.assert(said.split("vLLM 0.30 against 0.29: 7 of 8").length === 2, "what changed is said more than once");
    H.assert(!/within noise, untested or not comparable/.test(said), "a count lumps within noise, untested and not comparable");
    const card = await box(page, "section.section-affected article.card");
    H.assert(card && card.top < SCREEN, `the first affected finding is at ${card && card.top} px`);
    const run = await box(page, 'section.section-affected article.card[data-id="8"] a[href$="/runs/live30/"]');
    H.assert(run, "F8's card does not link the run that showed it");
    H.assert(run.bottom < 1500, `the link to live30 in F8's card ends at ${run.bottom} px`);
    // In range, untested: folded, each saying why.
    const folded = await page.evaluate(() => {
      const d = document.querySelector("details#sec-in-range");
      return d && { open: d.open, why: [...d.querySelectorAll(".card-why")].map((p) => p.textContent.replace(/\s+/g, " ").trim()) };
    });
    H.assert(folded && !folded.open, "the findings in range are not folded");
    H.assert(folded.why.includes("In range: tested only on 0.27.1; the range is open-ended."), `why in range: ${JSON.stringify(folded.why)}`);
    return `verdict at ${verdict.top} px, first card at ${card.top} px, live30 link ends at ${run.bottom} px`;
  });

  await phone(env, "the comparison of live29 and live30 states its verdict first", async (page, base) => {
    await open(page, `${base}compare/c-live/`);
    const verdict = await box(page, ".compare-verdict");
    H.assert(verdict, "the comparison page has no verdict");
    H.assert(verdict.top < SCREEN, `the verdict is at ${verdict.top} px`);
    // Titled as its verdict reads; untested (single runs), yet saying how
    // many went worse and by how much.
    H.assert(verdict.text.startsWith("vLLM 0.30.0 against 0.29.0: 7 of 8 metrics untested, single runs: worse on "), `the verdict reads "${verdict.text}"`);
    const worse = /worse on (\d+) \(ITL p99 \+24%, output throughput −7\.4%/.exec(verdict.text);
    H.assert(worse && Number(worse[1]) >= 5, `the verdict reads "${verdict.text}"`);
    const title = await page.locator("h1").innerText();
    H.assert(title === "vLLM 0.30.0 against 0.29.0", `the title reads "${title}"`);
    const main = await page.locator("main").innerText();
    for (const f of ["F5", "F9"]) H.assert(!new RegExp(`\\b${f}\\b`).test(main), `the comparison cites ${f}, another engine's finding`);
    return verdict.text.slice(0, 120);
  });

  await phone(env, "/runs/live30/: every chart within the screen, its text readable", async (page, base) => {
    await open(page, `${base}runs/live30/`);
    const charts = await page.evaluate(() =>
      [...document.querySelectorAll(".chart-svg svg")].map((svg) => {
        const r = svg.getBoundingClientRect();
        // The size a reader sees: the font size times the scale from the
        // SVG's units to the screen's pixels (the length of the transform's
        // first column, so that a rotated axis title, whose `a` is 0,
        // counts at its true size).
        const sizes = [...svg.querySelectorAll("text")].map((t) => {
          const m = t.getScreenCTM();
          return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
        });
        return { left: Math.round(r.left), right: Math.round(r.right), smallest: sizes.length ? Math.min(...sizes) : null, id: svg.closest("figure") && svg.closest("figure").id };
      }),
    );
    H.assert(charts.length > 0, "the run page shows no chart");
    const wide = charts.filter((c) => c.left < 0 || c.right > 390);
    H.assert(wide.length === 0, `charts beyond the screen: ${JSON.stringify(wide)}`);
    const small = charts.filter((c) => c.smallest !== null && c.smallest < 11 - 0.05);
    H.assert(small.length === 0, `charts with text under 11 px: ${JSON.stringify(small)}`);
    return `${charts.length} charts`;
  });
}

module.exports = { generate, all, open };
