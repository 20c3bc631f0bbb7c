// A generated findings folder of a few thousand findings, deterministic,
// for the journeys that need lists longer than a page: pagination, search
// over a sharded index, filters and "your version" that must cover findings
// the page does not show.
"use strict";

const fs = require("fs");
const path = require("path");

const ENGINES = [
  { id: "vllm", name: "vLLM", color: "#0072b2", versions: ["0.27", "0.28", "0.29", "0.30", "0.31", "0.32.0"] },
  { id: "sglang", name: "SGLang", color: "#d55e00", versions: ["0.5.18", "0.5.19", "0.5.20"] },
  { id: "trtllm", name: "TensorRT-LLM", color: "#009e73", versions: ["1.2.0", "1.3.0rc29"] },
];
const GROUPS = ["answers", "speed", "lifecycle", "metrics"];
const TAGS = ["kv-cache", "prefill", "speculative", "moe", "quantization", "scheduler"];
const WORDS = ("cache prefill decode batch latency throughput scheduler kernel memory token " +
  "request stream queue warmup restart config flag model shard tensor graph compile worker " +
  "replica gateway metric gauge counter histogram client server timeout").split(" ");

/// A small deterministic random number generator (mulberry32).
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/// Writes a findings folder of `n` findings into `root`; returns what the
/// journeys need to know about it: a word that only one finding's body has.
function generate(root, n) {
  const rnd = random(42);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, "findings"), { recursive: true });
  const site = [
    "title: Generated findings",
    "base_url: https://example.org/big/",
    "description: A generated site for the end-to-end tests.",
    "groups:",
    ...GROUPS.flatMap((g) => [`  - id: ${g}`, `    title: ${g[0].toUpperCase()}${g.slice(1)}`]),
    "engines:",
    ...ENGINES.flatMap((e) => [
      `  - id: ${e.id}`,
      `    name: ${e.name}`,
      `    color: "${e.color}"`,
      `    releases: [${e.versions.map((v) => `"${v}"`).join(", ")}]`,
    ]),
  ];
  fs.writeFileSync(path.join(root, "site.yaml"), site.join("\n") + "\n");
  for (let i = 1; i <= n; i++) {
    const e = pick(ENGINES);
    const k = Math.floor(rnd() * (e.versions.length - 1));
    const fixed = rnd() < 0.3 ? e.versions[k + 1] : null;
    const status = fixed ? "fixed" : pick(["open", "open", "mitigated", "advice"]);
    const mitigated = status === "mitigated" ? `\n    mitigated_in: "${e.versions[k + 1]}"` : "";
    const words = Array.from({ length: 40 }, () => pick(WORDS));
    const title = `${pick(WORDS)} ${pick(WORDS)} changes under load, case ${i}`;
    const body = [
      `The ${words.slice(0, 12).join(" ")} showed case${i}marker once.`,
      "",
      words.slice(12).join(" ") + ".",
      "",
      "## What to do",
      "",
      `Check the ${pick(WORDS)} before you trust the numbers.`,
      "",
    ];
    const front = [
      "---",
      `id: ${i}`,
      `title: ${title}`,
      `group: ${pick(GROUPS)}`,
      `advice: Check ${e.name} ${e.versions[k]} first`,
      `status: ${status}`,
      "published: 2026-10-01",
      "engines:",
      `  - engine: ${e.id}`,
      `    affected: ["${e.versions[k]}"]` + (fixed ? `\n    fixed_in: "${fixed}"` : "") + mitigated,
      `tags: [${pick(TAGS)}]`,
      "---",
      "",
    ];
    fs.writeFileSync(path.join(root, "findings", `case-${i}.md`), front.join("\n") + body.join("\n"));
  }
  return { rare: { word: "case17marker", id: 17 } };
}

module.exports = { generate };
