// The journeys a reader makes, by clicking and typing as a person would.
"use strict";

const fs = require("fs");
const path = require("path");

const H = require("./harness");
const { get } = require("./server");
const { context, watchedPage } = require("./browser");
const axe = require("./axe");

/// Clicks the link `loc` and waits for the page it points to; returns its URL.
async function follow(page, loc) {
  await loc.scrollIntoViewIfNeeded();
  const href = await loc.evaluate((a) => a.href);
  await loc.click();
  await page.waitForURL(href);
  await page.waitForLoadState("load");
  return href;
}

async function text(loc) {
  return (await loc.textContent()).replace(/\s+/g, " ").trim();
}

/// A journey: a fresh context and watched page; fails on any problem the
/// page recorded as well.
async function journey(env, name, options, fn) {
  await H.check(`journey: ${name}`, async () => {
    const ctx = await context(env.browser, env.srv.origin, options.context || {});
    try {
      const page = await watchedPage(ctx, { expect404: options.expect404 || [] });
      const note = await fn(page, ctx);
      H.assertNone(page.problems, "problems on the way");
      return note;
    } finally {
      await ctx.close();
    }
  });
}

function hasFile(env, rel) {
  return fs.existsSync(path.join(env.bundled.out, rel));
}

/// Relative luminance of a CSS rgb()/rgba() colour, 0 (black) to 1 (white).
function luminance(css) {
  const m = /rgba?\(([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)/.exec(css);
  if (!m) throw new Error(`not an rgb colour: ${css}`);
  const [r, g, b] = m.slice(1, 4).map((x) => {
    const c = Number(x) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/// Picks a word that occurs in the body of exactly one finding and nowhere
/// in its title, for the search journey.
function searchWord(found) {
  const findings = [...found.info.values()].filter((p) => p.type === "finding" && p.bodyText);
  const words = (s) => new Set((s.toLowerCase().match(/[a-z]{7,}/g) || []));
  const seen = new Map();
  for (const f of findings) for (const w of words(f.mainText)) seen.set(w, (seen.get(w) || 0) + 1);
  for (const f of findings.sort((a, b) => a.url.localeCompare(b.url))) {
    const title = f.h1.toLowerCase();
    const cands = [...words(f.bodyText)].filter((w) => seen.get(w) === 1 && !title.includes(w)).sort();
    if (cands.length) {
      // A finding with no word sharing the first five letters (search may
      // match prefixes or stems), to check that search does not list everything.
      const stem = cands[0].slice(0, 5);
      const other = findings.find((g) => g !== f && !g.mainText.toLowerCase().includes(stem));
      return { word: cands[0], finding: f, other };
    }
  }
  return null;
}

async function all(env, found) {
  const b = env.bundled;
  const home = b.base;

  await journey(env, "home -> group -> finding -> its run", {}, async (page) => {
    await page.goto(home);
    const groups = page.locator("section.group h2 a");
    const n = await groups.count();
    H.assert(n > 0, "no group headings with links on the home page");
    for (let g = 0; g < n; g++) {
      await page.goto(home);
      const gl = page.locator("section.group h2 a").nth(g);
      const gtitle = await text(gl);
      await follow(page, gl);
      H.assert((await text(page.locator("h1"))) === gtitle, `group page h1 is not "${gtitle}"`);
      const cards = page.locator("main .card-title a");
      const c = await cards.count();
      for (let i = 0; i < c; i++) {
        const groupUrl = page.url();
        const card = page.locator("main .card-title a").nth(i);
        const label = await text(card.locator(".fid"));
        const furl = await follow(page, card);
        H.assert((await text(page.locator(".finding-header .fid"))) === label, `finding page is not ${label}`);
        const kicker = page.locator(".finding-header .kicker a");
        H.assert((await text(kicker)) === gtitle, `finding ${label} does not name its group "${gtitle}"`);
        const run = page.locator("section.links li", { has: page.locator(".link-kind", { hasText: /^run$/ }) }).locator("a");
        if ((await run.count()) === 0) {
          await page.goto(groupUrl);
          continue;
        }
        const rtitle = await text(run.first());
        await follow(page, run.first());
        H.assert((await text(page.locator("h1"))) === rtitle, `run page h1 is not "${rtitle}"`);
        const back = await page.locator("section.backlinks a").evaluateAll((as) => as.map((a) => a.href));
        H.assert(back.includes(furl), `run page does not list ${label} among the findings that cite it`);
        return `${gtitle} -> ${label} -> ${rtitle}`;
      }
    }
    throw new Error("no finding in any group links to a run");
  });

  await journey(env, "engines -> engine -> version -> a finding listed there", {}, async (page) => {
    await page.goto(home);
    await follow(page, page.locator("header nav a", { hasText: /^Engines$/ }));
    // The engine with the most versions.
    const cards = await page.locator(".engine-card").evaluateAll((cs) =>
      cs.map((c) => ({ name: c.querySelector("h2 a").textContent.trim(), versions: c.querySelectorAll(".version-links a").length })),
    );
    const best = cards.sort((a, b) => b.versions - a.versions)[0];
    H.assert(best && best.versions > 0, "no engine lists a version");
    await follow(page, page.locator(".engine-card h2 a", { hasText: best.name }));
    H.assert((await text(page.locator("h1"))).startsWith(best.name), `engine page h1 does not start with ${best.name}`);
    // Matrix: state of every finding at every version, read from the cells.
    const matrix = await readMatrix(page);
    // The version whose column says the most.
    let col = 0;
    let most = -1;
    matrix.versions.forEach((_, j) => {
      const k = matrix.rows.filter((r) => r.states[j] !== "unknown").length;
      if (k > most) [col, most] = [j, k];
    });
    const v = matrix.versions[col];
    await follow(page, page.locator("th.matrix-version a").nth(col));
    H.assert((await text(page.locator("h1"))) === `${best.name} ${v.v}: what to watch for`, `version page h1: ${await text(page.locator("h1"))}`);
    // Each finding is in the section its matrix cell names; unknown ones in none.
    const listed = await page.locator(".version-section").evaluateAll((ss) =>
      ss.flatMap((s) => {
        const state = /section-([a-z-]+)/.exec(s.className)[1];
        return [...s.querySelectorAll(".card-title a")].map((a) => ({ state, url: a.href }));
      }),
    );
    const problems = [];
    for (const r of matrix.rows) {
      const want = r.states[col];
      const got = listed.filter((x) => x.url === r.url).map((x) => x.state);
      const ok = want === "unknown" ? got.length === 0 : got.length === 1 && got[0] === want;
      if (!ok) problems.push(`${r.url}: matrix says ${want}, version page lists it under ${got.join(", ") || "nothing"}`);
    }
    H.assertNone(problems, "matrix and version page disagree");
    // The findings in range are folded: a reader opens them first.
    await page.evaluate(() => document.querySelectorAll("details.version-section").forEach((d) => { d.open = true; }));
    const first = page.locator(".version-section:not(.is-empty) .card-title a").first();
    const label = await text(first.locator(".fid"));
    await follow(page, first);
    H.assert((await text(page.locator(".finding-header .fid"))) === label, `landed on a page that is not ${label}`);
    const engines = await page.locator(".facts dt.fact-engine a").allTextContents();
    H.assert(engines.map((e) => e.trim()).includes(best.name), `${label}'s facts do not name ${best.name}`);
    return `${best.name} -> ${v.v} (${most} findings) -> ${label}`;
  });

  await journey(env, "short URL /f/<id>/ lands on the finding", {}, async (page) => {
    await page.goto(home);
    const card = page.locator("main article.card").first();
    const id = await card.getAttribute("data-id");
    const furl = await card.locator(".card-title a").evaluate((a) => a.href);
    await page.goto(`${home}f/${id}/`, { waitUntil: "commit" });
    await page.waitForURL(furl);
    await page.waitForLoadState("load");
    H.assert((await text(page.locator(".finding-header .fid"))) === `F${id}`, `not F${id}`);
    return `/f/${id}/ -> ${furl.slice(home.length)}`;
  });

  await journey(env, "alias /old/cache/ (fixture site) lands on its finding", {}, async (page) => {
    const f = env.fixture.base;
    await page.goto(`${f}old/cache/`, { waitUntil: "commit" });
    await page.waitForURL(`${f}findings/cache-size/`);
    await page.waitForLoadState("load");
    H.assert((await text(page.locator(".finding-header .fid"))) === "F7", "alias did not land on F7");
  });

  const missing = `${home}no/such/page/`;
  await journey(env, "a missing page answers 404 with the site's styled 404 page", { expect404: [missing] }, async (page) => {
    const resp = await page.goto(missing);
    H.assert(resp.status() === 404, `status ${resp.status()}`);
    H.assert((await text(page.locator("h1"))) === "Page not found", "not the site's 404 page");
    const styled = await page.evaluate(() => [...document.styleSheets].some((s) => s.href && s.cssRules.length > 0));
    H.assert(styled, "the 404 page's stylesheet did not load at this depth");
    await follow(page, page.locator("main a", { hasText: "home page" }));
    H.assert(page.url() === home, `home link went to ${page.url()}`);
  });

  // The finding with a chart, for the copy and dark-mode journeys.
  const withChart = [...found.info.values()].find((p) => p.type === "finding" && p.charts > 0);
  const aFinding = withChart || [...found.info.values()].find((p) => p.type === "finding");

  await journey(env, "'Link to this finding' copy button puts the Markdown link on the clipboard",
    { context: { permissions: ["clipboard-read", "clipboard-write"] } }, async (page) => {
      await page.goto(aFinding.url);
      H.assert(await page.evaluate(() => window.isSecureContext), "http://127.0.0.1 is not a secure context");
      const button = page.locator("button.copy-button");
      await button.waitFor({ state: "visible" });
      const value = await page.locator("#md-link").inputValue();
      const id = /\/f\/(\d+)\/\)$/.exec(value);
      H.assert(id, `Markdown link does not end with the short URL: ${value}`);
      const want = new RegExp(`^\\[F${id[1]}: .+\\]\\(${b.base.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}f/${id[1]}/\\)$`);
      H.assert(want.test(value), `Markdown link is not [F<id>: title](<base>f/<id>/): ${value}`);
      await button.click();
      await page.waitForFunction(() => document.querySelector("button.copy-button").textContent === "Copied", null, { timeout: 3000 });
      const clip = await page.evaluate(() => navigator.clipboard.readText());
      H.assert(clip === value, `clipboard holds ${JSON.stringify(clip)}, want ${JSON.stringify(value)}`);
      const res = await get(`${b.base}f/${id[1]}/`);
      H.assert(res.status === 200, `the link's short URL answers ${res.status}`);
      return clip;
    });

  await journey(env, "with JS off the Markdown link is there to select, the button stays hidden",
    { context: { javaScriptEnabled: false } }, async (page) => {
      await page.goto(aFinding.url);
      H.assert(!(await page.locator("button.copy-button").isVisible()), "copy button is visible without JS");
      const input = page.locator("#md-link");
      const value = await input.inputValue();
      H.assert(/^\[F\d+: .+\]\(http.+\/f\/\d+\/\)$/.test(value), `no Markdown link in the field: ${value}`);
      H.assert(await input.isVisible(), "the field is not visible");
      await input.selectText();
      const sel = await input.evaluate((el) => [el.selectionStart, el.selectionEnd, el.value.length]);
      H.assert(sel[0] === 0 && sel[1] === sel[2], `selection ${sel[0]}..${sel[1]} of ${sel[2]}`);
    });

  await H.check("journey: dark mode changes the page background and the chart text colour", async () => {
    H.assert(withChart, "no finding page has a chart");
    const look = {};
    for (const scheme of ["light", "dark"]) {
      const ctx = await context(env.browser, env.srv.origin, { colorScheme: scheme });
      try {
        const page = await watchedPage(ctx);
        await page.goto(withChart.url);
        look[scheme] = await page.evaluate(() => {
          const svg = document.querySelector("figure.chart svg");
          const t = svg.querySelector("text");
          const cs = getComputedStyle;
          return { bg: cs(document.body).backgroundColor, html: cs(document.documentElement).backgroundColor, color: cs(document.body).color, svg: cs(svg).color, text: cs(t).fill };
        });
        H.assertNone(page.problems, `problems in ${scheme} mode`);
      } finally {
        await ctx.close();
      }
    }
    const bg = (l) => (l.bg === "rgba(0, 0, 0, 0)" ? l.html : l.bg);
    const { light, dark } = look;
    H.assert(luminance(bg(light)) > 0.7, `light background is not light: ${bg(light)}`);
    H.assert(luminance(bg(dark)) < 0.1, `dark background is not dark: ${bg(dark)}`);
    H.assert(luminance(light.text) < 0.2, `chart text in light mode is not dark: ${light.text}`);
    H.assert(luminance(dark.text) > 0.5, `chart text in dark mode is not light: ${dark.text}`);
    H.assert(dark.text === dark.svg && light.text === light.svg, `chart text does not follow currentColor: ${JSON.stringify(look)}`);
    return `background ${bg(light)} -> ${bg(dark)}, chart text ${light.text} -> ${dark.text}`;
  });

  await journey(env, "keyboard: the first Tab reaches 'Skip to content', Enter moves to the main content", {}, async (page) => {
    await page.goto(aFinding.url);
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const a = document.activeElement;
      const r = a.getBoundingClientRect();
      return { cls: a.className, text: a.textContent.trim(), visible: r.width > 1 && r.height > 1 && r.top >= 0 && r.left >= 0 };
    });
    H.assert(focused.text === "Skip to content", `first Tab focused ${JSON.stringify(focused)}`);
    H.assert(focused.visible, "the skip link is not visible when focused");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === "main", null, { timeout: 3000 });
    H.assert(page.url().endsWith("#main"), `URL after skip: ${page.url()}`);
  });

  // --- Search, filters and "your version" (issue 5): each fails when its
  // page or markup is missing from the build.
  const noSearch = "no search/index.html in the build: the search page (issue 5) is missing";
  const sw = searchWord(found);

  await journey(env, "search: a word from a finding's body, typed into the header box, finds it", {}, async (page) => {
    H.assert(hasFile(env, "search/index.html"), noSearch);
    H.assert(sw, "no word occurs in the body of just one finding");
    await page.goto(home);
    const box = page.locator('header input[type="search"], header input[name="q"], [role="search"] input').first();
    H.assert((await box.count()) === 1, "no search box in the page header");
    await box.click();
    await box.pressSequentially(sw.word, { delay: 15 });
    await Promise.all([page.waitForURL((u) => u.href !== home), box.press("Enter")]);
    await page.waitForLoadState("load");
    const where = page.url();
    if (where.split("?")[0] !== sw.finding.url) {
      // The search page fetches what the query needs, then lists the results.
      await page.locator("#search-results a").first().waitFor({ state: "visible", timeout: 5000 });
      const links = await page.locator("main a").evaluateAll((as) => as.map((a) => a.href));
      H.assert(links.includes(sw.finding.url), `"${sw.word}" did not find ${sw.finding.url} (at ${where})`);
      if (sw.other) H.assert(!links.includes(sw.other.url), `"${sw.word}" also found ${sw.other.url}, which does not contain it`);
    }
    return `"${sw.word}" -> ${sw.finding.h1.slice(0, 40)}`;
  });

  await journey(env, "search: /search/?q=<word> lists the finding", {}, async (page) => {
    H.assert(hasFile(env, "search/index.html"), noSearch);
    await page.goto(`${home}search/?q=${encodeURIComponent(sw.word)}`);
    const link = page.locator("main a").filter({ hasText: sw.finding.h1.split(":")[0] }).first();
    await link.waitFor({ state: "visible", timeout: 5000 });
    const href = await link.evaluate((a) => a.href);
    H.assert(href === sw.finding.url, `first hit links to ${href}`);
  });

  await journey(env, "search: with JS off the search page says it needs JavaScript", { context: { javaScriptEnabled: false } }, async (page) => {
    H.assert(hasFile(env, "search/index.html"), noSearch);
    await page.goto(`${home}search/?q=${encodeURIComponent(sw ? sw.word : "cache")}`);
    const said = await page.locator("main").innerText();
    H.assert(/needs JavaScript/i.test(said), "the search page does not say that search needs JavaScript");
  });

  await journey(env, "keyboard: Tab from the top reaches the search box", {}, async (page) => {
    H.assert(hasFile(env, "search/index.html"), noSearch);
    await page.goto(home);
    const reached = await tabUntil(page, (el) => el.tag === "input" && (el.type === "search" || el.name === "q"), 40);
    H.assert(reached, "40 presses of Tab did not reach the search box");
    return `${reached} Tabs`;
  });

  // Home-page filters: #filters with rows [data-filter=engine|version|…]
  // of links (a[data-value]) that filter the cards in place with JS.
  const noFilters = "no #filters on the home page: the home-page filters (issue 5) are missing";
  const vpage = bestVersionPage(found);

  await journey(env, "home: filter by engine version shows the findings that affect it", {}, async (page) => {
    await page.goto(home);
    H.assert((await page.locator("#filters").count()) === 1, noFilters);
    H.assert(vpage, "no version page in the site");
    // What the version page says affects that version: affected and in range.
    await page.goto(vpage.url);
    const want = await affects(page);
    await page.goto(home);
    const engineChip = page.locator(`#filters [data-filter="engine"] a[data-value="${vpage.engine}"]`);
    await engineChip.click();
    await page.waitForURL((u) => u.searchParams.get("engine") === vpage.engine);
    const versionChip = page.locator(`#filters [data-filter="version"] ul[data-engine="${vpage.engine}"] a[data-value="${vpage.version}"]`);
    await versionChip.click();
    await page.waitForURL((u) => u.searchParams.get("version") === vpage.version);
    const got = await shownCards(page);
    H.assert(sameSet(got, want), `filter ${vpage.engine} ${vpage.version} shows ${fmt(got)}; the version page says ${fmt(want)}`);
    // The address holds the filter: opening it shows the same set.
    const shared = page.url();
    await page.goto(home);
    await page.goto(shared);
    const again = await shownCards(page);
    H.assert(sameSet(again, want), `${shared} shows ${fmt(again)}, want ${fmt(want)}`);
    // Without JS the same chip is a link to the version page.
    H.assert((await versionChip.evaluate((a) => a.href)) === vpage.url, "the version chip does not link to the version page");
    return `${vpage.engine} ${vpage.version}: ${want.length} findings`;
  });

  await journey(env, "keyboard: Tab from the top reaches the home-page filters and Enter applies one", {}, async (page) => {
    await page.goto(home);
    H.assert((await page.locator("#filters").count()) === 1, noFilters);
    const n = await tabUntil(page, (el) => el.inFilters, 80);
    H.assert(n, "80 presses of Tab did not reach a filter");
    const value = await page.evaluate(() => document.activeElement.getAttribute("data-value"));
    const key = await page.evaluate(() => document.activeElement.closest("[data-filter]").getAttribute("data-filter"));
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.searchParams.get(key) === value);
    const shown = await shownCards(page);
    const total = await page.locator("section.group article.card").count();
    H.assert(shown.length > 0 && shown.length < total, `Enter on the ${key} filter ${value} shows ${shown.length} of ${total} cards`);
    return `${n} Tabs to ${key}=${value}, ${shown.length} of ${total} shown`;
  });

  await journey(env, "engine page: 'your version' box agrees with the matrix", {}, async (page) => {
    H.assert(vpage, "no version page in the site");
    const engineUrl = vpage.url.replace(/[^/]+\/$/, "");
    await page.goto(engineUrl);
    H.assert((await page.locator("#your-version").count()) === 1, "no #your-version on the engine page: 'your version' (issue 5) is missing");
    const input = page.locator("#your-version-input");
    await input.waitFor({ state: "visible" });
    const matrix = await readMatrix(page);
    const col = matrix.versions.findIndex((v) => v.url === vpage.url);
    H.assert(col >= 0, `${vpage.version} is not a column of the matrix`);
    await input.click();
    await input.pressSequentially(vpage.version, { delay: 15 });
    await page.locator("#your-version-result .your-version-section").first().waitFor();
    const listed = await page.locator("#your-version-result .your-version-section").evaluateAll((ss) =>
      ss.flatMap((s) => {
        const state = /section-([a-z-]+)/.exec(s.className)[1];
        return [...s.querySelectorAll("a")].map((a) => ({ state, url: a.href }));
      }),
    );
    const problems = [];
    for (const r of matrix.rows) {
      const got = listed.filter((x) => x.url === r.url).map((x) => x.state);
      if (got.length !== 1 || got[0] !== r.states[col]) problems.push(`${r.url}: matrix says ${r.states[col]}, the box says ${got.join(", ") || "nothing"}`);
    }
    H.assertNone(problems, `'your version' ${vpage.version} and the matrix disagree`);
    // A version that is not listed still gets an answer for every finding.
    await input.fill("");
    await input.pressSequentially(`${vpage.version}.99`, { delay: 15 });
    await page.waitForFunction(() => /not a listed version|newer than|older than/.test(document.querySelector("#your-version-result").textContent), null, { timeout: 3000 });
    const placed = await page.locator("#your-version-result .your-version-section a").count();
    H.assert(placed === matrix.rows.length, `an unlisted version places ${placed} findings of ${matrix.rows.length}`);
    return `${vpage.engine} ${vpage.version}: ${matrix.rows.length} findings agree`;
  });
}

