// Workload pages (issue 39), read in Chromium at 390 x 844: a new site
// (`findings init --engine llama-cpp --engine vllm`) with the shared
// llama.cpp series imported (twelve llama-bench reports, builds 6119 to
// 9187, each dated from ../shared/trendsets/INDEX.md) and the recorded
// vLLM runs 0.29/live and 0.30/live (points a check flags: the server ran
// fewer requests at once than asked). On each workload page:
// - status 200, no sideways scroll, axe clean;
// - every chart inside the screen (left >= 0, right <= 390) with its text
//   at least 11 px (font size times the transform's scale);
// - every table readable: inside the screen, or in a scroll container of
//   its own that is, with every version of the series in it;
// - flagged points drawn hollow, as many as the table's flagged rows;
// - each regression the table lists marked in its chart with the same
//   change in words, and every whisker's caps at least 12 px across;
// - its verdict within the first screen, in the words of `findings trends`
//   (issue 43): the llama.cpp series judged by its own history (tg128's
//   −2.5% at 8577 within the noise of the five builds before it, so no
//   regression), the vLLM runs untested (single runs), each with its size.
// The Nu HTML Checker reads the site's pages with the other sites'
// (validate.js). Without the shared files (FINDINGS_SHARED), the site
// cannot be made: each check says so.
"use strict";

const fs = require("fs");
const path = require("path");

const H = require("./harness");
const { findings } = require("./site");
const { context, watchedPage } = require("./browser");
const { open } = require("./answers");

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const WIDTH = 390;
const SERIES = "llamacpp-strixhalo-gpt-oss-20b-vulkan";

