#!/usr/bin/env python3
"""Benchmark the budget of issue 21: importing and building a run of 100
result files, one of them a 50 MB `vllm bench serve --save-detailed` file,
in under 2 s (release build, output on tmpfs).

    python3 bench/import.py [--files 100] [--mb 50] [--runs 5] [--dir DIR]

Writes (once, into --dir, default /tmp/findings-import-bench) 99 small
`vllm bench serve --save-result` files, a sweep over concurrency, and one
detailed file of about --mb MB (bench/results.py's generator). Then, --runs
times: copies tests/fixtures/minimal into a fresh folder, times
`findings import` of the 100 files into one run, then a clean
`findings build` of the site, and prints the medians of wall time and peak
RSS (GNU time) of each and of both together.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from results import detailed  # noqa: E402


def small(path, concurrency):
    """A `vllm bench serve --save-result` file at one concurrency."""
    rate = 120.0 + concurrency
    json.dump({
        "date": "20260115-101530", "endpoint_type": "openai", "backend": "openai", "label": None,
        "model_id": "meta-llama/Llama-3.1-8B-Instruct", "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct",
        "num_prompts": 320, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": concurrency,
        "duration": 60.0, "completed": 320, "failed": 0, "total_input_tokens": 320000,
        "total_output_tokens": 40960, "request_throughput": 5.3, "request_goodput": None,
        "output_throughput": rate, "total_token_throughput": rate * 9,
        "mean_ttft_ms": 40.0 + concurrency, "median_ttft_ms": 39.0 + concurrency, "p99_ttft_ms": 80.0 + concurrency,
        "mean_tpot_ms": 30.5, "median_tpot_ms": 30.5, "p99_tpot_ms": 31.0,
        "mean_itl_ms": 30.4, "median_itl_ms": 30.1, "p99_itl_ms": 36.7,
    }, open(path, "w"))


def timed(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    wall, rss = out.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss) / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--mb", type=float, default=50)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", default=os.environ.get("BENCH_DIR", "/tmp/findings-import-bench"))
    a = ap.parse_args()
    files = os.path.join(a.dir, "files")
    if not os.path.isdir(files):
        os.makedirs(files)
        for i in range(a.files - 1):
            small(os.path.join(files, f"vllm-c{i + 1:03}.json"), i + 1)
        n = detailed(os.path.join(files, "vllm-detailed.json"), a.mb)
        print(f"wrote {a.files - 1} files and a detailed file of {n} requests into {files}")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=REPO, check=True)
    binary = os.path.join(REPO, "target", "release", "findings")
    inputs = sorted(os.path.join(files, f) for f in os.listdir(files))
    size = sum(os.path.getsize(f) for f in inputs) / 1e6
    imp, build, rss_i, rss_b = [], [], [], []
    for _ in range(a.runs):
        with tempfile.TemporaryDirectory(dir="/dev/shm") as tmp:
            root = os.path.join(tmp, "site")
            shutil.copytree(os.path.join(REPO, "tests", "fixtures", "minimal"), root)
            w, r = timed([binary, "import", "sweep", *inputs, "--engine", "vllm", "--version", "0.30", "--root", root, "-q"])
            imp.append(w); rss_i.append(r)
            w, r = timed([binary, "build", "--root", root, "--output", os.path.join(tmp, "out"), "-q"])
            build.append(w); rss_b.append(r)
    med = statistics.median
    total = med([i + b for i, b in zip(imp, build)])
    print(f"{len(inputs)} files, {size:.1f} MB; medians of {a.runs}:")
    print("| step | wall s | peak RSS MiB |\n|---|--:|--:|")
    print(f"| import | {med(imp):.2f} | {med(rss_i):.0f} |")
    print(f"| build | {med(build):.2f} | {med(rss_b):.0f} |")
    print(f"| import + build | {total:.2f} | |")
    print(f"budget: under 2 s: {'met' if total < 2 else 'NOT met'}")


if __name__ == "__main__":
    main()
