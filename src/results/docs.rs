//! The vocabulary as `docs/format.md` §8.5 prints it ([`markdown`]):
//! every format and what tells it apart, the three tables with each
//! column's unit, definition and the key of each tool it comes from, and
//! the facts. Made from the same declarations the readers fill their rows
//! from (each reader's [`Keys`]), so it stands above every reader, and the
//! vocabulary it prints ([`super::vocabulary`]) names none of them;
//! `tests/results.rs` holds the file to it.

use super::format::SIGNATURES;
use super::table::Columns;
use super::vocabulary::{From, Keys, RequestCol, ResultCol, SeriesCol, FACTS};
use super::{aiperf, console, genai_perf, guidellm, inferlint, llama_bench, sglang, trtllm, vllm};

/// Every reader's keys, in the order the documentation lists the tools:
/// the files the tools write, then the console reports pasted.
pub fn tools() -> Vec<&'static Keys> {
    let mut all: Vec<&'static Keys> = vec![
        &vllm::SERVE,
        &vllm::THROUGHPUT,
        &vllm::LATENCY,
        &sglang::SERVE,
        &sglang::ONE_BATCH,
        &trtllm::SERVE,
        &trtllm::BENCH,
        &genai_perf::KEYS,
        &aiperf::KEYS,
        &llama_bench::KEYS,
        &guidellm::KEYS,
        &inferlint::SERIES,
        &inferlint::COUNTERS,
    ];
    all.extend(console::keys());
    all
}

fn source_text(from: From) -> String {
    let keys = |p: &str| {
        p.split('|')
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    match from {
        From::Key(p) => keys(p),
        From::Seconds(p) => format!("{} (seconds, × 1000)", keys(p)),
        From::Derived(how) => how.to_string(),
    }
}

fn table_md<C: Columns>(pick: fn(&Keys) -> Vec<(C, From)>) -> String {
    let mut s = String::from("| column | unit | definition | from |\n|---|---|---|---|\n");
    for (i, col) in C::ALL.iter().enumerate() {
        let mut from = Vec::new();
        for keys in tools() {
            for (c, f) in pick(keys) {
                if c.index() == i {
                    from.push(format!("{}: {}", keys.tool, source_text(f)));
                }
            }
        }
        let from = if from.is_empty() {
            "–".to_string()
        } else {
            from.join("; ")
        };
        s.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            col.name,
            if col.unit.is_empty() { "–" } else { col.unit },
            col.definition.replace('|', "\\|"),
            from.replace('|', "\\|"),
        ));
    }
    s
}

/// The vocabulary as Markdown: the formats and what tells each apart, the
/// three tables (every column with its unit, definition and the key of each
/// tool it comes from), then the facts. `docs/format.md` §8.5 holds this text
/// between its two markers.
pub fn markdown() -> String {
    let mut s = String::from("#### Formats\n\nTold apart by their content, never by their file name.\n\n| format | known by |\n|---|---|\n");
    for (_, name, keys) in SIGNATURES {
        s.push_str(&format!("| {name} | {keys} |\n"));
    }
    s.push('\n');
    s.push_str("#### Table `results`\n\nOne row per result: one benchmark at one setting.\n\n");
    s.push_str(&table_md::<ResultCol>(|k| k.results.to_vec()));
    s.push_str("\n#### Table `requests`\n\nOne row per completed request, where the file keeps per-request figures.\n\n");
    s.push_str(&table_md::<RequestCol>(|k| k.requests.to_vec()));
    s.push_str("\n#### Table `series`\n\nOne row per sample of an inferlint run folder's `run.series.jsonl`.\n\n");
    s.push_str(&table_md::<SeriesCol>(|k| k.series.to_vec()));
    s.push_str("\n#### Facts\n\nBeside the tables, each file and run folder gives these facts, each with the file it came from.\n\n| fact | meaning |\n|---|---|\n");
    for (name, what) in FACTS {
        s.push_str(&format!("| `{name}` | {what} |\n"));
    }
    s
}
