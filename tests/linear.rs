//! Diagnostics in time linear in the input (issue 20): records built to be
//! slow to diagnose, 10^5 and 10^6 bytes of each kind, and the exact text
//! `check` prints for them. Brackets and braces left open (in a value, in a
//! flow list), closed alone, quotes left open, deep nesting of block
//! mappings and lists, one long line, and 10^4 to 10^5 errors at once, in a
//! finding's front matter, in `run.yaml`, in `site.yaml`, in a CSV table and
//! in a body.
//!
//! The tests assert what a reader sees, not how long it took (that is
//! `bench/pathological.py`'s job); but the quadratic paths these records
//! used to take made each of them last from seconds to hours, and they run
//! here in debug mode, in a second or so each.
#![allow(missing_docs)]

mod common;

use common::Site;

/// The sizes of each kind of hostile content, in bytes.
const SIZES: [usize; 2] = [100_000, 1_000_000];

const FINDING: &str = "findings/cache-size.md";
const RUN: &str = "data/runs/cache-sweep/run.yaml";
const CSV: &str = "data/runs/cache-sweep/starts.csv";

const TOO_DEEP: &str = "lists and mappings are nested more than 64 levels deep";
const TOO_DEEP_HINT: &str =
    "records need only a few levels; look for brackets that are opened but never closed";
const QUOTE_HINT: &str =
    "close the quote; for text over several lines, use a block: `key: |` and the text indented below";
const MORE: &str = "(not shown; --format json lists them all)";
/// How many diagnostics of a file `check` prints (`MAX_SHOWN_PER_FILE`).
const SHOWN: usize = 100;

/// One of the three kinds of YAML file, and where things are in the
/// fixture's copy of it.
struct Yaml {
    file: &'static str,
    /// The fixture's title line, and its number.
    title: &'static str,
    title_line: usize,
    /// The line that lines added at the end of the YAML get first.
    end_line: usize,
    /// What `check` has read when this file cannot be parsed.
    broken: &'static str,
    /// The hint for a field the file may not have.
    known: &'static str,
}

const YAMLS: [Yaml; 3] = [
    Yaml {
        file: FINDING,
        title: "title: The cache size `changed` between starts",
        title_line: 3,
        end_line: 23,
        broken: "3 findings and 1 run",
        known: "known fields: id, title, group, advice, status, status_note, summary, published, updated, found_by, engines, models, hardware, tags, links, runs, charts, checks, symptoms, acknowledged, aliases, draft, withdrawn, superseded_by",
    },
    Yaml {
        file: RUN,
        title: "title: Cache size per start",
        title_line: 1,
        end_line: 34,
        broken: "4 findings and 0 runs",
        known: "known fields: title, date, setups, model, hardware, client, endpoint, source, notes, results, tables, charts, acknowledged, compare",
    },
    Yaml {
        file: "site.yaml",
        title: "title: Fixture findings",
        title_line: 1,
        end_line: 19,
        broken: "4 findings and 1 run",
        known: "known fields: title, base_url, description, author, groups, engines, nav_engines, page_size, home_entries, feed_entries, compare, noise",
    },
];

/// What `check` reads when every file is fine.
const ALL: &str = "4 findings and 1 run";

impl Yaml {
    /// The minimal site with this file's title set to `value`.
    fn with_title(&self, value: &str) -> Site {
        let site = Site::copy_of("minimal");
        site.edit(self.file, self.title, &format!("title: {value}"));
        site
    }

    /// The minimal site with `lines` added at the end of this file's YAML,
    /// from [`Yaml::end_line`] on.
    fn with_lines(&self, lines: &str) -> Site {
        let site = Site::copy_of("minimal");
        if self.file == FINDING {
            let end = "aliases: [/old/cache/]\n";
            site.edit(self.file, end, &format!("{end}{lines}"));
        } else {
            let text = site.read(self.file);
            assert_eq!(text.lines().count() + 1, self.end_line);
            site.write(self.file, &format!("{text}{lines}"));
        }
        site
    }
}

