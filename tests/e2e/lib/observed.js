// What the runs observed of the findings' symptoms, read as a reviewer
// reads it, on a phone (390 px): in the imported site, a run typed by hand
// on vLLM 0.29 counted 22 preemptions with no line of the log, which F7
// (affected on 0.28 and 0.30, 0.29 left in range) names as its symptom.
// The version page lists F7 as affected, observed, with the run; the
// matrix cell says observed and links the run; the finding's page has
// "Observed in runs"; the run's page says what it shows before its
// checks; "your version" agrees. In the bundled site, TensorRT-LLM
// 1.3.0rc29 is clean for F8, observed by the pauses run. No page scrolls
// sideways, axe finds nothing, and each state is told in words.
"use strict";

const H = require("./harness");
const axe = require("./axe");
const { context, watchedPage } = require("./browser");

/// One journey in a fresh context (`options.context`: the viewport).
async function journey(env, name, options, fn) {
  await H.check(`journey: ${name}`, async () => {
    const ctx = await context(env.browser, env.srv.origin, options.context || {});
    try {
      const page = await watchedPage(ctx);
      const note = await fn(page);
      H.assertNone(page.problems, "problems on the way");
      return note;
    } finally {
      await ctx.close();
    }
  });
}

const PHONE = { context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };

async function read(page, url) {
  const resp = await page.goto(url);
  H.assert(resp && resp.status() === 200, `${url}: status ${resp && resp.status()}`);
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  H.assert(w.scroll <= w.inner + 1, `${url} scrolls sideways: ${w.scroll}px wide in a ${w.inner}px window`);
  H.assertNone(await axe.run(page), `axe on ${url}`);
}

/// The card of finding `id` in a version page's section of `state`.
function card(page, state, id) {
  return page.locator(`section.version-section.section-${state} article.card[data-id="${id}"]`);
}

