#!/bin/sh
# Builds the seed corpus of each fuzz target from the bundled records and
# the test fixtures, into fuzz/corpus/<target>/. See docs/fuzzing.md.
set -eu
cd "$(dirname "$0")"
root=..
mkdir -p corpus/load_finding corpus/load_run corpus/version corpus/result_file

# Findings: every bundled and fixture finding, as it is.
for f in "$root"/findings/*.md; do
    cp "$f" "corpus/load_finding/bundled-$(basename "$f")"
done
for f in "$root"/tests/fixtures/*/findings/*.md; do
    cp "$f" "corpus/load_finding/fixture-$(basename "$f")"
done

# Runs: each run.yaml, a line ===, then the run's first CSV table.
for d in "$root"/data/runs/*/ "$root"/tests/fixtures/*/data/runs/*/; do
    csv=$(ls "$d"*.csv 2>/dev/null | head -n 1)
    out="corpus/load_run/$(basename "$d")"
    cat "$d/run.yaml" > "$out"
    printf '===\n' >> "$out"
    [ -n "$csv" ] && cat "$csv" >> "$out"
done

# Versions: every quoted version in the records, one per file, and pairs
# of neighbours separated by a NUL byte.
grep -ho '"[0-9vV][0-9A-Za-z.+_-]*"' "$root"/site.yaml "$root"/findings/*.md "$root"/data/runs/*/run.yaml \
    | tr -d '"' > corpus/versions.txt
# And the versions of the shared table of version cases, if present.
if [ -f "$root/tests/version_cases.txt" ]; then
    grep -E '^(order|same|valid) ' "$root/tests/version_cases.txt" \
        | tr ' ' '\n' | grep -vE '^(order|same|valid|<)$' >> corpus/versions.txt || true
fi
sort -u -o corpus/versions.txt corpus/versions.txt
prev=0
n=0
while read -r v; do
    n=$((n + 1))
    printf '%s' "$v" > "corpus/version/v$n"
    printf '%s\0%s' "$prev" "$v" > "corpus/version/p$n"
    prev=$v
done < corpus/versions.txt
rm corpus/versions.txt

# Result files: every fixture of tests/fixtures/results, as it is.
find "$root"/tests/fixtures/results -type f | while read -r f; do
    cp "$f" "corpus/result_file/$(echo "${f#"$root"/tests/fixtures/results/}" | tr / _)"
done

echo "seeds: $(ls corpus/load_finding | wc -l) findings, $(ls corpus/load_run | wc -l) runs, $(ls corpus/version | wc -l) versions, $(ls corpus/result_file | wc -l) result files"
