#!/usr/bin/env python3
"""Time `findings check` on records made to be slow to diagnose.

    python3 bench/pathological.py [--sizes 100000,1000000] [--runs 3]
                                  [--only NAME,...] [--binary PATH] [--list]

Each case is one file of the fixture site tests/fixtures/minimal rewritten
around a run of hostile content of about SIZE bytes (every size stays inside
the 1 MiB record limit, the 8 MiB table limit for CSV): brackets, braces and
quotes left open or closed alone, deep nesting, one long line, and 10^4 to
10^5 errors at once (unknown fields, duplicate keys, bad versions, cells
that are not numbers, links that lead nowhere; at 10^6 bytes, most of the
YAML ones stop at the limit of 10^5 values a document may hold). For each case and size the script
writes the site into a temporary folder, runs the release binary's `check`
--runs times, and prints the median wall time and CPU time (user + system:
on a shared machine the steadier figure), the number of errors and the
first line `check` printed, as a Markdown table (for docs/performance.md).

The target of issue 20 is under 0.5 s for every case at 10^6 bytes. The
same kinds of record, at both sizes, are what tests/linear.rs checks the
messages of (in debug mode, without timing them). Builds the release binary
first unless --binary is given.

On a machine shared with other work, wall times measure the others too;
`chrt -f 10 python3 bench/pathological.py …` (as root) runs the checks at a
real-time priority, which gives the figures of a quiet machine. Do that only
with a build that is fast on every case: a quadratic one would hold a core
for as long as --timeout.
"""
import argparse, os, resource, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FIXTURE = os.path.join(REPO, "tests", "fixtures", "minimal")
FINDING = "findings/cache-size.md"
RUN = "data/runs/cache-sweep/run.yaml"
CSV = "data/runs/cache-sweep/starts.csv"
TITLE = "title: The cache size `changed` between starts"
RECORD_LIMIT = 1024 * 1024


def fixture(rel):
    with open(os.path.join(FIXTURE, rel), encoding="utf-8") as f:
        return f.read()