/// The engine pages of the site, from the crawl.
function enginePages(found) {
  return [...found.info.values()].filter((p) => p.type === "engine").map((p) => p.url).sort();
}

/// The version page with the most findings listed as affecting it.
function bestVersionPage(found) {
  let best = null;
  for (const p of found.info.values()) {
    if (p.type !== "version") continue;
    const m = /engines\/([^/]+)\/([^/]+)\/$/.exec(p.url);
    const n = (p.mainText.match(/F\d+/g) || []).length;
    if (!best || n > best.n) best = { url: p.url, engine: m[1], version: decodeURIComponent(m[2]), n };
  }
  return best;
}

/// The ids of the findings a version page lists as affected or in range.
async function affects(page) {
  return page.locator(".version-section.section-affected article.card, .version-section.section-in-range article.card")
    .evaluateAll((cs) => cs.map((c) => c.getAttribute("data-id")).sort());
}

/// The ids of the cards the home page shows, once its filters have been
/// applied (they fetch what covers every finding first).
async function shownCards(page) {
  await page.waitForFunction(() => {
    const bar = document.getElementById("filters");
    return !bar || !bar.hasAttribute("data-state") || bar.getAttribute("data-state") === "ready";
  }, null, { timeout: 10000 });
  return page.locator("section.group article.card").evaluateAll((cs) =>
    cs.filter((c) => c.offsetParent !== null).map((c) => c.getAttribute("data-id")).sort());
}