async function all(env) {
  const s = env.imported;
  await journey(env, "observed states on a phone: a version a run tested, its matrix cell, the finding and the run", PHONE, async (page) => {
    const v = s.observedVersion;
    await read(page, `${s.base}engines/vllm/${v}/`);
    const f7 = card(page, "affected", 7);
    H.assert((await f7.count()) === 1, `F7 is not listed as affected on vLLM ${v}`);
    H.assert((await card(page, "in-range", 7).count()) === 0, `F7 is still listed as in range on ${v}`);
    const badge = (await f7.locator(".version-state").innerText()).replace(/\s+/g, " ").trim();
    // The version is said to screen readers, hidden from sight.
    H.assert(badge === `vLLM ${v}: affected observed`, `F7's badge on ${v} reads "${badge}"`);
    const overall = (await f7.locator(".status").innerText()).replace(/\s+/g, " ").trim().toLowerCase();
    H.assert(overall === "overall: open", `F7's own status reads "${overall}", not as the overall one`);
    // The card names the run by its id, its title a tooltip.
    const by = f7.locator('.card-observed a[title="Preemptions against log lines on vLLM 0.29"]');
    H.assert((await by.count()) === 1, "F7's card does not name the run that observed it");
    H.assert((await by.innerText()).trim() === s.observedRun, `F7's card names the run "${await by.innerText()}"`);
    H.assert((await f7.locator(".card-observed .obs-outcome").first().innerText()).trim() === "Shown by", "F7's card does not say the run showed it");
    const says = await f7.locator(".card-observed").innerText();
    H.assert(says.includes("22 preemptions counted by vllm:num_preemptions_total; no line of the log mentions one"), `F7's card says: ${says}`);
    // The runs that tested F7 on this version, in the card's order, once each.
    const runsOn = [...new Set(await f7.locator(".card-observed .obs a").evaluateAll((as) => as.map((a) => a.title.replace(/\s+/g, " ").trim())))];
    H.assert(runsOn.includes("Preemptions against log lines on vLLM 0.29"), `F7's card lists ${JSON.stringify(runsOn)}`);
    const firstHref = await f7.locator(".card-observed .obs a").first().evaluate((a) => a.href);
    const verdict = (await page.locator(".version-verdict").innerText()).replace(/\s+/g, " ").trim();
    H.assert(verdict.startsWith(`vLLM ${v}: 1 finding affects it, shown by this site's runs`), `the verdict does not count F7 as affected and shown: ${verdict}`);

    await read(page, `${s.base}engines/vllm/`);
    const cell = page.locator("table.matrix tbody tr", { has: page.locator("th a .fid", { hasText: "F7" }) })
      .locator("td.state.observed");
    H.assert((await cell.count()) === 1, "F7's row has no observed cell");
    H.assert((await cell.getAttribute("class")).includes("state-affected"), "the observed cell is not affected");
    const link = cell.locator("a.cell-by");
    // "observed" to sight; the run's title too, to screen readers.
    const said = (await link.innerText()).replace(/\s+/g, " ").trim();
    // The cell names the first run its version's card lists, and counts
    // the others (with the shared recorded runs, one more ran on 0.29).
    const more = runsOn.length - 1;
    const want = `observed in ${runsOn[0]}` + (more === 0 ? "" : more === 1 ? " and 1 other run" : ` and ${more} other runs`);
    H.assert(said === want, `the observed cell's link reads "${said}", not "${want}"`);
    const cellHref = await link.evaluate((a) => a.href);
    H.assert(cellHref === firstHref, `the observed cell links ${cellHref}, not the first run, ${firstHref}`);

    await read(page, `${s.base}findings/cache-size/`);
    const table = page.getByRole("region", { name: "Observed in runs: the runs and what each shows", exact: true });
    H.assert((await table.count()) === 1, "the finding has no \"Observed in runs\"");
    const rows = await table.locator("tbody tr").evaluateAll((rs) => rs.map((r) => r.innerText.replace(/\s+/g, " ")));
    H.assert(rows.some((r) => r.includes(v) && r.includes("affected") && r.includes("observed") && r.includes("shows it")), `Observed in runs: ${rows.join(" | ")}`);

    await read(page, `${s.base}runs/${s.observedRun}/`);
    const main = await page.locator("main").innerHTML();
    const shows = main.indexOf("What this run shows of the findings");
    H.assert(shows >= 0, "the run page does not say what it shows");
    const checks = main.indexOf("Checked against the findings");
    H.assert(checks < 0 || shows < checks, "the run page says what it shows after its checks");
    const box = page.getByRole("complementary", { name: "What this run shows of the findings" });
    const first = (await box.locator("li.obs").first().innerText()).replace(/\s+/g, " ");
    H.assert(first.startsWith("shows F7 preemptions-unlogged"), `the run first says: ${first}`);
    return `F7 affected on ${v}, observed`;
  });

  await journey(env, "observed states: 'your version' places a finding as the matrix does", {}, async (page) => {
    await page.goto(`${s.base}engines/vllm/`);
    const input = page.locator("#your-version-input");
    await input.waitFor({ state: "visible" });
    await input.pressSequentially(s.observedVersion, { delay: 15 });
    await page.locator("#your-version-result .your-version-section").first().waitFor();
    const affected = page.locator("#your-version-result .your-version-section.section-affected a", { hasText: "F7" });
    H.assert((await affected.count()) === 1, "'your version' does not place F7 as affected on the observed version");
    return "F7 affected";
  });

  await journey(env, "observed states on a phone: the bundled site's clean version, observed", PHONE, async (page) => {
    await read(page, `${env.bundled.base}engines/tensorrt-llm/1.3.0rc29/`);
    const f8 = card(page, "clean", 8);
    H.assert((await f8.count()) === 1, "F8 is not listed as clean on TensorRT-LLM 1.3.0rc29");
    const badge = (await f8.locator(".version-state").innerText()).replace(/\s+/g, " ").trim();
    H.assert(badge === "TensorRT-LLM 1.3.0rc29: clean observed", `F8's badge reads "${badge}"`);
    const outcome = (await f8.locator(".obs-outcome").first().innerText()).trim();
    H.assert(outcome === "Shown absent by", `the run's outcome is told as "${outcome}"`);
    return "F8 clean on 1.3.0rc29, observed";
  });
}

module.exports = { all };
