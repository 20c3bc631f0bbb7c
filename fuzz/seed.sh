#!/bin/sh
# Builds the seed corpus of each fuzz target from the bundled records, the
# test fixtures and the shared real-world files ($FINDINGS_SHARED, else
# ../shared beside the repository, where it is; read, never copied into the
# repository), into fuzz/corpus/<target>/. See docs/fuzzing.md.
set -eu
cd "$(dirname "$0")"
root=..
shared=${FINDINGS_SHARED:-$root/../shared}
consoles="vllm_console sglang_console trtllm_console llama_bench_console genai_perf_console"
for t in load_finding load_run version result_file issue $consoles; do
    mkdir -p "corpus/$t"
done

# Findings: every bundled and fixture finding, as it is.
for f in "$root"/findings/*.md; do
    cp "$f" "corpus/load_finding/bundled-$(basename "$f")"
done
for f in "$root"/tests/fixtures/*/findings/*.md; do
    cp "$f" "corpus/load_finding/fixture-$(basename "$f")"
done

# Runs: each run.yaml, then each of its CSV tables after a line
# `=== <file name>`.
for d in "$root"/data/runs/*/ "$root"/tests/fixtures/*/data/runs/*/; do
    out="corpus/load_run/$(basename "$d")"
    cat "$d/run.yaml" > "$out"
    for csv in "$d"*.csv; do
        [ -f "$csv" ] || continue
        printf '=== %s\n' "$(basename "$csv")" >> "$out"
        cat "$csv" >> "$out"
    done
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

# Pastes: every console report of the fixtures and of the shared pastes,
# for each console reader's target (each reads its own tool's reports and
# passes over the others') and for result_file; the shared result files
# for result_file too.
pastes=$(find "$root"/tests/fixtures/pasted -type f; [ -d "$shared/pasted" ] && find "$shared/pasted" -type f -name '*.txt')
for f in $pastes; do
    case $f in
        "$shared"/*) name="shared_$(echo "${f#"$shared"/pasted/}" | tr / _)" ;;
        *) name="fixture_$(basename "$f")" ;;
    esac
    for t in $consoles result_file; do
        cp "$f" "corpus/$t/$name"
    done
done
if [ -d "$shared/results" ]; then
    find "$shared/results" -type f ! -name INDEX.md ! -name manifest.json | while read -r f; do
        cp "$f" "corpus/result_file/shared_$(echo "${f#"$shared"/results/}" | tr / _)"
    done
fi

# Issues: each paste as an issue's body (`gh issue view --json`, with a
# comment that quotes it and findings lint's own answer) and as the
# comment of a webhook payload.
for f in $pastes; do
    name=$(basename "$f")
    python3 - "$f" "corpus/issue/gh_$name.json" "corpus/issue/event_$name.json" <<'PY'
import json, sys
body = open(sys.argv[1], encoding="utf-8", errors="replace").read()
url = "https://github.com/vllm-project/vllm/issues/1"
gh = {"title": "[Performance]: slower on vLLM 0.30.0", "url": url,
      "body": "### Your current environment\n\nvLLM Version: 0.30.0\n\n```text\n" + body + "\n```\n",
      "comments": [{"author": {"login": "a"}, "body": "> " + body.replace("\n", "\n> "), "url": url + "#issuecomment-2"},
                   {"author": {"login": "bot"}, "body": "<!-- findings: answer to pasted benchmark reports -->\nanswer", "url": url + "#issuecomment-3"}]}
event = {"action": "created", "issue": {"html_url": url, "title": "t", "body": None},
         "comment": {"html_url": url + "#issuecomment-9", "body": body}}
json.dump(gh, open(sys.argv[2], "w"))
json.dump(event, open(sys.argv[3], "w"))
PY
done

echo "seeds: $(ls corpus/load_finding | wc -l) findings, $(ls corpus/load_run | wc -l) runs, $(ls corpus/version | wc -l) versions, $(ls corpus/result_file | wc -l) result files, $(ls corpus/vllm_console | wc -l) pastes, $(ls corpus/issue | wc -l) issues"