function sameSet(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function fmt(ids) {
  return ids.length ? ids.map((i) => `F${i}`).join(" ") : "none";
}

/// The matrix of an engine page: versions (text, url) and rows (url, states).
async function readMatrix(page) {
  return page.locator("table.matrix").evaluate((t) => {
    const versions = [...t.querySelectorAll("thead th.matrix-version a")].map((a) => ({ v: a.textContent.trim(), url: a.href }));
    const rows = [...t.querySelectorAll("tbody tr")].map((tr) => ({
      url: tr.querySelector("th a").href,
      states: [...tr.querySelectorAll("td.state")].map((td) => /state-([a-z-]+)/.exec(td.className)[1]),
    }));
    return { versions, rows };
  });
}

/// Presses Tab until `want(focused)` holds; the number of presses or 0.
async function tabUntil(page, want, max) {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press("Tab");
    const el = await page.evaluate(() => {
      const a = document.activeElement;
      return {
        tag: a.tagName.toLowerCase(), type: a.getAttribute("type"), name: a.getAttribute("name"), id: a.id,
        inFilters: !!(a.closest && a.closest("#filters") && a.matches("a[data-value]")),
      };
    });
    if (want(el)) return i;
  }
  return 0;
}

/// Journeys on "seen" versions: the problem showed while the version ran,
/// but it does not lie in the engine.
async function seen(env, found) {
  await journey(env, "engine page: a seen cell reads as seen, and 'your version' lists it as seen, not as a fault", {}, async (page) => {
    let hit = null;
    for (const url of enginePages(found)) {
      await page.goto(url);
      const matrix = await readMatrix(page);
      for (const r of matrix.rows) {
        const j = r.states.indexOf("seen");
        if (j >= 0) {
          hit = { url, row: r, version: matrix.versions[j], matrix };
          break;
        }
      }
      if (hit) break;
    }
    // The bundled site lists seen versions (F14, F16, F18 and F19 on vLLM 0.27.1).
    H.assert(hit, "no engine page has a seen cell, though findings list seen versions");
    const legend = await text(page.locator("section.legend"));
    H.assert(/Seen\b.*not lie in the engine/.test(legend), `the legend does not explain seen: ${legend}`);
    const cell = page.locator("table.matrix td.state-seen").first();
    H.assert((await text(cell)) === "seen", `a seen cell says "${await text(cell)}"`);
    const input = page.locator("#your-version-input");
    await input.click();
    await input.pressSequentially(hit.version.v, { delay: 15 });
    const section = page.locator("#your-version-result .your-version-section.section-seen");
    await section.waitFor();
    const listed = await section.locator("a").evaluateAll((as) => as.map((a) => a.href));
    H.assert(listed.includes(hit.row.url), `'your version' ${hit.version.v} does not list ${hit.row.url} as seen`);
    const faults = await page.locator("#your-version-result .section-affected a, #your-version-result .section-in-range a")
      .evaluateAll((as) => as.map((a) => a.href));
    H.assert(!faults.includes(hit.row.url), `${hit.row.url} is also listed as a fault of ${hit.version.v}`);
    // The version page lists it under seen too.
    await follow(page, page.locator("th.matrix-version a", { hasText: hit.version.v }).first());
    const under = await page.locator("section.version-section.section-seen .card-title a").evaluateAll((as) => as.map((a) => a.href));
    H.assert(under.includes(hit.row.url), `the ${hit.version.v} page does not list it under seen`);
    return `${hit.row.url.split("/").slice(-2, -1)[0]} at ${hit.version.v}`;
  });
}

