// Every page of a built site, visited in Chromium: loads with status 200,
// no console error, no failed request, no request to another host, no
// axe-core WCAG 2 A/AA violation; redirect pages land where they say. Then
// every internal link and fragment found on the pages resolves.
"use strict";

const fs = require("fs");
const path = require("path");

const H = require("./harness");
const { get } = require("./server");
const { context, watchedPage } = require("./browser");
const site = require("./site");
const axe = require("./axe");

const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS || 2));

/// Runs `fn` over `items`, `n` at a time, in order of start.
async function pool(items, n, fn) {
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, run));
}

/// What a page holds, read in the browser: links, ids, kind, texts.
function readPage() {
  const links = [];
  const add = (el, attr) => {
    const v = el.getAttribute(attr);
    if (v === null) return;
    let abs;
    try {
      abs = new URL(v, document.baseURI).href;
    } catch (_) {
      abs = `invalid:${v}`;
    }
    links.push({ tag: el.tagName.toLowerCase(), attr, value: v, abs });
  };
  document.querySelectorAll("a[href], area[href], link[href]").forEach((el) => add(el, "href"));
  document
    .querySelectorAll("script[src], img[src], source[src], iframe[src], video[src], audio[src], embed[src]")
    .forEach((el) => add(el, "src"));
  document.querySelectorAll("form[action]").forEach((el) => add(el, "action"));
  document.querySelectorAll('meta[property="og:url"], meta[property="og:image"], meta[name="twitter:image"]').forEach((el) => add(el, "content"));
  const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
  document.querySelectorAll("a[name]").forEach((e) => ids.push(e.getAttribute("name")));
  const h1 = document.querySelector("h1");
  const body = document.querySelector(".finding .body");
  const main = document.querySelector("main");
  return {
    links,
    ids,
    bodyClass: document.body.className,
    title: document.title,
    h1: h1 ? h1.textContent.replace(/\s+/g, " ").trim() : null,
    lang: document.documentElement.lang,
    bodyText: body ? body.textContent : null,
    mainText: main ? main.textContent : "",
    charts: document.querySelectorAll("figure.chart svg").length,
  };
}

/// Visits every HTML page of site `s`; returns what was found.
async function everyPage(env, s) {
  const files = site.walk(s.out).filter((f) => f.endsWith(".html"));
  const pages = [];
  const redirects = [];
  for (const rel of files) {
    const url = s.base + rel.replace(/(^|\/)index\.html$/, "$1");
    const html = fs.readFileSync(path.join(s.out, rel), "utf8");
    const target = site.redirectTarget(html);
    const entry = { rel, url, type: site.pageType(rel), site: s };
    if (target) redirects.push({ ...entry, target: new URL(target, url).href });
    else pages.push(entry);
  }
  const info = new Map();
  const ctx = await context(env.browser, env.srv.origin);
  try {
    await pool(pages, WORKERS, async (p) => {
      await H.check(`page ${s.prefix}${p.url.slice(s.base.length)} [${p.type}]`, async () => {
        const page = await watchedPage(ctx);
        try {
          const resp = await page.goto(p.url, { waitUntil: "load" });
          const problems = page.problems;
          if (!resp) problems.push("no response");
          else if (resp.status() !== 200) problems.push(`status ${resp.status()}`);
          const data = await page.evaluate(readPage);
          if (data.lang !== "en") problems.push(`<html lang> is "${data.lang}"`);
          if (!data.title) problems.push("empty <title>");
          if (!data.h1) problems.push("no <h1>");
          const v = await axe.run(page);
          for (const x of v) problems.push(`axe: ${x}`);
          info.set(p.url, { ...p, ...data });
          H.assertNone(problems, "problems on the page");
          return `${v.length} axe violations, ${data.links.length} links`;
        } finally {
          await page.close();
        }
      });
    });
    for (const r of redirects) {
      await H.check(`redirect ${s.prefix}${r.url.slice(s.base.length)} -> ${r.target.slice(s.base.length)}`, async () => {
        const page = await watchedPage(ctx);
        try {
          await page.goto(r.url, { waitUntil: "commit" });
          await page.waitForURL(r.target, { timeout: 10000 });
          await page.waitForLoadState("load");
          const landed = await page.evaluate(() => ({
            kind: document.body.className,
            fid: (document.querySelector(".finding-header .fid") || {}).textContent,
            canonical: (document.querySelector('link[rel="canonical"]') || {}).href,
          }));
          const problems = page.problems;
          const res = await get(r.target);
          if (res.status !== 200) problems.push(`target answers ${res.status}`);
          const html = fs.readFileSync(path.join(s.out, r.rel), "utf8");
          const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html);
          if (!canonical || canonical[1] !== landed.canonical) {
            problems.push(`redirect canonical ${canonical && canonical[1]} != target's ${landed.canonical}`);
          }
          if (r.type === "short") {
            const id = r.rel.split("/")[1];
            if (landed.fid !== `F${id}`) problems.push(`/f/${id}/ landed on a page labelled ${landed.fid}`);
          }
          H.assertNone(problems, "problems with the redirect");
        } finally {
          await page.close();
        }
      });
    }
  } finally {
    await ctx.close();
  }
  return { site: s, pages, redirects, info };
}