/// `check`'s text output (stderr), after making sure no file written is
/// over its limit, so that every case reaches the parser.
fn check(site: &Site) -> String {
    for rel in [FINDING, RUN, "site.yaml", CSV] {
        let len = std::fs::metadata(site.path(rel)).unwrap().len();
        let limit = if rel == CSV { 8 << 20 } else { 1 << 20 };
        assert!(len <= limit, "{rel} has {len} bytes");
    }
    let out = site.run(&["check"]);
    assert!(out.stdout.is_empty());
    out.stderr
}

/// One error and the summary, as `check` prints them.
fn one_error(
    file: &str,
    line: usize,
    column: usize,
    message: &str,
    hint: &str,
    read: &str,
) -> String {
    format!(
        "{file}:{line}:{column}: error: {message}\n  hint: {hint}\ncheck: 1 error, 0 warnings in {read}\n"
    )
}

/// `total` errors of `file`, of which `check` shows the first 100
/// (`shown(k)` is the k-th as printed), then the count of the others and
/// the summary.
fn many_errors(file: &str, total: usize, shown: impl Fn(usize) -> String, read: &str) -> String {
    let mut out = String::new();
    for k in 0..total.min(SHOWN) {
        out.push_str(&shown(k));
        out.push('\n');
    }
    if total > SHOWN {
        out.push_str(&format!(
            "{file}: … and {} more errors {MORE}\n",
            total - SHOWN
        ));
    }
    out.push_str(&format!("check: {total} errors, 0 warnings in {read}\n"));
    out
}

/// `unit` repeated to `size` bytes.
fn times(unit: &str, size: usize) -> String {
    unit.repeat(size / unit.len())
}

/// The headline case of the issue: `title:` followed by 10^5 or 10^6 `[`
/// (or `{`) took 45 s at 10^5. The 64th bracket is the 65th level (the
/// document's mapping is the first), at column 7 + 64.
#[test]
fn brackets_and_braces_left_open_in_a_value() {
    for y in &YAMLS {
        for open in ["[", "{"] {
            for size in SIZES {
                let site = y.with_title(&times(open, size));
                assert_eq!(
                    check(&site),
                    one_error(y.file, y.title_line, 71, TOO_DEEP, TOO_DEEP_HINT, y.broken),
                    "{} {open} × {size}",
                    y.file
                );
            }
        }
    }
}

/// The same inside a flow list or mapping: `title: [a, [[[…`; the list is
/// the second level, its 63rd nested bracket the 65th, at column 12 + 62.
#[test]
fn brackets_and_braces_left_open_in_a_flow_list() {
    for y in &YAMLS {
        for (outer, open) in [("[a, ", "["), ("{a: ", "{")] {
            for size in SIZES {
                let site = y.with_title(&format!("{outer}{}", times(open, size)));
                assert_eq!(
                    check(&site),
                    one_error(y.file, y.title_line, 74, TOO_DEEP, TOO_DEEP_HINT, y.broken),
                    "{} {outer}{open} × {size}",
                    y.file
                );
            }
        }
    }
}

/// Closing brackets and braces with nothing open: the parser stops at the
/// first, where a value should start.
#[test]
fn brackets_and_braces_closed_alone() {
    for y in &YAMLS {
        for close in ["]", "}"] {
            for size in SIZES {
                let site = y.with_title(&times(close, size));
                assert_eq!(
                    check(&site),
                    one_error(
                        y.file,
                        y.title_line,
                        8,
                        "YAML syntax: did not find expected node content",
                        "check the indentation and quoting around this line",
                        y.broken
                    ),
                    "{} {close} × {size}",
                    y.file
                );
            }
        }
    }
}

