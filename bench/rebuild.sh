#!/bin/sh
# Rebuild times under `findings serve` on the 1,000-finding benchmark
# corpus: examples/rebuild.rs builds a copy of the corpus with a
# `findings::Session`, then edits one finding and rebuilds, ten times, and
# prints the median; once for an edit of the body (a sentence added), once
# for an edit of the title (which changes every list the finding is in).
# The figures README.md and docs/performance.md quote.
#
#   bench/rebuild.sh [N]              (N findings, default 1000)
#
# The corpus is generated once with ../shared/bench/synth_findings.py
# (seed 42, cached under $BENCH_DIR, default /tmp/findings-bench); the copy
# edited and the output are on tmpfs ($OUT_DIR, default /dev/shm/fb).
# The example is built in release mode first, unless $REBUILD_BIN names a
# built one.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
n=${1:-1000}
base=${BENCH_DIR:-/tmp/findings-bench}
shared=${FINDINGS_SHARED:-$repo/../shared}
out_dir=${OUT_DIR:-/dev/shm/fb}
mkdir -p "$base" "$out_dir"
root="$base/f$n"
if [ ! -d "$root" ]; then
    python3 "$shared/bench/synth_findings.py" --n "$n" --seed 42 --out "$root" >/dev/null
fi
if [ -z "${REBUILD_BIN:-}" ]; then
    (cd "$repo" && cargo build --release --quiet --example rebuild)
    REBUILD_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/examples/rebuild"
fi
example=$REBUILD_BIN
edit="$out_dir/rebuild-root-$n"
out="$out_dir/rebuild-out-$n"
for kind in body title; do
    rm -rf "$edit" "$out" "$out_dir/rebuild.log"
    cp -r "$root" "$edit"
    if [ "$kind" = title ]; then
        ms=$("$example" "$edit" "$out" 10 title 2>"$out_dir/rebuild.log")
    else
        ms=$("$example" "$edit" "$out" 10 2>"$out_dir/rebuild.log")
    fi
    first=$(sed -n 's/^first build: //p' "$out_dir/rebuild.log")
    echo "rebuild after a $kind edit: $ms ms (median of 10, $n findings; the session's first, clean build: $first)"
done
rm -rf "$edit" "$out" "$out_dir/rebuild.log"
