#!/usr/bin/env python3
"""What following workloads across versions costs (issue 39): the build of
bench.py's 10,000-finding site with a run each, where every run also holds
a `vllm bench serve` result file, so that the runs share workloads across
engine versions and the site follows them (workload pages, workloads.json,
the changes on engine and version pages).

    python3 bench/trends.py [--n 10000] [--rounds 3] [--dir DIR] [--out-dir /dev/shm/ft] [--shared ../shared/bench] [--baseline BIN]

Copies the corpus of bench.py (generated once into --dir with the shared
generator, as bench.py does) twice: as it is, and with a result file added
to each run (`raw/bench.json`, named under `results:` in its run.yaml).
The result files take the run's engine, version and model from its
run.yaml and one of 4 concurrencies and 2 length pairs by the run's
number, so that runs of one model, concurrency and lengths on several
versions of an engine make one workload, as the imported runs of a real
site do; their figures are drawn from a seeded generator (the same bytes
on every run of this script). Builds both with the release binary and
prints, per site, the median wall time and peak RSS over --rounds clean
builds, the number of workload pages written and the size of
workloads.json. The output goes to --out-dir, on tmpfs by default (as
bench.py's does: an ext4 folder deleted and written again between rounds
times the file system's inode reuse more than the build). --baseline
names another binary (a build from before a change) to measure beside
the release binary of this checkout, round by round.
"""
import argparse, json, os, random, re, shutil, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

CONCURRENCY = [1, 8, 32, 64]
LENGTHS = [(1024, 128), (128, 1024)]


def bench_json(rnd, model, conc, lengths):
    """A `vllm bench serve --save-result` file of one run."""
    n_in, n_out = lengths
    prompts = max(conc * 4, 32)
    tput = rnd.uniform(800, 1200) * (conc ** 0.5)
    duration = prompts * n_out / tput
    ttft, tpot = rnd.uniform(40, 400), rnd.uniform(8, 40)
    return {
        "date": "20260115-101530", "endpoint_type": "openai", "backend": "openai", "label": None,
        "model_id": model, "tokenizer_id": model, "num_prompts": prompts, "request_rate": "inf",
        "burstiness": 1.0, "max_concurrency": conc, "duration": duration, "completed": prompts,
        "failed": 0, "total_input_tokens": prompts * n_in, "total_output_tokens": prompts * n_out,
        "request_throughput": prompts / duration, "request_goodput": None, "output_throughput": tput,
        "total_token_throughput": tput * (n_in + n_out) / n_out, "max_output_tokens_per_s": tput * 1.2,
        "max_concurrent_requests": conc, "mean_ttft_ms": ttft, "median_ttft_ms": ttft,
        "std_ttft_ms": ttft / 10, "p99_ttft_ms": ttft * 1.5, "mean_tpot_ms": tpot,
        "median_tpot_ms": tpot, "std_tpot_ms": tpot / 10, "p99_tpot_ms": tpot * 1.3,
        "mean_itl_ms": tpot, "median_itl_ms": tpot, "std_itl_ms": tpot / 10, "p99_itl_ms": tpot * 2,
        "random_input_len": n_in, "random_output_len": n_out,
    }


def add_results(root):
    """Adds a result file to each run of the site at `root`."""
    runs = os.path.join(root, "data", "runs")
    rnd = random.Random(39)
    for k, rid in enumerate(sorted(os.listdir(runs))):
        yaml_path = os.path.join(runs, rid, "run.yaml")
        with open(yaml_path) as f:
            text = f.read()
        model = re.search(r'^model: "?([^"\n]+)"?', text, re.M)
        model = model.group(1) if model else "bench-model"
        os.makedirs(os.path.join(runs, rid, "raw"), exist_ok=True)
        doc = bench_json(rnd, model, CONCURRENCY[k % 4], LENGTHS[(k // 4) % 2])
        with open(os.path.join(runs, rid, "raw", "bench.json"), "w") as f:
            json.dump(doc, f, indent=1)
        with open(yaml_path, "a") as f:
            f.write("results:\n  - path: raw/bench.json\n")


def measure(cmd):
    """Wall seconds and peak RSS (KiB) of one run of `cmd`."""
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M", *cmd], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True)
    secs, rss = out.stderr.strip().splitlines()[-1].split()
    return float(secs), int(rss)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared", "bench"))
    ap.add_argument("--dir", default=os.environ.get("BENCH_DIR", "/tmp/findings-trends-bench"))
    ap.add_argument("--out-dir", default="/dev/shm/findings-trends-out")
    ap.add_argument("--baseline", default=None)
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "findings"], cwd=REPO, check=True)
    findings = os.path.join(REPO, "target", "release", "findings")
    plain = os.path.join(a.dir, f"f{a.n}")
    if not os.path.isdir(plain):
        subprocess.run([sys.executable, os.path.join(a.shared, "synth_findings.py"), "--n", str(a.n),
                        "--seed", "42", "--out", plain], check=True, stdout=subprocess.DEVNULL)
    with_results = os.path.join(a.dir, f"f{a.n}-results")
    if not os.path.isdir(with_results):
        shutil.copytree(plain, with_results)
        add_results(with_results)
    binaries = [("this checkout", findings)] + ([("baseline", a.baseline)] if a.baseline else [])
    rows = []
    for name, root in [("hand tables only", plain), ("with a result file each", with_results)]:
        out = a.out_dir
        got = {b: ([], []) for b, _ in binaries}
        for _ in range(a.rounds):
            for b, binary in binaries:
                shutil.rmtree(out, ignore_errors=True)
                os.sync()
                time.sleep(2)
                t, m = measure([binary, "build", "--root", root, "--output", out])
                got[b][0].append(t)
                got[b][1].append(m)
        # The last round's output is the checkout's when there is no
        # baseline; count it from a build of the checkout's binary.
        shutil.rmtree(out, ignore_errors=True)
        measure([findings, "build", "--root", root, "--output", out])
        wl = os.path.join(out, "workloads")
        pages = len([d for d in os.listdir(wl) if os.path.isdir(os.path.join(wl, d))]) if os.path.isdir(wl) else 0
        size = os.path.getsize(os.path.join(out, "workloads.json"))
        for b, _ in binaries:
            times, peaks = got[b]
            # The pages and workloads.json are counted of this checkout's
            # build; a baseline from before issue 39 writes neither.
            mine = b == "this checkout"
            rows.append((f"{name}, {b}", statistics.median(times), max(peaks) / 1024,
                         pages if mine else None, size / 1024 if mine else None))
        shutil.rmtree(out, ignore_errors=True)
    print("| site | build (median s) | peak RSS MiB | workload pages | workloads.json KB |")
    print("|---|--:|--:|--:|--:|")
    for name, t, m, pages, kb in rows:
        p = "" if pages is None else str(pages)
        k = "" if kb is None else f"{kb:.1f}"
        print(f"| {name} | {t:.2f} | {m:.0f} | {p} | {k} |")


if __name__ == "__main__":
    main()
