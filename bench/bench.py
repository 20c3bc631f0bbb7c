#!/usr/bin/env python3
"""Benchmark `findings build` against Hugo on the same synthetic Markdown.

    python3 bench/bench.py [--sizes 1000,10000] [--runs 5] [--shared ../shared/bench]
                           [--out-dir DIR] [--settle SECONDS]

Generates (once, cached under $BENCH_DIR, default /tmp/findings-bench) the shared
corpus for each size: a Hugo site and a findings root with one run, CSV and chart
per finding (see ../shared/bench/README.md). Then, for each size, alternates full
clean builds of Hugo and findings `--runs` times each, and reports medians of wall
time, CPU time (user+sys) and peak RSS, the output size, time per finding and per
chart, the `findings check` time, and the ratio to Hugo measured in the same run.
Both tools write into --out-dir (default $BENCH_DIR): pass a tmpfs such as
/dev/shm to measure the tools rather than the disk (see docs/performance.md).
Before each build the output folder is removed, the disk synced, and the
script waits --settle seconds. For N = 1,000 it also measures a rebuild under
`serve` after one finding's body and after its title changes
(examples/rebuild.rs).
Prints a Markdown table (for docs/performance.md) and writes it to
$BENCH_DIR/results.md. Needs `hugo` (apt-get install -y hugo) and GNU time
(/usr/bin/time, package `time`); builds findings in release mode first.
"""
import argparse, os, shutil, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def measure(cmd):
    """Runs cmd under GNU time; returns (wall s, cpu s, peak RSS MiB)."""
    fmt = "%e %U %S %M"
    out = subprocess.run(["/usr/bin/time", "-f", fmt] + cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    wall, user, sys_, rss = out.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user) + float(sys_), int(rss) / 1024


def remove(path):
    if os.path.exists(path):
        shutil.rmtree(path)


def du(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(d, f))
    return total / (1024 * 1024)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared", "bench"))
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--settle", type=float, default=5.0)
    a = ap.parse_args()
    base = os.environ.get("BENCH_DIR", "/tmp/findings-bench")
    os.makedirs(base, exist_ok=True)
    outs = a.out_dir or base
    os.makedirs(outs, exist_ok=True)

    def clean(path):
        # A clean build: no output folder, and the removal of the previous
        # one written out, so neither tool pays for the other's deletes.
        remove(path)
        os.sync()
        time.sleep(a.settle)
    for tool in ("hugo", "/usr/bin/time"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: apt-get install -y hugo time")
    sh(["cargo", "build", "--release", "--quiet", "--bin", "findings", "--example", "rebuild"], cwd=REPO)
    findings = os.path.join(REPO, "target", "release", "findings")
    hugo_version = subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout.split()[1]
    rows = []
    rebuilds = []
    for n in [int(s) for s in a.sizes.split(",")]:
        corpus, froot = os.path.join(base, f"c{n}"), os.path.join(base, f"f{n}")
        if not os.path.isdir(froot):
            sh([sys.executable, os.path.join(a.shared, "gen_corpus.py"), "--n", str(n), "--seed", "42", "--out", corpus], stdout=subprocess.DEVNULL)
            sh([sys.executable, os.path.join(a.shared, "synth_findings.py"), "--n", str(n), "--seed", "42", "--out", froot], stdout=subprocess.DEVNULL)
        hugo_out, f_out = os.path.join(outs, f"hugo-out-{n}"), os.path.join(outs, f"findings-out-{n}")
        res = {"hugo": [], "findings": []}
        for _ in range(a.runs):
            # Clean builds: the output folder does not exist before each run.
            clean(hugo_out)
            res["hugo"].append(measure(["hugo", "--quiet", "--source", os.path.join(corpus, "hugo"), "--destination", hugo_out]))
            clean(f_out)
            res["findings"].append(measure([findings, "build", "--root", froot, "--output", f_out]))
        checks = [measure([findings, "check", "--root", froot]) for _ in range(a.runs)]
        if n == 1000:
            # A copy to edit, so the cached corpus never changes.
            edit_root, edit_out = os.path.join(base, "rebuild-root"), os.path.join(outs, "rebuild-out")
            remove(edit_root)
            shutil.copytree(froot, edit_root)
            example = os.path.join(REPO, "target", "release", "examples", "rebuild")
            for kind in ("body", "title"):
                remove(edit_out)
                args = [example, edit_root, edit_out, "10"] + (["title"] if kind == "title" else [])
                ms = float(subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip())
                rebuilds.append((n, kind, ms))
            remove(edit_root)
            remove(edit_out)
        med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in res.items()}
        for tool in ("hugo", "findings"):
            wall, cpu, rss = med[tool]
            out = hugo_out if tool == "hugo" else f_out
            rows.append({
                "tool": f"Hugo {hugo_version}" if tool == "hugo" else "findings",
                "n": n, "wall": wall, "cpu": cpu, "rss": rss, "size": du(out),
                "ms_page": wall * 1000 / n,
                "ratio": med["findings"][0] / med["hugo"][0] if tool == "findings" else None,
                "check": statistics.median(c[0] for c in checks) if tool == "findings" else None,
            })
    lines = [
        "| tool | N | wall s | CPU s | peak RSS MiB | output MiB | ms per finding (and chart) | `check` s | wall vs Hugo |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in rows:
        lines.append("| {tool} | {n:,} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {size:.0f} | {ms:.2f} | {check} | {ratio} |".format(
            tool=r["tool"], n=r["n"], wall=r["wall"], cpu=r["cpu"], rss=r["rss"], size=r["size"], ms=r["ms_page"],
            check=f"{r['check']:.2f}" if r["check"] is not None else "",
            ratio=f"{r['ratio']:.2f}x" if r["ratio"] is not None else ""))
    if rebuilds:
        lines += ["", "| rebuild under `serve` after one finding's... | N | median of 10, ms |", "|---|--:|--:|"]
        for n, kind, ms in rebuilds:
            lines.append(f"| {kind} changed | {n:,} | {ms:.0f} |")
    table = "\n".join(lines)
    print(table)
    nproc = os.cpu_count()
    with open(os.path.join(base, "results.md"), "w") as f:
        f.write(f"{time.strftime('%Y-%m-%d')}, {nproc} cores, median of {a.runs} alternating clean builds, output in {outs}\n\n{table}\n")


if __name__ == "__main__":
    main()