/// A quote opened before 10^5 or 10^6 letters and never closed: reported
/// where it opened, with what the parser said where it failed.
#[test]
fn quotes_left_open() {
    // A double quote runs to the next one in the file, after which the
    // parser finds no key; a single quote to the end of the file (none of
    // the three has another).
    let failed = |quote: &str| {
        if quote == "\"" {
            "did not find expected key"
        } else {
            "found unexpected end of stream"
        }
    };
    for y in &YAMLS {
        for quote in ["\"", "'"] {
            for size in SIZES {
                let site = y.with_title(&format!("{quote}{}", times("a", size)));
                let message = format!(
                    "YAML syntax: the quote opened here is not closed on its line (the parser then failed further down: {})",
                    failed(quote)
                );
                assert_eq!(
                    check(&site),
                    one_error(y.file, y.title_line, 8, &message, QUOTE_HINT, y.broken),
                    "{} {quote} × {size}",
                    y.file
                );
            }
        }
    }
}

/// Block mappings nested by indentation, `k0:`, `  k1:`, … as deep as the
/// size allows (a thousand levels at 10^6): the mapping of `k64` is the
/// 65th level (the document's is the first), at its line and column 129.
#[test]
fn block_mappings_nested_deep() {
    for y in &YAMLS {
        for size in SIZES {
            let mut lines = String::new();
            let mut depth = 0;
            while lines.len() < size {
                lines.push_str(&format!("{}k{depth}:\n", "  ".repeat(depth)));
                depth += 1;
            }
            assert_eq!(
                check(&y.with_lines(&lines)),
                one_error(
                    y.file,
                    y.end_line + 64,
                    129,
                    TOO_DEEP,
                    TOO_DEEP_HINT,
                    y.broken
                ),
                "{} {size}",
                y.file
            );
        }
    }
}

/// Lists nested by indentation (`deep:`, `-`, `  -`, …) and on one line
/// (`deep:` then `  - - - … x`): the 64th list below `deep` is the 65th
/// level.
#[test]
fn block_lists_nested_deep() {
    for y in &YAMLS {
        for size in SIZES {
            let mut lines = String::from("deep:\n");
            let mut depth = 0;
            while lines.len() < size {
                lines.push_str(&format!("{}-\n", "  ".repeat(depth)));
                depth += 1;
            }
            // The 64th `-` is on the 64th line after `deep:`, at column 2 × 63 + 1.
            assert_eq!(
                check(&y.with_lines(&lines)),
                one_error(
                    y.file,
                    y.end_line + 64,
                    127,
                    TOO_DEEP,
                    TOO_DEEP_HINT,
                    y.broken
                ),
                "{} indented {size}",
                y.file
            );
            let line = format!("deep:\n  {}x\n", times("- ", size));
            // The 64th `- ` of the line is at column 3 + 2 × 63.
            assert_eq!(
                check(&y.with_lines(&line)),
                one_error(
                    y.file,
                    y.end_line + 1,
                    129,
                    TOO_DEEP,
                    TOO_DEEP_HINT,
                    y.broken
                ),
                "{} one line {size}",
                y.file
            );
        }
    }
}

/// One line of 10^5 or 10^6 bytes: a title that long is fine, and a `: `
/// at its end is found at its column.
#[test]
fn one_long_line() {
    for y in &YAMLS {
        for size in SIZES {
            let letters = times("a", size);
            assert_eq!(
                check(&y.with_title(&letters)),
                format!("check: 0 errors, 0 warnings in {ALL}\n"),
                "{} {size}",
                y.file
            );
            assert_eq!(
                check(&y.with_title(&format!("{letters}: x"))),
                one_error(
                    y.file,
                    y.title_line,
                    8 + size,
                    "YAML syntax: mapping values are not allowed in this context",
                    "a value that contains `: ` must be quoted, e.g. advice: \"Note: pin it\"",
                    y.broken
                ),
                "{} {size}: x",
                y.file
            );
        }
    }
}

