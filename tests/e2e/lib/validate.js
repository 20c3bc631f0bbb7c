// Validity: the Nu HTML Checker (vnu.jar from npm, run with the machine's
// Java) on every generated HTML page; the feeds and the sitemap parse as XML.
"use strict";

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const H = require("./harness");
const { get } = require("./server");
const site = require("./site");

const JAVA = process.env.E2E_JAVA || "java";
const VNU = require.resolve("vnu-jar/build/dist/vnu.jar");

async function all(env) {
  // The small sites, issue 38's (the bundled one with two runs imported
  // and compared) and issue 39's (the shared llama.cpp series and
  // recorded runs: its workload pages), whose pages the crawl does not
  // visit.
  const dirs = env.sites.concat([env.answers, env.workloads].filter(Boolean)).map((s) => s.out);
  const count = dirs.reduce((n, d) => n + site.walk(d).filter((f) => f.endsWith(".html")).length, 0);
  await H.check(`Nu HTML Checker: no errors in ${count} HTML files (the small sites)`, async () => {
    const r = spawnSync(JAVA, ["-Xss2m", "-jar", VNU, "--errors-only", "--skip-non-html", "--format", "gnu", ...dirs], {
      encoding: "utf8",
      timeout: 5 * 60 * 1000,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.error) throw new Error(`${JAVA} -jar vnu.jar: ${r.error.message} (install a Java runtime: apt-get install -y default-jre-headless)`);
    const lines = (r.stderr + r.stdout).split("\n").filter((l) => l.trim());
    if (r.status !== 0 || lines.length) {
      const shown = lines.map((l) => l.split(`file:${env.tmp}/`).join("").split(`${env.tmp}/`).join(""));
      H.assertNone(shown.length ? shown : [`vnu exited ${r.status}`], "HTML errors");
    }
    return `${count} files`;
  });

  await H.check("Nu HTML Checker: style.css is valid CSS", async () => {
    const css = path.join(env.bundled.out, "style.css");
    H.assert(fs.existsSync(css), "no style.css in the build");
    const r = spawnSync(JAVA, ["-jar", VNU, "--errors-only", "--css", "--format", "gnu", css], { encoding: "utf8", timeout: 120000 });
    const lines = (r.stderr + r.stdout).split("\n").filter((l) => l.trim());
    if (r.status !== 0 || lines.length) H.assertNone(lines.length ? lines : [`vnu exited ${r.status}`], "CSS errors");
  });

  // Feeds and sitemap, where the build writes them.
  const xmlFiles = site.walk(env.bundled.out).filter((f) => f.endsWith(".xml"));
  if (xmlFiles.length === 0) {
    await H.check("feed and sitemap parse as XML", async () => {
      throw new Error("no .xml file in the build (feed.xml, atom.xml, sitemap.xml): the feeds and sitemap (issue 5) are missing");
    });
    return;
  }
  const page = await env.browser.newPage();
  try {
    for (const rel of xmlFiles) {
      await H.check(`XML parses: ${env.bundled.prefix}${rel}`, async () => {
        const text = fs.readFileSync(path.join(env.bundled.out, rel), "utf8");
        const doc = await page.evaluate((t) => {
          const d = new DOMParser().parseFromString(t, "application/xml");
          const err = d.getElementsByTagName("parsererror")[0];
          if (err) return { error: err.textContent };
          const root = d.documentElement;
          const all = (name) => [...d.getElementsByTagNameNS("*", name)];
          return {
            root: root.localName,
            ns: root.namespaceURI,
            locs: all("loc").map((e) => e.textContent.trim()),
            entries: all("entry").length,
            links: all("link").map((e) => e.getAttribute("href") || e.textContent.trim()).filter(Boolean),
            ids: all("id").map((e) => e.textContent.trim()),
          };
        }, text);
        if (doc.error) throw new Error(`not well-formed XML: ${doc.error}`);
        const problems = [];
        const urls = [];
        if (doc.root === "urlset") {
          if (doc.ns !== "http://www.sitemaps.org/schemas/sitemap/0.9") problems.push(`sitemap namespace ${doc.ns}`);
          if (!doc.locs.length) problems.push("the sitemap lists no URL");
          urls.push(...doc.locs);
        } else if (doc.root === "feed") {
          if (doc.ns !== "http://www.w3.org/2005/Atom") problems.push(`feed namespace ${doc.ns}`);
          urls.push(...doc.links);
        } else if (doc.root === "rss") {
          urls.push(...doc.links);
        }
        for (const u of urls) {
          if (!/^https?:\/\//.test(u)) problems.push(`not an absolute URL: ${u}`);
          else if (u.startsWith(env.bundled.base)) {
            const r = await get(u);
            if (r.status !== 200) problems.push(`${u} answers ${r.status}`);
          } else if (!u.startsWith("http")) problems.push(`URL outside the site: ${u}`);
        }
        H.assertNone(problems, "problems in the XML");
        return `<${doc.root}>, ${urls.length} URLs${doc.root === "feed" ? `, ${doc.entries} entries` : ""}`;
      });
    }
  } finally {
    await page.close();
  }
}

module.exports = { all };
