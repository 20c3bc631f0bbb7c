#!/usr/bin/env python3
"""Benchmark reading result files (src/results/, issue 21): a generated 50 MB
`vllm bench serve --save-detailed` file, and the real files of ../shared.

    python3 bench/results.py [--mb 50] [--rounds 5] [--shared ../shared] [--dir DIR]

Generates (once, cached in --dir, default /tmp/findings-results-bench) a
detailed vLLM result of about --mb megabytes: the summary keys of
`vllm bench serve`, then per-request arrays (input_lens, output_lens,
start_times, ttfts, latencies, itls as one list of gaps per request,
generated_texts, errors) for as many requests as fit, each with 200-1000
output tokens. Builds the `read_results` example in release mode, and
prints per file the median over --rounds of the time to read it (parse,
detect, fill the results and requests tables), to scrub it (credentials out,
generated texts dropped) and to look for a credential in the scrubbed copy.
The budget of issue 21 is an import and build of 100 files with one 50 MB
detailed file under 2 s; this measures the reading part of it.
"""
import argparse, glob, json, os, random, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def detailed(path, mb):
    """Writes a --save-detailed result of about `mb` MB to `path`."""
    rnd = random.Random(21)
    summary = {
        "date": "20260115-101530", "endpoint_type": "openai", "backend": "openai", "label": None,
        "model_id": "meta-llama/Llama-3.1-8B-Instruct", "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct",
        "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 64, "duration": 600.0,
        "failed": 0, "request_goodput": None, "mean_ttft_ms": 41.2, "median_ttft_ms": 41.2,
        "p99_ttft_ms": 42.3, "mean_tpot_ms": 30.5, "median_tpot_ms": 30.5, "p99_tpot_ms": 30.9,
        "mean_itl_ms": 30.4, "median_itl_ms": 30.1, "p99_itl_ms": 36.7,
    }
    cols = {k: [] for k in ["input_lens", "output_lens", "start_times", "ttfts", "latencies", "itls", "generated_texts", "errors"]}
    size, start = 0, 353399.0
    while size < mb * 1_000_000:
        n = rnd.randint(200, 1000)
        gaps = [round(rnd.uniform(0.02, 0.04), 6) for _ in range(n - 1)]
        ttft = round(rnd.uniform(0.03, 0.3), 6)
        start += rnd.uniform(0.0, 0.05)
        cols["input_lens"].append(rnd.randint(100, 2000))
        cols["output_lens"].append(n)
        cols["start_times"].append(round(start, 6))
        cols["ttfts"].append(ttft)
        cols["latencies"].append(round(ttft + sum(gaps), 6))
        cols["itls"].append(gaps)
        text = " ".join("token" for _ in range(n // 4))
        cols["generated_texts"].append(text)
        cols["errors"].append("")
        size += 10 * n + len(text) + 60
    k = len(cols["ttfts"])
    summary.update(num_prompts=k, completed=k, total_input_tokens=sum(cols["input_lens"]),
                   total_output_tokens=sum(cols["output_lens"]))
    summary.update(cols)
    with open(path, "w") as f:
        json.dump(summary, f)
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared"))
    ap.add_argument("--dir", default=os.environ.get("BENCH_DIR", "/tmp/findings-results-bench"))
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    big = os.path.join(a.dir, f"detailed-{a.mb}mb.json")
    if not os.path.exists(big):
        k = detailed(big, a.mb)
        print(f"generated {big}: {os.path.getsize(big) / 1e6:.1f} MB, {k} requests", file=sys.stderr)
    files = [big]
    if os.path.isdir(os.path.join(a.shared, "results")):
        files += sorted(glob.glob(os.path.join(a.shared, "results", "*", "*.json*")))
        files += sorted(glob.glob(os.path.join(a.shared, "results", "*", "*.yaml")))
    subprocess.run(["cargo", "build", "--release", "-q", "--example", "read_results"], cwd=REPO, check=True)
    exe = os.path.join(REPO, "target", "release", "examples", "read_results")
    out = subprocess.run([exe, *files, "--rounds", str(a.rounds)], check=True, capture_output=True, text=True).stdout
    rows = [l.split("\t") for l in out.strip().splitlines()[1:]]
    print("| file | MB | rows | requests | read ms | scrub ms | check ms |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for name, size, r, q, read, scrub, check in rows:
        print(f"| {name[:60]} | {int(size) / 1e6:.2f} | {r} | {q} | {read} | {scrub} | {check} |")
    total = sum(float(r[4]) + float(r[5]) for r in rows)
    print(f"\nall {len(rows)} files, read and scrubbed: {total:.0f} ms")


if __name__ == "__main__":
    main()