/// 10^4 and then 49,000 fields no record has (as many as fit under the
/// limit of 10^5 values, each field being two): every one is an error at
/// its line, the first 100 are shown, and the JSON output has them all
/// (looked at once: reading 10^4 diagnostics back is slow in debug mode).
#[test]
fn ten_thousands_of_unknown_fields_at_once() {
    for y in &YAMLS {
        for count in [10_000, 49_000] {
            let lines: String = (0..count).map(|i| format!("x-{i:06}: 1\n")).collect();
            let site = y.with_lines(&lines);
            let shown = |k: usize| {
                format!(
                    "{}:{}:1: error: `x-{k:06}`: unknown field\n  hint: {}",
                    y.file,
                    y.end_line + k,
                    y.known
                )
            };
            assert_eq!(
                check(&site),
                many_errors(y.file, count, shown, ALL),
                "{} {count}",
                y.file
            );
            if y.file == FINDING && count == 10_000 {
                let json = site.run(&["check", "--format", "json"]);
                let list: Vec<serde_json::Value> = serde_json::from_str(&json.stdout).unwrap();
                assert_eq!(list.len(), count);
                assert_eq!(list[count - 1]["field"], format!("x-{:06}", count - 1));
                assert_eq!(list[count - 1]["line"], y.end_line + count - 1);
            }
        }
    }
}

/// A key given again and again: the parser stops at the second, and the
/// error is placed there, found by mapping all 10^5 lines.
#[test]
fn a_key_given_ten_thousands_of_times() {
    for y in &YAMLS {
        for size in SIZES {
            let lines = times("deep: [x]\n", size);
            assert_eq!(
                check(&y.with_lines(&lines)),
                one_error(
                    y.file,
                    y.end_line + 1,
                    1,
                    "the key \"deep\" appears twice in one mapping",
                    "each field may be given once; remove or merge the repeated one",
                    y.broken
                ),
                "{} {size}",
                y.file
            );
        }
    }
}

/// Past the limit of 10^5 values, the limit's message, at the first value
/// over it: 10^6 bytes of `a, ` in a flow list, each item a value.
#[test]
fn a_million_bytes_of_values() {
    for y in &YAMLS {
        let site = y.with_title(&format!("[{}]", times("a, ", 1_000_000)));
        let out = check(&site);
        // Before the list's first item come the document's mapping, the
        // fields before the title (a finding's `id: 7`, two values), the
        // key `title` and the list: item 100,001 − that is the first over.
        let before = if y.file == FINDING { 5 } else { 3 };
        let column = 9 + 3 * (100_001 - before - 1);
        assert_eq!(
            out,
            one_error(
                y.file,
                y.title_line,
                column,
                "the YAML holds more than 100000 values once its aliases are expanded",
                "records are small: write values out instead of repeating them with anchors and aliases (&name, *name)",
                y.broken
            )
        );
    }
}

/// 10^4 and 99,000 versions that are not versions, in one list on one line
/// of a finding: each at its own column on that line.
#[test]
fn ten_thousands_of_bad_versions_on_one_line() {
    for count in [10_000, 99_000] {
        let items: Vec<String> = (0..count).map(|i| format!("\"x{i}\"")).collect();
        let site = Site::copy_of("minimal");
        site.edit(
            FINDING,
            "affected: [\"0.28\", \"0.30\"]",
            &format!("affected: [{}]", items.join(", ")),
        );
        // `    affected: [` ends at column 15; each item and its `, ` follow.
        let mut columns = vec![16];
        for item in &items {
            columns.push(columns.last().unwrap() + item.len() + 2);
        }
        let shown = |k: usize| {
            format!(
                "{FINDING}:12:{}: error: `engines[0].affected[{k}]`: \"x{k}\" is not a version: it must start with a number\n  hint: versions look like 0.32.0, 1.3.0rc29, 2.0.0.dev3 or 0.6.0-rc.1",
                columns[k]
            )
        };
        assert_eq!(
            check(&site),
            many_errors(FINDING, count, shown, ALL),
            "{count}"
        );
    }
}