/// Every internal URL linked from any page answers 200 (no redirect), and
/// every fragment names an id on its page.
async function links(env, found) {
  const origin = env.srv.origin + "/";
  const urls = new Map(); // url without fragment -> [from]
  const frags = new Map(); // url#frag -> [from]
  const outside = [];
  for (const { info, site: s } of Object.values(found)) {
    for (const [from, data] of info) {
      for (const l of data.links) {
        if (l.abs.startsWith("invalid:")) {
          outside.push(`${from}: invalid URL ${l.value}`);
          continue;
        }
        if (!l.abs.startsWith(origin)) continue;
        const u = new URL(l.abs);
        const hash = u.hash;
        u.hash = "";
        const bare = u.href;
        if (!bare.startsWith(s.base)) outside.push(`${from}: ${l.tag} ${l.attr}="${l.value}" leaves the site (${bare})`);
        if (!urls.has(bare)) urls.set(bare, []);
        urls.get(bare).push(from);
        if (hash.length > 1) {
          const k = `${bare}${hash}`;
          if (!frags.has(k)) frags.set(k, []);
          frags.get(k).push(from);
        }
      }
    }
  }
  const known = new Map();
  for (const { info } of Object.values(found)) for (const [u, d] of info) known.set(u, new Set(d.ids));

  await H.check(`internal links answer 200 (${urls.size} distinct URLs)`, async () => {
    const broken = [...outside];
    await pool([...urls.keys()], 8, async (u) => {
      const r = await get(u);
      if (r.status !== 200) {
        const from = urls.get(u);
        broken.push(`${u} answers ${r.status}${r.location ? ` -> ${r.location}` : ""}, linked from ${from[0]}${from.length > 1 ? ` and ${from.length - 1} more` : ""}`);
      }
    });
    H.assertNone(broken, "broken internal links");
  });

  await H.check(`fragments name an id on their page (${frags.size} distinct)`, async () => {
    const broken = [];
    for (const [k, from] of frags) {
      const i = k.indexOf("#");
      const bare = k.slice(0, i);
      const id = decodeURIComponent(k.slice(i + 1));
      let ids = known.get(bare);
      if (!ids) {
        const r = await get(bare);
        ids = new Set([...r.body.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]));
        known.set(bare, ids);
      }
      if (!ids.has(id)) broken.push(`${k}: no id "${id}", linked from ${from[0]}`);
    }
    H.assertNone(broken, "broken fragments");
  });
}

/// Every page again, in dark mode at phone width: axe (colours differ in the
/// dark theme) and no sideways scroll of the page itself. Also asserts that
/// every expected page type exists in the bundled site.
async function darkPhone(env, found) {
  const byType = new Map();
  for (const [, p] of found.info) byType.set(p.type, (byType.get(p.type) || 0) + 1);
  const expected = ["home", "finding", "engines", "engine", "version", "group", "tags", "tag", "models", "model", "runs", "run", "compare", "404"];
  if (fs.existsSync(path.join(env.bundled.out, "search", "index.html"))) expected.push("search");
  await H.check(`the bundled site has every page type (${expected.join(", ")})`, async () => {
    const missing = expected.filter((t) => !byType.has(t));
    H.assertNone(missing, "page types not found");
    return [...byType].map(([t, n]) => `${n} ${t}`).join(", ");
  });
  const ctx = await context(env.browser, env.srv.origin, {
    colorScheme: "dark",
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  try {
    await pool([...found.info.values()], WORKERS, async (p) => {
      await H.check(`dark, 390px: ${p.url.slice(env.srv.origin.length)} [${p.type}]`, async () => {
        const page = await watchedPage(ctx);
        try {
          await page.goto(p.url, { waitUntil: "load" });
          const problems = page.problems;
          const w = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            inner: window.innerWidth,
            dark: matchMedia("(prefers-color-scheme: dark)").matches,
          }));
          if (!w.dark) problems.push("prefers-color-scheme: dark does not match");
          if (w.scroll > w.inner + 1) problems.push(`the page scrolls sideways: ${w.scroll}px wide in a ${w.inner}px window`);
          for (const x of await axe.run(page)) problems.push(`axe: ${x}`);
          H.assertNone(problems, "problems in dark mode on a phone");
        } finally {
          await page.close();
        }
      });
    });
  } finally {
    await ctx.close();
  }
}

module.exports = { everyPage, links, darkPhone, pool };
