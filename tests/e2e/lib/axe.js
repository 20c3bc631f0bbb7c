// axe-core, injected into a page from its npm source, run for WCAG 2.0 and
// 2.1 levels A and AA.
"use strict";

const fs = require("fs");

const SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/// The violations on `page`, one line each: rule, impact, help, where.
async function run(page) {
  const has = await page.evaluate(() => typeof window.axe === "object");
  if (!has) await page.addScriptTag({ content: SOURCE });
  const violations = await page.evaluate(
    (tags) =>
      window.axe
        .run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] })
        .then((r) =>
          r.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
          })),
        ),
    TAGS,
  );
  return violations.map((v) => {
    const where = v.nodes
      .slice(0, 3)
      .map((n) => `${n.target}${n.summary ? ` [${n.summary.replace(/\s+/g, " ").slice(0, 160)}]` : ""}`)
      .join("; ");
    return `${v.id} (${v.impact}): ${v.help}: ${v.nodes.length} node(s): ${where}`;
  });
}

module.exports = { run, TAGS };