/// The series as INDEX.md lists it: (file, day, build).
function series(shared) {
  const index = fs.readFileSync(path.join(shared, "trendsets", "INDEX.md"), "utf8");
  const out = [];
  for (const line of index.split("\n")) {
    const m = /^\| `(b(\d+)-[^`]+\.log)` \| `[0-9a-f]+` \| (\d{4}-\d{2}-\d{2}) \|/.exec(line);
    if (m) out.push({ file: path.join(shared, "trendsets", SERIES, m[1]), build: m[2], day: m[3] });
  }
  if (out.length !== 12) throw new Error(`trendsets/INDEX.md lists ${out.length} files of the series, not 12`);
  return out;
}

/// The site in `root`; null without the shared files.
function generate(root) {
  const shared = process.env.FINDINGS_SHARED;
  if (!shared) return null;
  fs.rmSync(root, { recursive: true, force: true });
  findings(["init", root, "--engine", "llama-cpp", "--engine", "vllm", "--quiet"]);
  const builds = [];
  for (const s of series(shared)) {
    findings(["import", `llama-b${s.build}`, s.file, "--engine", "llama-cpp", "--date", s.day, "--root", root]);
    builds.push(s.build);
  }
  const runs = path.join(shared, "recorded-runs");
  findings(["import", "live29", path.join(runs, "vllm-0.29", "live"), "--engine", "vllm", "--version", "0.29.0", "--root", root]);
  findings(["import", "live30", path.join(runs, "vllm-0.30", "live"), "--engine", "vllm", "--version", "0.30.0", "--root", root]);
  return {
    pages: [
      {
        slug: "gpt-oss-20b-mxfp4-moe-pp512", versions: builds, flagged: false,
        verdict: "11 changes between versions: better on 2 of 11 beyond noise (tokens a second +64% on llama.cpp 6486 against 6182, tokens a second +13% on llama.cpp 8577 against 7938); 7 within noise",
        row: ["8577", "+13% better, beyond noise (±8.6%)"],
      },
      {
        slug: "gpt-oss-20b-mxfp4-moe-tg128", versions: builds, flagged: false,
        verdict: "11 changes between versions: better on 1 of 11 beyond noise (tokens a second +4% on llama.cpp 6486 against 6182); 8 within noise",
        row: ["8577", "−2.5%, within noise (±9.4%)"],
      },
      {
        slug: "qwen3.8-27b-w4a16-autoround-88-in-1000-out-32-at-once-rate-unlimited", versions: ["0.29.0", "0.30.0"], flagged: true,
        verdict: "6 changes between versions: 5 of 6 untested, single runs: worse on 4 (TPOT p99 +14% on vLLM 0.30.0 against 0.29.0, output throughput −7.4% on vLLM 0.30.0 against 0.29.0, …)",
        row: ["0.30.0", "−7.4% worse, untested"],
      },
    ],
  };
}

/// Every chart of the page: its box and the smallest text a reader sees.
function charts(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".chart-svg svg.plot")].map((svg) => {
      const r = svg.getBoundingClientRect();
      const sizes = [...svg.querySelectorAll("text")].map((t) => {
        const m = t.getScreenCTM();
        return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      });
      return {
        left: Math.round(r.left),
        right: Math.round(r.right),
        smallest: sizes.length ? Math.min(...sizes) : null,
        title: (svg.querySelector("title") || {}).textContent,
        hollow: svg.querySelectorAll("circle.plot-flagged").length,
        regressed: svg.querySelectorAll(".plot-regression").length,
        marked: [...svg.querySelectorAll("text.plot-marker-label")].map((t) => t.textContent),
        // Each whisker's box as drawn: its caps' width, its height.
        whiskers: [...svg.querySelectorAll("path.plot-noise")].map((p) => {
          const b = p.getBoundingClientRect();
          return { w: b.width, h: b.height };
        }),
      };
    }),
  );
}

/// Every table of the page: its box, the box of the nearest ancestor that
/// scrolls sideways (if any), its text, its flagged rows.
function tables(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("main table")].map((t) => {
      const r = t.getBoundingClientRect();
      let wrap = t.parentElement;
      while (wrap && wrap.tagName !== "MAIN") {
        const o = getComputedStyle(wrap).overflowX;
        if (o === "auto" || o === "scroll") break;
        wrap = wrap.parentElement;
      }
      const w = wrap && wrap.tagName !== "MAIN" ? wrap.getBoundingClientRect() : null;
      return {
        left: Math.round(r.left),
        right: Math.round(r.right),
        wrap: w && { left: Math.round(w.left), right: Math.round(w.right), focusable: wrap.tabIndex >= 0 },
        versions: [...t.querySelectorAll("tbody th[scope=row] > a, tbody th[scope=row] > span.muted")].map((a) => a.textContent.trim()),
        flagged: t.querySelectorAll("tbody tr.flagged").length,
        regressions: [...t.querySelectorAll(".change-regression")].map((c) => c.textContent.trim().split(" ")[0]),
        caption: (t.querySelector("caption") || {}).textContent,
      };
    }),
  );
}

async function all(env) {
  const info = env.workloads;
  const pages = info ? info.pages : [{ slug: "(the shared series)" }];
  for (const w of pages) {
    await H.check(`workload page at 390 px: ${w.slug}`, async () => {
      if (!info) {
        H.notApplicable("the workloads' site needs the shared llama.cpp series and recorded runs of ../shared (FINDINGS_SHARED is not set), so it was not built");
      }
      const ctx = await context(env.browser, env.srv.origin, PHONE);
      try {
        const page = await watchedPage(ctx);
        const url = `${info.base}workloads/${w.slug}/`;
        await open(page, url);
        // The verdict, within the first screen, in the trends' words.
        const verdict = await page.evaluate(() => {
          const p = document.querySelector(".workload-verdict");
          return p && { top: Math.round(p.getBoundingClientRect().top), text: p.textContent.replace(/\s+/g, " ").trim() };
        });
        H.assert(verdict && verdict.top < 844, `the verdict is at ${verdict && verdict.top} px`);
        H.assert(verdict.text.startsWith(w.verdict), `the verdict reads "${verdict.text}"`);
        H.assert(!/regression/.test(verdict.text), `no regression is said: "${verdict.text}"`);
        const change = await page.evaluate((v) => {
          const row = [...document.querySelectorAll("main table tbody tr")].find((r) => (r.querySelector("th") || {}).textContent.trim().startsWith(v));
          const c = row && row.querySelector(".trend-change");
          return c && c.textContent.trim();
        }, w.row[0]);
        H.assert(change === w.row[1], `${w.row[0]}'s change reads "${change}"`);
        const cs = await charts(page);
        H.assert(cs.length > 0, `${url} shows no chart`);
        const wide = cs.filter((c) => c.left < 0 || c.right > WIDTH);
        H.assert(wide.length === 0, `charts beyond the screen: ${JSON.stringify(wide)}`);
        const small = cs.filter((c) => c.smallest !== null && c.smallest < 11 - 0.05);
        H.assert(small.length === 0, `charts with text under 11 px: ${JSON.stringify(small)}`);
        const ts = await tables(page);
        H.assert(ts.length === cs.length, `${cs.length} charts but ${ts.length} tables: a table under each chart`);
        for (const t of ts) {
          const inside = t.left >= 0 && t.right <= WIDTH;
          const scrolls = t.wrap && t.wrap.left >= 0 && t.wrap.right <= WIDTH && t.wrap.focusable;
          H.assert(inside || scrolls, `a table reaches ${t.left} to ${t.right} px, ${t.wrap ? `in a scroll box of ${t.wrap.left} to ${t.wrap.right} px${t.wrap.focusable ? "" : " that a keyboard cannot reach"}` : "in no scroll box of its own"} (${t.caption})`);
          const missing = w.versions.filter((v) => !t.versions.includes(v));
          H.assert(missing.length === 0, `versions missing from a table: ${missing.join(", ")} (${t.caption}; it has ${t.versions.join(", ")})`);
        }
        // Points a check flags: hollow in each chart, a flagged row for
        // each in its table.
        for (let i = 0; i < cs.length; i++) {
          H.assert(cs[i].hollow === ts[i].flagged, `${cs[i].title}: ${cs[i].hollow} hollow points, ${ts[i].flagged} flagged rows`);
          H.assert((cs[i].hollow > 0) === w.flagged, `${cs[i].title}: ${cs[i].hollow} hollow points`);
        }
        // A regression the table lists is marked in its chart, by a shape
        // and the change in words (the same words as the table's); and
        // every whisker can be seen: its caps at least 12 px across.
        for (let i = 0; i < cs.length; i++) {
          H.assert(cs[i].regressed === ts[i].regressions.length, `${cs[i].title}: ${cs[i].regressed} marked regressions, ${ts[i].regressions.length} in its table`);
          H.assert(JSON.stringify(cs[i].marked) === JSON.stringify(ts[i].regressions), `${cs[i].title}: the chart says ${cs[i].marked.join(", ")}, the table ${ts[i].regressions.join(", ")}`);
          const thin = cs[i].whiskers.filter((b) => b.w < 12);
          H.assert(thin.length === 0, `${cs[i].title}: whiskers narrower than 12 px: ${JSON.stringify(thin)}`);
        }
        H.assertNone(page.problems, "problems on the way");
        const hollow = cs.reduce((n, c) => n + c.hollow, 0);
        const regressed = cs.reduce((n, c) => n + c.regressed, 0);
        const whiskers = cs.reduce((n, c) => n + c.whiskers.length, 0);
        return `${cs.length} charts within ${Math.min(...cs.map((c) => c.left))}-${Math.max(...cs.map((c) => c.right))} px, smallest text ${Math.min(...cs.map((c) => c.smallest)).toFixed(1)} px, ${hollow} hollow points, ${regressed} regressions marked (${cs.flatMap((c) => c.marked).join(", ") || "none"}), ${whiskers} whiskers at least 12 px wide`;
      } finally {
        await ctx.close();
      }
    });
  }
}

module.exports = { generate, all };