/// The same versions listed as affected and as clean, and releases listed
/// twice in site.yaml: each pair compared once, not each version with
/// each.
#[test]
fn versions_listed_twice_ten_thousands_of_times() {
    for count in [5_000, 45_000] {
        let list = |from: usize| -> String {
            (from..from + count)
                .map(|i| format!("\"1.{i}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let site = Site::copy_of("minimal");
        site.edit(
            FINDING,
            "affected: [\"0.28\", \"0.30\"]",
            &format!("affected: [{}]\n    clean: [{}]", list(0), list(0)),
        );
        // `    clean: [` ends at column 12.
        let mut columns = vec![13];
        for i in 0..count {
            columns.push(columns.last().unwrap() + format!("\"1.{i}\"").len() + 2);
        }
        let shown = |k: usize| {
            format!(
                "{FINDING}:13:{}: error: `engines[0].clean[{k}]`: version \"1.{k}\" is listed both as affected and as clean\n  hint: a tested version is one or the other; remove it from one list",
                columns[k]
            )
        };
        assert_eq!(
            check(&site),
            many_errors(FINDING, count, shown, ALL),
            "{count}"
        );

        let site = Site::copy_of("minimal");
        site.edit(
            "site.yaml",
            "releases: [\"0.28\", \"0.29\", \"0.30\", \"0.32.0\"]",
            &format!("releases: [{}, {}]", list(0), list(0)),
        );
        // `    releases: [` ends at column 15; the second list follows the first.
        let mut columns = vec![16];
        for i in 0..2 * count {
            columns.push(columns.last().unwrap() + format!("\"1.{}\"", i % count).len() + 2);
        }
        let shown = |k: usize| {
            format!(
                "site.yaml:15:{}: error: `engines[0].releases[{}]`: release \"1.{k}\" is listed twice (versions compare equal when only trailing zeros differ)",
                columns[count + k],
                count + k
            )
        };
        assert_eq!(
            check(&site),
            many_errors("site.yaml", count, shown, ALL),
            "site.yaml {count}"
        );
    }
}

/// A run's CSV with 12,500 or 100,000 rows whose two numeric cells are
/// words: two errors a row, at the cells' columns; past 100,000 rows, the
/// table's limit too.
#[test]
fn ten_thousands_of_cells_that_are_not_numbers() {
    for size in SIZES {
        let rows = size / 8;
        let site = Site::copy_of("minimal");
        site.write(
            CSV,
            &format!("start,engine,cache,peak\n{}", "a,b,x,y\n".repeat(rows)),
        );
        let total = 2 * rows.min(100_000) + usize::from(rows > 100_000);
        let shown = |k: usize| {
            let (field, column, cell) = if k.is_multiple_of(2) {
                ("cache", 5, "x")
            } else {
                ("peak", 7, "y")
            };
            format!(
                "{CSV}:{}:{column}: error: `{field}`: expected a number, found \"{cell}\"\n  hint: numeric columns (those with a unit) take plain numbers like 1274 or 0.5, without thousands separators; leave the cell empty for no value",
                2 + k / 2
            )
        };
        assert_eq!(
            check(&site),
            many_errors(CSV, total, shown, ALL),
            "{rows} rows"
        );
    }
}

/// One row of thousands of cells that are not numbers, under as many
/// described columns: each cell's column is found without walking the row
/// again for each.
#[test]
fn a_row_of_thousands_of_cells_that_are_not_numbers() {
    for size in SIZES {
        // Each column takes 36 bytes or so to describe in run.yaml, and six
        // values of the 10^5 a document may hold.
        let count = (size / 40).min(16_000);
        let names: Vec<String> = (0..count).map(|i| format!("c{i:05}")).collect();
        let site = Site::copy_of("minimal");
        let described: String = names
            .iter()
            .map(|n| format!("      {n}: {{unit: s, description: d}}\n"))
            .collect();
        site.edit(
            RUN,
            "      start: {description: Which start}\n",
            &format!("      start: {{description: Which start}}\n{described}"),
        );
        site.write(
            CSV,
            &format!(
                "{},start,engine,cache,peak\n{}compiled,vllm,51079,266\n",
                names.join(","),
                "xx,".repeat(count)
            ),
        );
        let shown = |k: usize| {
            format!(
                "{CSV}:2:{}: error: `{}`: expected a number, found \"xx\"\n  hint: numeric columns (those with a unit) take plain numbers like 1274 or 0.5, without thousands separators; leave the cell empty for no value",
                1 + 3 * k,
                names[k]
            )
        };
        assert_eq!(
            check(&site),
            many_errors(CSV, count, shown, ALL),
            "{count} cells"
        );
    }
}

/// A CSV cell whose quote is never closed runs to the end of the file:
/// one row, reported at its line with the hint about the quote.
#[test]
fn a_quote_left_open_in_a_csv() {
    for size in SIZES {
        let site = Site::copy_of("minimal");
        site.write(
            CSV,
            &format!(
                "start,engine,cache,peak\n\"a,b,1,2\n{}",
                times("a,b,1,2\n", size)
            ),
        );
        assert_eq!(
            check(&site),
            one_error(
                CSV,
                2,
                1,
                "row has 1 cell, the header has 4",
                "a cell that starts with a quote (\") runs to the next quote, across lines; is a closing quote missing?",
                ALL
            ),
            "{size}"
        );
    }
}

/// The body's own hostile content: 10^5 or 10^6 `[` and nested quotes are
/// text; a code block never closed is one error however long.
#[test]
fn bodies_of_brackets_quotes_and_a_fence_left_open() {
    let end = "Set the cache size explicitly.";
    for size in SIZES {
        for text in [times("[", size), times("> ", size) + "x", times("{", size)] {
            let site = Site::copy_of("minimal");
            site.edit(FINDING, end, &format!("{end}\n\n{text}"));
            assert_eq!(
                check(&site),
                format!("check: 0 errors, 0 warnings in {ALL}\n")
            );
        }
        let site = Site::copy_of("minimal");
        site.edit(
            FINDING,
            end,
            &format!("{end}\n\n```\n{}", times("x\n", size)),
        );
        assert_eq!(
            check(&site),
            one_error(
                FINDING,
                38,
                1,
                "`body`: the code block opened at line 38 is never closed",
                "end it with a line of the same fence (``` or ~~~, at least as long); until then everything below it is code, headings included",
                ALL
            )
        );
    }
}

/// Thousands of links to a heading that is not there, all on one line: the
/// column of each counted from the one before.
#[test]
fn ten_thousands_of_broken_links_on_one_line() {
    let end = "Set the cache size explicitly.";
    for size in SIZES {
        let link = "[a](#nope) ";
        let count = size / link.len();
        let site = Site::copy_of("minimal");
        site.edit(FINDING, end, &format!("{end}\n\n{}\n", link.repeat(count)));
        let shown = |k: usize| {
            format!(
                "{FINDING}:38:{}: error: `body`: no heading in this body has the id \"nope\"\n  hint: body links may be http(s)://, mailto:, finding:<id>, run:<run-id>, a site path starting with / or a #fragment",
                1 + k * link.len()
            )
        };
        assert_eq!(
            check(&site),
            many_errors(FINDING, count, shown, ALL),
            "{count}"
        );
    }
}

/// Thousands of links without a scheme that look like a host, one a line.
#[test]
fn ten_thousands_of_links_that_look_like_hosts() {
    let end = "Set the cache size explicitly.";
    for size in SIZES {
        let links: Vec<String> = (0..size / 25)
            .map(|i| format!("[a](example.com/{i})"))
            .collect();
        let site = Site::copy_of("minimal");
        site.edit(FINDING, end, &format!("{end}\n\n{}\n", links.join("\n")));
        let shown = |k: usize| {
            format!(
                "{FINDING}:{}:1: error: `body`: the link \"example.com/{k}\" has no scheme, so it would lead to a page of this site\n  hint: for the web address, write https://example.com/{k}",
                38 + k
            )
        };
        assert_eq!(
            check(&site),
            many_errors(FINDING, links.len(), shown, ALL),
            "{}",
            links.len()
        );
    }
}

/// Thousands of names no site knows, among thousands the site does: a
/// finding's engines, runs and charts, each checked with a lookup, the
/// first 100 of the file with a search for a close name.
#[test]
fn ten_thousands_of_unknown_names_among_thousands_of_known_ones() {
    for count in [2_000, 12_000] {
        let site = Site::copy_of("minimal");
        let engines: String = (0..count)
            .map(|i| format!("  - {{id: engine-{i:05}, name: E, color: \"#000000\"}}\n"))
            .collect();
        site.edit("site.yaml", "engines:\n", &format!("engines:\n{engines}"));
        let entries: String = (0..count)
            .map(|i| format!("  - engine: engin-{i:05}\n"))
            .collect();
        site.edit(FINDING, "engines:\n", &format!("engines:\n{entries}"));
        // Entry i is on line 11 + i; the first 100 searches find engine-i
        // an edit away; later hints list the known engines unsearched, the
        // first 30 in order.
        let listed: Vec<String> = (0..30).map(|i| format!("engine-{i:05}")).collect();
        let known = format!(
            "known engines: {} and {} more",
            listed.join(", "),
            count + 2 - 30
        );
        let shown = |k: usize| {
            let hint = if k < 100 {
                format!("did you mean \"engine-{k:05}\"?")
            } else {
                known.clone()
            };
            format!(
                "{FINDING}:{}:5: error: `engines[{k}].engine`: unknown engine \"engin-{k:05}\"\n  hint: {hint}",
                11 + k
            )
        };
        assert_eq!(
            check(&site),
            many_errors(FINDING, count, shown, ALL),
            "{count}"
        );
    }
}

/// Thousands of charts of one table of 5,000 rows: each is read as the
/// build will draw it, up to 10^5 values for the run; the chart that goes
/// past is reported, and no chart after it is read.
#[test]
fn thousands_of_charts_of_one_big_table() {
    // As many charts as fit in the size, under the YAML limit of 10^5
    // values (11 a chart).
    for count in [1_500, 8_000] {
        let site = Site::copy_of("minimal");
        let charts: String = (0..count)
            .map(|i| format!("  - {{id: c{i}, title: t, table: starts.csv, x: start, y: cache}}\n"))
            .collect();
        site.edit(RUN, "charts:\n", &format!("charts:\n{charts}"));
        let rows: String = (0..5000).map(|i| format!("s{i},vllm,{i},{i}\n")).collect();
        site.write(CSV, &format!("start,engine,cache,peak\n{rows}"));
        // Chart k brings the run to 5,000 × (k + 1) values; `charts:` is
        // on line 19, chart k on line 20 + k.
        assert_eq!(
            check(&site),
            one_error(
                RUN,
                40,
                3,
                "`charts[20]`: with chart \"c20\", the charts of this run would draw 105000 values; the limit for one run is 100000",
                "chart summaries of the data (its CSV tables are published in full anyway), or spread the charts over several runs",
                ALL
            ),
            "{count} charts"
        );
    }
}

/// Keys of 1,000 characters (the longest plain key YAML takes) nested 50
/// deep, with thousands of keys under the deepest: the outermost is the
/// unknown field, at its line, and mapping the paths below it costs no
/// more than their lines.
#[test]
fn keys_of_a_thousand_characters_nested_deep() {
    let key = "k".repeat(1000);
    for size in SIZES {
        let mut lines: String = (0..50)
            .map(|d| format!("{}{key}:\n", "  ".repeat(d)))
            .collect();
        let mut i = 0;
        while lines.len() < size {
            lines.push_str(&format!("{}c{i}: 1\n", "  ".repeat(50)));
            i += 1;
        }
        let y = &YAMLS[0];
        assert_eq!(
            check(&y.with_lines(&lines)),
            format!(
                "{}:{}:1: error: `{key}`: unknown field\n  hint: {}\ncheck: 1 error, 0 warnings in {ALL}\n",
                y.file, y.end_line, y.known
            ),
            "{size}"
        );
    }
}
