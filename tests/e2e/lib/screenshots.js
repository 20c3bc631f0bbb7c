// Screenshots for a person to look at: the home page, a finding page with a
// chart and an engine version matrix, light and dark, desktop and phone.
"use strict";

const fs = require("fs");
const path = require("path");

const H = require("./harness");
const { context, watchedPage } = require("./browser");

const SIZES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};

async function all(env, found) {
  const pages = [...found.info.values()];
  const home = pages.find((p) => p.type === "home");
  const finding = pages.filter((p) => p.type === "finding" && p.charts > 0).sort((a, b) => b.charts - a.charts)[0];
  const engine = pages
    .filter((p) => p.type === "engine")
    .sort((a, b) => b.links.filter((l) => l.tag === "a").length - a.links.filter((l) => l.tag === "a").length)[0];
  const targets = [
    ["home", home],
    ["finding", finding],
    ["matrix", engine],
  ].filter(([, p]) => p);
  await H.check(`screenshots: ${targets.map(([n]) => n).join(", ")} in light and dark, 1280 and 390 px wide`, async () => {
    H.assert(targets.length === 3, "missing a home page, a finding with a chart or an engine page");
    fs.mkdirSync(env.shots, { recursive: true });
    const written = [];
    for (const scheme of ["light", "dark"]) {
      for (const [size, opts] of Object.entries(SIZES)) {
        const ctx = await context(env.browser, env.srv.origin, { ...opts, colorScheme: scheme });
        try {
          for (const [name, p] of targets) {
            const page = await watchedPage(ctx);
            await page.goto(p.url);
            const file = path.join(env.shots, `${name}-${size}-${scheme}.png`);
            await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
            written.push(file);
            H.assertNone(page.problems, `problems on ${p.url}`);
            await page.close();
          }
        } finally {
          await ctx.close();
        }
      }
    }
    return `${written.length} files in ${env.shots}`;
  });
}

module.exports = { all };
