#!/bin/sh
# Instructions for a clean build of the 1,000-finding benchmark corpus,
# counted by callgrind: the figure docs/performance.md quotes for each
# change, which the machine's load does not move (wall times do).
#
#   bench/callgrind.sh [N]            (N findings, default 1000)
#
# Generates the corpus once with ../shared/bench/synth_findings.py (seed 42,
# cached under $BENCH_DIR, default /tmp/findings-bench, as bench/bench.py
# caches it), builds findings in release mode (or takes $FINDINGS_BIN),
# removes the output folder (on tmpfs: $OUT_DIR, default /dev/shm/fb), and
# runs one clean `findings build` under `valgrind --tool=callgrind`. Prints
# the total instructions of every thread, e.g.
#   callgrind: 4175123456 instructions (4.175 billion), clean build of 1000 findings
# and keeps the profile as $BENCH_DIR/callgrind.<N>.out (read it with
# callgrind_annotate). Needs valgrind (apt-get install -y valgrind); takes a
# few minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
n=${1:-1000}
base=${BENCH_DIR:-/tmp/findings-bench}
shared=${FINDINGS_SHARED:-$repo/../shared}
out_dir=${OUT_DIR:-/dev/shm/fb}
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install -y valgrind" >&2; exit 1; }
mkdir -p "$base" "$out_dir"
root="$base/f$n"
if [ ! -d "$root" ]; then
    python3 "$shared/bench/synth_findings.py" --n "$n" --seed 42 --out "$root" >/dev/null
fi
if [ -z "${FINDINGS_BIN:-}" ]; then
    (cd "$repo" && cargo build --release --quiet --bin findings)
    FINDINGS_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/findings"
fi
out="$out_dir/callgrind-out-$n"
profile="$base/callgrind.$n.out"
rm -rf "$out"
valgrind --tool=callgrind --callgrind-out-file="$profile" \
    "$FINDINGS_BIN" build --root "$root" --output "$out" >/dev/null 2>"$base/callgrind.$n.log" || {
    cat "$base/callgrind.$n.log" >&2
    exit 1
}
rm -rf "$out"
# The profile's `summary:` line is the total of every thread's events.
total=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$profile" | head -n 1)
[ -n "$total" ] || { echo "no summary in $profile" >&2; exit 1; }
billion=$(awk -v t="$total" 'BEGIN { printf "%.3f", t / 1e9 }')
echo "callgrind: $total instructions ($billion billion), clean build of $n findings ($(git -C "$repo" rev-parse --short HEAD))"
