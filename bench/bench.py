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
Then it weighs what readers get on the two shapes of issue 15 (`--n 10000`,
and `--n 2000 --engines 500 --mixed`): the largest HTML file, the median
finding page, the whole output per finding, atom.xml, and what headless
Chromium downloads to show the home page, a search with its results, an
engine page, a tag page, /status/open/ and the median finding page
(tests/e2e/weigh.js, every byte counted, uncompressed). `--weights-only`
skips the timings; `--no-weights` skips the weights. The weights need
Debian's chromium and `npm ci` in tests/e2e (as .ci/run does).
Prints Markdown tables (for docs/performance.md) and writes them to
$BENCH_DIR/results.md. Needs `hugo` (apt-get install -y hugo) and GNU time
(/usr/bin/time, package `time`); builds findings in release mode first.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time

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


# The budgets of issue 15, in bytes.
PAGE_BUDGET = 512 * 1024
HTML_BUDGET = 512 * 1024
ATOM_BUDGET = 200 * 1024
PER_FINDING_BUDGET = 80 * 1024

# The shapes a site is weighed at: (name, synth_findings.py arguments, findings).
SHAPES = [
    ("10,000 findings, 4 engines", ["--n", "10000"], 10000),
    ("2,000 findings, 500 engines", ["--n", "2000", "--engines", "500", "--mixed"], 2000),
]


def files_of(root):
    for d, _, fs in os.walk(root):
        for f in fs:
            yield os.path.join(d, f)


def weigh(findings, shared, base, outs):
    """The weights of both shapes: a list of (shape, rows)."""
    out = []
    for name, args, n in SHAPES:
        root = os.path.join(base, "shape-" + "-".join(a.strip("-") for a in args))
        if not os.path.isdir(root):
            sh([sys.executable, os.path.join(shared, "synth_findings.py"), *args, "--seed", "42", "--out", root],
               stdout=subprocess.DEVNULL)
        site = os.path.join(outs, "weigh-" + os.path.basename(root))
        remove(site)
        sh([findings, "build", "--root", root, "--output", site], stdout=subprocess.DEVNULL)
        total, html_max, html_max_at = 0, 0, ""
        for p in files_of(site):
            s = os.path.getsize(p)
            total += s
            if p.endswith(".html") and s > html_max:
                html_max, html_max_at = s, os.path.relpath(p, site)
        pages = sorted((os.path.getsize(os.path.join(site, "findings", d, "index.html")), d)
                       for d in os.listdir(os.path.join(site, "findings")))
        median_size, median = pages[len(pages) // 2]
        # The engine with the most findings (its data file is the biggest).
        engines = os.path.join(site, "engines")
        engine = max((d for d in os.listdir(engines) if os.path.isfile(os.path.join(engines, d, "findings.json"))),
                     key=lambda d: os.path.getsize(os.path.join(engines, d, "findings.json")))
        tag = "moe" if os.path.isdir(os.path.join(site, "tags", "moe")) else sorted(os.listdir(os.path.join(site, "tags")))[0]
        visits = ["", "search/?q=prefill", f"engines/{engine}/", f"tags/{tag}/", "status/open/", f"findings/{median}/"]
        got = subprocess.run(["node", os.path.join(REPO, "tests", "e2e", "weigh.js"), site, *visits],
                             check=True, capture_output=True, text=True)
        downloads = json.loads(got.stdout)
        rows = [
            ("largest HTML file", html_max, HTML_BUDGET, html_max_at),
            ("median finding page", median_size, None, f"findings/{median}/"),
            ("whole output per finding", total / n, PER_FINDING_BUDGET, f"{total / 1e6:.0f} MB in all"),
            ("atom.xml", os.path.getsize(os.path.join(site, "atom.xml")), ATOM_BUDGET, ""),
        ]
        for v in visits:
            label = "/" + v if v else "/ (home)"
            rows.append((f"download: {label}", downloads[v]["bytes"], PAGE_BUDGET, f"{downloads[v]['requests']} requests"))
        out.append((name, rows))
        remove(site)
    return out


def weights_table(weights):
    lines = ["| shape | what | KB | budget KB | note |", "|---|---|--:|--:|---|"]
    for name, rows in weights:
        for what, size, budget, note in rows:
            b = f"{budget / 1024:.0f}" if budget else ""
            flag = " (over)" if budget and size > budget else ""
            lines.append(f"| {name} | {what} | {size / 1024:.1f}{flag} | {b} | {note} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--shared", default=os.path.join(REPO, "..", "shared", "bench"))
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--settle", type=float, default=5.0)
    ap.add_argument("--weights-only", action="store_true")
    ap.add_argument("--no-weights", action="store_true")
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
    sh(["cargo", "build", "--release", "--quiet", "--bin", "findings", "--example", "rebuild"], cwd=REPO)
    findings = os.path.join(REPO, "target", "release", "findings")
    if a.weights_only:
        table = weights_table(weigh(findings, a.shared, base, outs))
        print(table)
        with open(os.path.join(base, "results.md"), "w") as f:
            f.write(f"{time.strftime('%Y-%m-%d')}, weights\n\n{table}\n")
        return
    for tool in ("hugo", "/usr/bin/time"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: apt-get install -y hugo time")
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
    if not a.no_weights:
        table += "\n\n" + weights_table(weigh(findings, a.shared, base, outs))
    print(table)
    nproc = os.cpu_count()
    with open(os.path.join(base, "results.md"), "w") as f:
        f.write(f"{time.strftime('%Y-%m-%d')}, {nproc} cores, median of {a.runs} alternating clean builds, output in {outs}\n\n{table}\n")


if __name__ == "__main__":
    main()