/// The run read from result files: its page shows the files with their
/// hashes, what they say (with the file each fact came from), a series
/// chart with the concurrency asked for marked and a distribution chart;
/// the published copy of a file is what the page says it is. (axe and the
/// Nu checker see the page with every other page of the site.)
async function importedRun(env) {
  const s = env.imported;
  await journey(env, "imported run: result files, their facts, a series chart with its mark and a cdf chart", {}, async (page) => {
    const url = `${s.base}runs/${s.run}/`;
    const resp = await page.goto(url);
    H.assert(resp && resp.status() === 200, `${url}: status ${resp && resp.status()}`);
    const files = await page.locator("section.evidence table.files tbody tr").count();
    H.assert(files >= 7, `the page lists ${files} result files, expected the run folder's and the detailed file`);
    const said = await text(page.locator("section.evidence .facts").first());
    for (const fact of ["Concurrency asked for", "Most requests the server ran", "Preemptions during the run", "KV cache of the start"]) {
      H.assert(said.includes(fact), `"What the files say" lacks ${fact}: ${said}`);
    }
    H.assert(/from\s+raw\//.test(said), "the facts do not name the file they came from");
    H.assert((await page.locator("svg.plot-line .plot-rules line").count()) === 1, "the series chart has no mark of the concurrency asked for");
    H.assert((await page.locator("svg.plot-cdf").count()) >= 1, "no distribution (cdf) chart");
    const desc = await page.locator("svg.plot-cdf desc").first().textContent();
    H.assert(/^Cumulative distribution of TTFT \(ms\): median /.test(desc), `the cdf's description: ${desc}`);
    // The published copy is the one the page hashes.
    const link = page.locator("section.evidence table.files tbody tr", { hasText: "detailed.json" }).first();
    const href = await link.locator("a").getAttribute("href");
    const shown = (await text(link.locator("code.hash"))).trim();
    const bytes = await page.evaluate(async (h) => {
      const r = await fetch(h);
      const d = await crypto.subtle.digest("SHA-256", await r.arrayBuffer());
      return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
    }, new URL(href, url).href);
    H.assert(bytes === shown, `the published detailed.json hashes to ${bytes}, the page says ${shown}`);
    return `${files} files`;
  });
}

/// Runs compared, read on a phone (390 px): the bundled comparison with the
/// report's deltas, the imported site's comparison of two versions with
/// repeats (beyond noise), the version page's "what changed", and an
/// imported run page: no sideways scroll of the page, axe clean, no number
/// printed with seven decimals or more.
async function comparedRuns(env) {
  const phone = { context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } };
  const read = async (page, url) => {
    const resp = await page.goto(url);
    H.assert(resp && resp.status() === 200, `${url}: status ${resp && resp.status()}`);
    const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    H.assert(w.scroll <= w.inner + 1, `${url} scrolls sideways: ${w.scroll}px wide in a ${w.inner}px window`);
    const found = await axe.run(page);
    H.assertNone(found, `axe on ${url}`);
    // innerText: a table's cells apart, as a reader sees them.
    const main = await page.locator("main").innerText();
    const long = main.match(/\d\.\d{7,}/g) || [];
    H.assertNone(long, `numbers with seven decimals or more on ${url}`);
    return main.replace(/\s+/g, " ");
  };
  const screenWidth = phone.context.viewport.width;
  // Every cell, and every change in it, is on screen, not scrolled away
  // behind the values it compares (long side names, or a third side,
  // once pushed the change column off a phone).
  const changesOnScreen = async (page, url) => {
    const ends = await page.locator("table.compare td .change").evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().right));
    H.assert(ends.length > 0, `${url} has no change`);
    const cells = await page.locator("table.compare td").evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().right));
    const off = ends.concat(cells).filter((r) => r > screenWidth + 0.5);
    H.assertNone(off, `change cells ending off a ${screenWidth}px screen on ${url}`);
    return ends.length;
  };
  // Each change says which way it goes in words (shown, not only in a
  // colour), and better and worse are told apart by colour too; a change
  // within the noise between runs is neither (issue 43), one that rounds
  // to 0% the same.
  const directionsInWords = async (page, url) => {
    const heads = await page.locator("table.compare .change-head").evaluateAll((hs) =>
      hs.map((h) => ({
        text: h.textContent.trim(),
        shown: getComputedStyle(h).display !== "none" && h.getBoundingClientRect().width > 0,
        colour: getComputedStyle(h).color,
        dir: h.parentElement.className.match(/change-(better|worse|same|within)/)[1],
      })),
    );
    const said = { better: " better,", worse: " worse,", same: " the same", within: "," };
    const bad = heads.filter((h) => !h.shown || !new RegExp(`^[+−]?[\\d.,]+%${said[h.dir]}$`).test(h.text));
    H.assertNone(bad.map((h) => `${h.text} (${h.dir})`), `changes without their direction in words on ${url}`);
    const colour = (d) => new Set(heads.filter((h) => h.dir === d).map((h) => h.colour));
    const [better, worse] = [colour("better"), colour("worse")];
    for (const c of better) H.assert(!worse.has(c), `better and worse share the colour ${c} on ${url}`);
    return heads.map((h) => h.dir);
  };
  // For a person to look at, beside the suite's other screenshots.
  const shoot = async (page, name) => {
    fs.mkdirSync(env.shots, { recursive: true });
    await page.screenshot({ path: path.join(env.shots, `${name}.png`), fullPage: true, animations: "disabled" });
  };
  const columns = async (page) => (await page.locator("table.compare").first().locator("thead th").count()) - 1;
  // The verdict in words leads the page: above the first table, and in
  // the first phone screen (`screen`: a page whose record gives no long
  // caption above it), in words of which way the changes went.
  const verdictFirst = async (page, url, screen = true) => {
    const at = await page.evaluate(() => {
      const v = document.querySelector(".compare-verdict");
      const t = document.querySelector("table.compare");
      return v && { top: v.getBoundingClientRect().top + window.scrollY, bottom: v.getBoundingClientRect().bottom + window.scrollY, table: t ? t.getBoundingClientRect().top + window.scrollY : Infinity, text: v.textContent };
    });
    H.assert(at, `${url} has no .compare-verdict`);
    H.assert(!screen || at.bottom <= phone.context.viewport.height, `the verdict of ${url} ends at ${Math.round(at.bottom)}px, below the first ${phone.context.viewport.height}px`);
    H.assert(at.top < at.table, `the verdict of ${url} comes after its table`);
    H.assert(/ against .*: .*(worse|better|the same|within noise|untested)/.test(at.text), `the verdict of ${url} says no way: ${at.text}`);
    return at.text;
  };
  await journey(env, "compared runs on a phone: the bundled comparison's deltas", phone, async (page) => {
    const main = await read(page, `${env.bundled.base}compare/c1-depth-nvfp4-vs-vllm-mtp3/`);
    // The record states the report's ±5–10% at its top: +0.5% is within
    // noise, not better (issue 43).
    for (const d of ["−7.7%, within noise (±10%)", "+0.5%, within noise (±10%)", "+4.9%, within noise (±10%)", "+26% better, beyond noise (±10%)", "+35% better, beyond noise (±10%)"]) H.assert(main.includes(d), `the comparison lacks ${d}: ${main}`);
    H.assert(main.includes("127.1 tok/s") && main.includes("117.3 tok/s"), `the comparison lacks the depth-0 figures: ${main}`);
    await changesOnScreen(page, "the bundled comparison");
    await directionsInWords(page, "the bundled comparison");
    const said = await verdictFirst(page, "the bundled comparison", false);
    H.assert(said.startsWith("NInfer NVFP4 against vLLM 0.27.1 MTP@3, each change vLLM 0.27.1 MTP@3's: better on 2 of 5 workloads beyond noise"), `the bundled comparison's verdict names its sides in its title's order: ${said}`);
    // In the header of every page, and on the home page.
    await read(page, env.bundled.base);
    const nav = page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Comparisons" });
    H.assert((await nav.count()) === 1, "the site's header does not link the comparisons");
    const listed = page.getByRole("region", { name: "Runs compared" }).getByRole("link", { name: /NInfer NVFP4 against vLLM/ });
    H.assert((await listed.count()) === 1, "the home page does not list the bundled comparison");
    return "5 depths, in the header and on the home page";
  });
  const s = env.imported;
  await journey(env, "compared runs on a phone: three sides with repeats, what changed, an imported run", phone, async (page) => {
    let main = await read(page, `${s.base}compare/${s.comparison}/`);
    H.assert((await columns(page)) === 3, `${s.comparison} does not set three sides side by side`);
    H.assert(main.includes("605.0 tok/s (600.0–610.0, 2 runs)"), `no mean and range of the repeats at one precision: ${main}`);
    H.assert(main.includes("+16% better, beyond noise"), `0.30's change is not better beyond noise: ${main}`);
    H.assert(main.includes("−7% worse, beyond noise"), `0.28's change is not worse beyond noise: ${main}`);
    const n = await changesOnScreen(page, s.comparison);
    const dirs = await directionsInWords(page, s.comparison);
    await verdictFirst(page, s.comparison);
    H.assert(dirs.includes("better") && dirs.includes("worse"), `${s.comparison}: directions ${dirs}`);
    await shoot(page, "compare-three-sides-phone");
    main = await read(page, `${s.base}engines/vllm/0.30/`);
    H.assert(main.includes("What changed since 0.29"), `the 0.30 page says nothing of 0.29: ${main}`);
    // Its verdict once, under the page's own (issue 43).
    const changed = page.locator(".compare-verdict");
    H.assert((await changed.count()) === 1, "what changed since 0.29 has no verdict, or more than one (.compare-verdict)");
    const words = await changed.textContent();
    H.assert(words.startsWith("vLLM 0.30 against 0.29: better on 1 of "), `what changed since 0.29 says: ${words}`);
    // Above the empty sections, not below their "None.".
    const above = await page.evaluate(() => {
      const changed = document.getElementById("changed-heading");
      const empty = document.querySelector(".version-section.is-empty");
      return !empty || Boolean(changed.compareDocumentPosition(empty) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    H.assert(above, "what changed comes after an empty section on the 0.30 page");
    main = await read(page, `${s.base}runs/${s.run}/`);
    H.assert(main.includes("Headline figures"), `the imported run has no headline figures: ${main}`);
    if (s.shared) {
      main = await read(page, `${s.base}runs/xray-028/`);
      H.assert(main.includes("336.3 tok/s"), `the xray run does not show 336.3 tok/s: ${main}`);
      main = await read(page, `${s.base}compare/xray-028-029/`);
      H.assert((await columns(page)) === 3, "the recorded runs' comparison does not set three sides side by side");
      for (const t of ["341.4 tok/s", "223.0 tok/s", "+1.5% better,", "−34% worse,", "untested", "ran ≤10 of 32", "ran ≤5 of 32",
        "asked for 32 at once", "ran at most 5 requests at once of the 32 asked", "Flagged.", "All 3 sides ran fewer requests at once than asked (flagged by concurrency-achieved)",
        "Why fewer ran: 32 requests of 88 + 1,000 tokens ask for 34,816 tokens of KV cache"]) {
        H.assert(main.includes(t), `the recorded runs' comparison lacks "${t}": ${main}`);
      }
      H.assert(!/concurrency 32(?! asked)/.test(main), `a heading claims concurrency 32 as what ran: ${main}`);
      const cite = page.getByRole("note").getByRole("link", { name: "F7" });
      H.assert((await cite.count()) >= 1, "the note of the sides that ran fewer does not link F7");
      await changesOnScreen(page, "xray-028-029");
      await directionsInWords(page, "xray-028-029");
      await verdictFirst(page, "xray-028-029");
      await shoot(page, "compare-recorded-three-sides-phone");
    }
    return `${n} changes on screen${s.shared ? ", with the shared recorded runs" : ", fixtures only (FINDINGS_SHARED not set)"}`;
  });
}

/// The checks on the imported run: its page's box "Checked against the
/// findings" shows one check flagged, one passed and one acknowledged
/// with its reason, each linked to the finding that names it; following
/// that link, the finding's page lists the run among those its checks
/// flagged, and its link leads back to the run.
async function checkedRun(env) {
  const s = env.imported;
  await journey(env, "checked run: flagged, passed and acknowledged checks, and the finding that lists the run", {}, async (page) => {
    const url = `${s.base}runs/${s.run}/`;
    const resp = await page.goto(url);
    H.assert(resp && resp.status() === 200, `${url}: status ${resp && resp.status()}`);
    const box = page.getByRole("complementary", { name: "Checked against the findings" });
    H.assert((await box.count()) === 1, "the run page has no box \"Checked against the findings\"");
    const verdict = async (name) => {
      const li = box.locator("li.check", { has: page.locator("code", { hasText: name }) });
      H.assert((await li.count()) === 1, `the box does not list ${name}`);
      return [(await text(li.locator(".check-verdict"))).trim(), await text(li)];
    };
    const [flagged, why] = await verdict("concurrency-achieved");
    H.assert(flagged === "flagged", `concurrency-achieved is ${flagged}, expected flagged`);
    H.assert(why.includes("asked for 4 requests at once; the server never ran more than 2"), `concurrency-achieved says: ${why}`);
    const [passed, counted] = await verdict("preemptions-read");
    H.assert(passed === "passed", `preemptions-read is ${passed}, expected passed`);
    H.assert(counted.includes("3 during the run"), `preemptions-read says: ${counted}`);
    const [acked, reason] = await verdict("no-lost-requests");
    H.assert(acked === "acknowledged", `no-lost-requests is ${acked}, expected acknowledged (never passed)`);
    H.assert(reason.includes("Acknowledged: The failed request is the one the fixture keeps"), `no-lost-requests gives no reason: ${reason}`);
    // Each verdict is told by its word, not by colour alone.
    const words = await box.locator(".check-verdict").evaluateAll((es) => es.map((e) => getComputedStyle(e).display !== "none" && e.textContent.trim()));
    H.assert(words.every(Boolean), `a verdict is not shown as a word: ${words}`);
    // The finding that names the check lists the run as flagged.
    const li = box.locator("li.check", { has: page.locator("code", { hasText: "concurrency-achieved" }) });
    await follow(page, li.locator("a").first());
    const section = page.getByRole("region", { name: /Runs this finding's checks flagged/ });
    H.assert((await section.count()) === 1, `${page.url()} has no section of flagged runs`);
    const rows = section.locator("li.check");
    const listed = await rows.evaluateAll((ls) => ls.map((l) => l.textContent));
    H.assert(listed.some((l) => l.includes("concurrency-achieved") && l.includes("flagged")), `the finding lists: ${listed.join(" | ")}`);
    const back = section.locator("li.check", { hasText: "concurrency-achieved" }).locator("a").first();
    await follow(page, back);
    H.assert(page.url() === url, `the flagged run's link leads to ${page.url()}, not ${url}`);
    return `${listed.length} flagged on the finding`;
  });
}

module.exports = {
  comparedRuns, all, seen, importedRun, checkedRun, luminance, follow, tabUntil };