def times(unit, size):
    """`unit` repeated to about `size` bytes."""
    return unit * max(1, size // len(unit))


def numbered(fmt, size):
    """Lines `fmt % i` for i = 0, 1, … to about `size` bytes."""
    out, total, i = [], 0, 0
    while total < size:
        line = fmt % i
        out.append(line)
        total += len(line)
        i += 1
    return "".join(out)


def in_finding(old, new):
    text = fixture(FINDING)
    assert text.count(old) == 1, old
    return {FINDING: text.replace(old, new)}


def title(value):
    return in_finding(TITLE, "title: " + value)


def in_front_matter(lines):
    """Lines added at the end of the finding's front matter."""
    return in_finding("aliases: [/old/cache/]\n", "aliases: [/old/cache/]\n" + lines)


def in_body(text):
    return in_finding("Set the cache size explicitly.", "Set the cache size explicitly.\n\n" + text)


def in_run(old, new):
    text = fixture(RUN)
    assert text.count(old) == 1, old
    return {RUN: text.replace(old, new)}


def in_site(old, new):
    text = fixture("site.yaml")
    assert text.count(old) == 1, old
    return {"site.yaml": text.replace(old, new)}


def deep_mappings(size):
    out, i = [], 0
    while sum(map(len, out)) < size:
        out.append("  " * i + f"k{i}:\n")
        i += 1
    return "".join(out)


def deep_lists(size):
    out, i = [], 0
    while sum(map(len, out)) < size:
        out.append("  " * i + "-\n")
        i += 1
    return "".join(out)


def many_columns(size):
    """A run.yaml describing about size/32 numeric columns, and a CSV whose
    one row has a word in each."""
    columns = numbered("      c%d: {unit: s, description: d}\n", size // 2).splitlines()
    names = [line.split(":")[0].strip() for line in columns]
    files = in_run("      start: {description: Which start}\n", "\n".join(columns) + "\n")
    files[CSV] = ",".join(names + ["engine", "cache", "peak"]) + "\n" + ",".join(["x"] * (len(names) + 3)) + "\n"
    return files


def long_keys(size):
    """Keys of 1,000 characters (libyaml takes no longer plain key), each
    under the one before, 50 deep; then keys under the deepest up to
    `size` bytes."""
    out = "".join("  " * d + "k" * 1000 + ":\n" for d in range(50))
    return out + numbered("  " * 50 + "c%d: 1\n", max(0, size - len(out)))


def many_charts(size):
    """As many charts as fit in about `size` bytes of run.yaml (and under the
    YAML limit of 10^5 values, 11 a chart), all of one table of 5,000 rows."""
    line = "  - {id: c%d, title: t, table: starts.csv, x: start, y: cache}\n"
    count = min(size // len(line % 0), 8000)
    files = in_run("charts:\n", "charts:\n" + "".join(line % i for i in range(count)))
    files[CSV] = "start,engine,cache,peak\n" + "".join("s%d,vllm,%d,%d\n" % (i, i, i) for i in range(5000))
    return files


# (name, what it is, size → {file: text}). Sizes are of the hostile part.
CASES = [
    ("fm-open-brackets", "title: [[[[… in a finding", lambda n: title(times("[", n))),
    ("fm-open-braces", "title: {{{{…", lambda n: title(times("{", n))),
    ("fm-close-brackets", "title: ]]]]…", lambda n: title(times("]", n))),
    ("fm-close-braces", "title: }}}}…", lambda n: title(times("}", n))),
    ("fm-flow-list-open", "models: [a, a, … never closed", lambda n: in_finding("models: [Qwen3-8B]", "models: [" + times("a, ", n))),
    ("fm-flow-map-open", "hardware: {k0: v, k1: v, … never closed", lambda n: in_finding("hardware: [RTX 5090]", "hardware: {" + numbered("k%d: v, ", n))),
    ("fm-nested-flow-maps", "title: {a: {a: {a: …", lambda n: title(times("{a: ", n))),
    ("fm-double-quote-open", "title: \"aaaa… not closed", lambda n: title('"' + times("a", n))),
    ("fm-double-quotes", "title: \"\"\"\"…", lambda n: title(times('"', n))),
    ("fm-escaped-quotes", "title: \"\\\"\\\"… not closed", lambda n: title('"' + times('\\"', n))),
    ("fm-single-quote-open", "title: 'aaaa… not closed", lambda n: title("'" + times("a", n))),
    ("fm-single-quotes", "title: ''''…", lambda n: title(times("'", n))),
    ("fm-deep-mappings", "k0:\\n  k1:\\n    k2: … indented", lambda n: in_front_matter(deep_mappings(n))),
    ("fm-deep-lists", "-\\n  -\\n    - … indented", lambda n: in_front_matter("deep:\n" + deep_lists(n))),
    ("fm-dash-line", "deep: - - - - … on one line", lambda n: in_front_matter("deep:\n  " + times("- ", n) + "x\n")),
    ("fm-long-line", "title: aaaa… (valid)", lambda n: title(times("a", n))),
    ("fm-long-plain-colons", "title: a: a: a: …", lambda n: title(times("a: ", n))),
    ("fm-unknown-fields", "f0: 1, f1: 1, …: unknown fields", lambda n: in_front_matter(numbered("f%d: 1\n", n))),
    ("fm-duplicate-keys", "tags: [x] given again and again", lambda n: in_front_matter(times("tags: [x]\n", n))),
    ("fm-bad-versions", "affected: [\"x0\", \"x1\", …]", lambda n: in_finding('affected: ["0.28", "0.30"]', "affected: [" + numbered('"x%d", ', n) + '"0.28"]')),
    ("fm-number-versions", "affected: [0.1, 0.1, …]", lambda n: in_finding('affected: ["0.28", "0.30"]', "affected: [" + times("0.1, ", n) + '"0.28"]')),
    ("fm-affected-and-clean", "the same versions affected and clean", lambda n: in_finding('affected: ["0.28", "0.30"]', "affected: [" + numbered('"1.%d", ', n // 2) + '"0.28"]\n    clean: [' + numbered('"1.%d", ', n // 2) + '"0.29"]')),
    ("fm-unknown-runs", "runs: [r0, r1, …] none exist", lambda n: in_finding("runs: [cache-sweep]", "runs: [" + numbered("r%d, ", n) + "cache-sweep]")),
    ("fm-bad-aliases", "aliases: [a0, a1, …] not site paths", lambda n: in_finding("aliases: [/old/cache/]", "aliases: [" + numbered("a%d, ", n) + "/old/cache/]")),
    ("fm-unknown-engines", "engines: entries of unknown engines e0, e1, …", lambda n: in_finding("engines:\n", "engines:\n" + numbered("  - engine: e%d\n", n))),
    ("fm-long-keys", "keys of 1,000 characters nested 50 deep, 10^3+ keys under them", lambda n: in_front_matter(long_keys(n))),
    ("fm-dotted-keys", "unknown fields a.a.a…: 1 of 1,000 characters", lambda n: in_front_matter(numbered("%d" + times(".a", 499) + ": 1\n", n))),
    ("fm-many-versions", "10^4+ distinct affected versions (valid)", lambda n: in_finding('affected: ["0.28", "0.30"]', "affected: [" + numbered('"9.%d", ', n) + '"0.28"]')),
    ("fm-charts-unknown", "charts: [cache-sweep/x0, …] no such chart", lambda n: in_finding("runs: [cache-sweep]", "runs: [cache-sweep]\ncharts: [" + numbered("cache-sweep/x%d, ", n) + "cache-sweep/cache]")),
    ("fm-long-alias", "one alias /a/a/a/… of 10^5+ segments", lambda n: in_finding("aliases: [/old/cache/]", "aliases: [" + times("/a", n) + "/]")),
    ("site-many-engines", "10^3+ engines in site.yaml, as many unknown in a finding", lambda n: {**in_site("engines:\n", "engines:\n" + numbered('  - {id: engine-%d, name: E, color: "#000000"}\n', n // 2)), **in_finding("engines:\n", "engines:\n" + numbered("  - engine: x-%d\n", n // 2))}),
    ("site-nav-engines", "10^3+ engines, as many unknown nav_engines", lambda n: in_site("engines:\n", "nav_engines: [" + numbered("x-%d, ", n // 2) + "vllm]\nengines:\n" + numbered('  - {id: engine-%d, name: E, color: "#000000"}\n', n // 2))),
    ("body-open-brackets", "[[[[… in the body", lambda n: in_body(times("[", n))),
    ("body-long-line", "one line of words", lambda n: in_body(times("word ", n))),
    ("body-fence-open", "``` never closed, 10^5 lines below", lambda n: in_body("```\n" + times("x\n", n))),
    ("body-missing-fragments", "[a](#x0) [a](#x1) … no such heading", lambda n: in_body(numbered("[a](#x%d)\n", n))),
    ("body-fragments-and-headings", "10^4+ headings, as many links to them", lambda n: in_body(numbered("## h%d\n", n // 2) + numbered("[a](#h%d)\n", n // 2))),
    ("body-host-links", "[a](example.com/0) … no scheme", lambda n: in_body(numbered("[a](example.com/%d)\n", n))),
    ("body-links-one-line", "[a](#x) [a](#x) … on one line", lambda n: in_body(times("[a](#x) ", n) + "\n")),
    ("body-wide-table", "a table of 10^4+ columns", lambda n: in_body("|" + times(" a |", n // 2) + "\n|" + times("---|", n // 4) + "\n")),
    ("body-nested-quotes", "> > > > … nested quotes", lambda n: in_body(times("> ", n) + "x\n")),
    ("run-open-brackets", "run.yaml title: [[[[…", lambda n: in_run("title: Cache size per start", "title: " + times("[", n))),
    ("run-unknown-fields", "run.yaml: unknown fields f0, f1, …", lambda n: in_run("notes: The first start compiled the model.\n", numbered("f%d: 1\n", n))),
    ("run-bad-versions", "run.yaml: setups with bad versions", lambda n: in_run("setups:\n", "setups:\n" + numbered('  - {engine: vllm, version: "x%d"}\n', n))),
    ("site-open-brackets", "site.yaml title: [[[[…", lambda n: in_site("title: Fixture findings", "title: " + times("[", n))),
    ("site-unknown-fields", "site.yaml: unknown fields f0, f1, …", lambda n: in_site("description: A small site for tests.\n", numbered("f%d: 1\n", n))),
    ("site-releases", "site.yaml: releases, each listed twice", lambda n: in_site('releases: ["0.28", "0.29", "0.30", "0.32.0"]', "releases: [" + numbered('"1.%d", ', n // 2) + numbered('"1.%d", ', n // 2) + '"0.28"]')),
    ("csv-wide-header", "a header of 10^4+ columns named c, none described", lambda n: {CSV: times("c,", n) + "c\n" + "1\n"}),
    ("run-many-charts", "thousands of charts of one table of 5,000 rows", lambda n: many_charts(n)),
    ("csv-many-columns", "10^3+ described columns, a row of words under them", lambda n: many_columns(n)),
    ("csv-wide-row", "a row of 10^5+ cells under a header of 4", lambda n: {CSV: "start,engine,cache,peak\n" + "a,b,x,y" + times(",x", n) + "\n"}),
    ("csv-bad-cells", "10^4+ rows whose numbers are words", lambda n: {CSV: "start,engine,cache,peak\n" + times("a,b,x,y\n", n)}),
    ("csv-open-quote", "a quote never closed, then 10^5 lines", lambda n: {CSV: "start,engine,cache,peak\n\"a,b,1,2\n" + times("a,b,1,2\n", n)}),
]


def write_case(root, files):
    shutil.copytree(FIXTURE, root)
    for rel, text in files.items():
        limit = 8 * RECORD_LIMIT if rel.endswith(".csv") else RECORD_LIMIT
        if len(text.encode()) > limit:
            sys.exit(f"{rel}: {len(text.encode())} bytes is over the limit of {limit}")
        with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
            f.write(text)


def run_check(binary, root, timeout):
    """Wall and CPU time (user + system), summary line and first line of
    `check`; None when it ran out of time."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        out = subprocess.run([binary, "check", "--root", root], capture_output=True, text=True,
                             env={**os.environ, "NO_COLOR": "1"}, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, "", ""
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = out.stderr.splitlines()
    summary = next((l for l in reversed(lines) if l.startswith("check: ")), "")
    return took, cpu, summary, (lines[0] if lines else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--binary", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="give up on a check after this many seconds")
    a = ap.parse_args()
    if a.list:
        for name, what, _ in CASES:
            print(f"{name:28} {what}")
        return
    binary = a.binary
    if binary is None:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "findings"], cwd=REPO, check=True)
        binary = os.path.join(REPO, "target", "release", "findings")
    only = set(filter(None, a.only.split(",")))
    sizes = [int(s) for s in a.sizes.split(",")]
    print("| case | bytes | wall s | CPU s | errors | first line |")
    print("|---|--:|--:|--:|--:|---|")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, _, make in CASES:
            if only and name not in only:
                continue
            for size in sizes:
                root = os.path.join(tmp, f"{name}-{size}")
                write_case(root, make(size))
                runs, cpus = [], []
                for _ in range(a.runs):
                    took, cpu, summary, first = run_check(binary, root, a.timeout)
                    if took is None:
                        break
                    runs.append(took)
                    cpus.append(cpu)
                if len(runs) < a.runs:
                    worst = float("inf")
                    print(f"| {name} | {size:,} | > {a.timeout:.0f} | | | |", flush=True)
                    shutil.rmtree(root)
                    continue
                med, cpu = statistics.median(runs), statistics.median(cpus)
                worst = max(worst, med)
                errors = summary.split(",")[0].removeprefix("check: ")
                first = first if len(first) <= 90 else first[:87] + "…"
                print(f"| {name} | {size:,} | {med:.2f} | {cpu:.2f} | {errors} | `{first}` |", flush=True)
                shutil.rmtree(root)
    print(f"\nslowest: {worst:.2f} s")


if __name__ == "__main__":
    main()
