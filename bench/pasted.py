#!/usr/bin/env python3
"""Benchmark reading console reports pasted into text (src/results/console/,
issue 35): pastes of 1 to 10 MB with a report at their end, read as
`findings import` and `findings lint` read them.

    python3 bench/pasted.py [--sizes 1,2.5,5,10] [--rounds 5] [--dir DIR]

Writes (once, cached in --dir, default /tmp/findings-pasted-bench) a paste
of each size for each kind of filler before its report:

- `log`:      a vLLM server's log lines (`(APIServer pid=1) INFO … Avg
              prompt throughput: …`), each with colons, as a terminal's
              scrollback pasted whole;
- `prose`:    an issue's text: Markdown paragraphs, fences, `<details>`,
              lines behind `> ` and `# `;
- `open`:     a `Serving Benchmark Result` banner at the top that never
              closes, then the log lines: the block reader walks every
              line to the end, looking for labels;
- `reports`:  nothing but reports, one after the other (about 1,500 a MB),
              each a setup of its own.

The vLLM report at the end is the newest layout. Builds the `read_results`
example in release mode and prints, per paste, the median over --rounds of
the time to read it (find the reports, read them into rows), to scrub it,
and to look for a credential in the scrubbed copy, with the rows read and
the time per MB: linear reading keeps the last column flat as the size
grows.
"""
import argparse, os, random, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def kv(label, value):
    return "{:<40} {:<10}".format(label, value)


def report(i):
    rule = lambda t: "{s:{c}^{n}}".format(s=t, n=50, c="-")
    return "\n".join([
        "{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="="),
        kv("Successful requests:", 1000), kv("Failed requests:", 0),
        kv("Maximum request concurrency:", 32 + i % 64),
        kv("Benchmark duration (s):", "%.2f" % (40 + i % 7)),
        kv("Total input tokens:", 1024000), kv("Total generated tokens:", 128000),
        kv("Request throughput (req/s):", "%.2f" % (24 + (i % 13) / 10)),
        kv("Output token throughput (tok/s):", "%.2f" % (3100 + i % 500)),
        kv("Peak output token throughput (tok/s):", "4096.00"),
        kv("Peak concurrent requests:", "64.00"),
        kv("Total token throughput (tok/s):", "28012.44"),
        rule("Time to First Token"), kv("Mean TTFT (ms):", "120.33"),
        kv("Median TTFT (ms):", "110.02"), kv("P99 TTFT (ms):", "402.91"),
        rule("Time per Output Token (excl. 1st token)"), kv("Mean TPOT (ms):", "9.12"),
        kv("Median TPOT (ms):", "9.01"), kv("P99 TPOT (ms):", "12.40"),
        rule("Inter-token Latency"), kv("Mean ITL (ms):", "9.10"),
        kv("Median ITL (ms):", "8.77"), kv("P99 ITL (ms):", "30.66"),
        "=" * 50,
    ]) + "\n"


def log_line(rnd, t):
    return ("(APIServer pid=4121) INFO 03-02 10:%02d:%02d [loggers.py:123] Engine 000: Avg prompt "
            "throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs, "
            "Waiting: 0 reqs, GPU KV cache usage: %.1f%%, Prefix cache hit rate: 0.0%%\n"
            % (t // 60 % 60, t % 60, rnd.uniform(0, 9000), rnd.uniform(0, 3000), rnd.randint(0, 64),
               rnd.uniform(0, 90)))


PROSE = [
    "We upgraded from 0.10 to 0.11 and the numbers below moved; the command was the same.\n",
    "\n", "<details>\n", "<summary>full output</summary>\n", "\n", "```console\n",
    "$ vllm bench serve --model Qwen/Qwen3-8B --max-concurrency 32 --num-prompts 1000\n",
    "```\n", "</details>\n", "\n", "> quoting the earlier comment: it ran at 3,100 tok/s\n",
    "# a heading\n", "- a list item, with a colon: and words\n",
]


def paste(kind, mb, path):
    rnd = random.Random(35)
    target = int(mb * 1_000_000)
    with open(path, "w") as f:
        size, t = 0, 0
        if kind == "open":
            head = "{s:{c}^{n}}\n".format(s=" Serving Benchmark Result ", n=50, c="=")
            f.write(head)
            size += len(head)
        while size < target:
            if kind in ("log", "open"):
                line = log_line(rnd, t)
                t += 1
            elif kind == "prose":
                line = PROSE[t % len(PROSE)]
                t += 1
            else:
                line = report(t)
                t += 1
            f.write(line)
            size += len(line.encode())
        if kind != "reports":
            f.write(report(0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1,2.5,5,10")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dir", default="/tmp/findings-pasted-bench")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    files = []
    for kind in ["log", "prose", "open", "reports"]:
        for mb in [float(s) for s in a.sizes.split(",")]:
            path = os.path.join(a.dir, "%s-%gMB.txt" % (kind, mb))
            if not os.path.exists(path):
                paste(kind, mb, path)
            files.append((kind, mb, path))
    subprocess.run(["cargo", "build", "--release", "--example", "read_results"], cwd=REPO, check=True)
    exe = os.path.join(REPO, "target", "release", "examples", "read_results")
    out = subprocess.run([exe, "--rounds", str(a.rounds)] + [p for _, _, p in files],
                         capture_output=True, text=True, check=True).stdout
    rows = [l.split("\t") for l in out.strip().split("\n")[1:]]
    print("| paste | size | rows | read | read per MB | scrub | credential check |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for (kind, mb, _), r in zip(files, rows):
        name, size, n, _req, read, scrub, check = r
        mbs = int(size) / 1e6
        print("| %s | %.1f MB | %s | %s ms | %.1f ms | %s ms | %s ms |"
              % (kind, mbs, n, read, float(read) / mbs, scrub, check))


if __name__ == "__main__":
    sys.exit(main())
