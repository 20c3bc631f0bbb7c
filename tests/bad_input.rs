//! The bad-input corpus: broken folders and the exact output of
//! `findings check` for each.
//!
//! Each case is a folder under `tests/bad_input/<case>/` holding the files
//! that differ from `tests/fixtures/minimal` (same relative paths), an
//! optional `delete.txt` listing fixture files to remove first, and
//! `expected.txt`: the exact stderr of `findings check`. The exit status must
//! be 1, or 0 when the last line reports 0 errors (a documented acceptance).
//! A check that panics, hangs (more than 30 s) or prints anything else fails.
//!
//! Cases that need files that cannot be committed (symbolic links, pipes,
//! ten megabytes, bytes that are not UTF-8, CR line ends) are written at run
//! time by the `#[test]` functions at the end of this file.
//!
//! To see what a new case prints, create its folder without `expected.txt`
//! and run `BLESS=1 cargo test --test bad_input <case>`; then read the
//! message before keeping it: a case pins a message only once it is clear.
#![allow(missing_docs)]

mod common;

use common::Site;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_input")
}

/// The result of one `findings` run, which must end within 30 seconds.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn findings(args: &[&str], root: &Path) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(args)
        .arg("--root")
        .arg(root)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("run findings");
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("findings {args:?} did not finish within 30 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: read(&out),
        stderr: read(&err),
    }
}

fn check(site: &Site) -> Run {
    findings(&["check"], site.root())
}

/// Asserts the exact stderr and the exit status that goes with it.
fn assert_check(name: &str, run: &Run, expected: &str) {
    assert!(
        !run.stderr.contains("panicked"),
        "{name}: findings panicked:\n{}",
        run.stderr
    );
    let clean = expected
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("check: 0 errors"));
    assert_eq!(
        run.stderr, expected,
        "{name}: stderr differs (left: got, right: expected)"
    );
    assert_eq!(run.code, if clean { 0 } else { 1 }, "{name}: exit status");
    assert_eq!(run.stdout, "", "{name}: stdout");
}

/// Copies the minimal fixture and lays the case's files over it.
fn site_for(name: &str) -> Site {
    let case = corpus().join(name);
    assert!(case.is_dir(), "no case folder {}", case.display());
    let site = Site::copy_of("minimal");
    if let Ok(list) = std::fs::read_to_string(case.join("delete.txt")) {
        for rel in list.lines().filter(|l| !l.trim().is_empty()) {
            let p = site.path(rel.trim());
            if p.is_dir() {
                std::fs::remove_dir_all(&p).unwrap();
            } else {
                std::fs::remove_file(&p).unwrap_or_else(|e| panic!("{name}: delete {rel}: {e}"));
            }
        }
    }
    for entry in walkdir::WalkDir::new(&case).min_depth(1) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(&case).unwrap();
        if rel == Path::new("expected.txt") || rel == Path::new("delete.txt") {
            continue;
        }
        let to = site.root().join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    site
}

fn run_case(name: &str) {
    let site = site_for(name);
    let run = check(&site);
    let expected_path = corpus().join(name).join("expected.txt");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &run.stderr).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path)
        .unwrap_or_else(|e| panic!("{name}: {}: {e}", expected_path.display()));
    assert_check(name, &run, &expected);
}

macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_case(stringify!($name));
            }
        )*
        const CASES: &[&str] = &[$(stringify!($name)),*];
    };
}

cases! {
    compare_names_that_do_not_exist,
    compare_of_runs_in_site_yaml,
    noise_rules_that_do_not_read,
    affected_before_introduced,
    affected_index_after_a_bad_item,
    alias_over_a_built_in_file,
    alias_over_a_page_file,
    alias_over_a_published_csv,
    alias_over_a_static_file,
    alias_used_by_two_findings,
    alias_with_a_space,
    alias_with_dot_dot,
    alias_without_leading_slash,
    aliases_used_for_repetition_are_read,
    base_url_not_http,
    billion_laughs,
    body_code_fence_never_closed,
    body_link_that_looks_like_a_host,
    body_link_with_an_empty_target,
    body_site_path_with_dot_dot,
    cdf_chart_with_y_and_log_y,
    chart_column_with_no_values,
    chart_log_axis_is_a_string,
    chart_mark_not_a_number,
    chart_mark_on_a_log_axis_at_zero,
    chart_of_a_missing_run,
    chart_of_a_missing_table,
    chart_of_a_run_not_listed,
    chart_reference_with_dot_dot,
    chart_reference_without_run,
    check_names_unknown,
    symptom_names_unknown,
    symptom_contradicts_the_record,
    symptom_contradiction_acknowledged,
    clean_index_after_a_bad_item,
    column_label_empty_or_a_number,
    column_unit_is_a_list,
    columns_is_a_list,
    csv_described_column_missing,
    csv_empty_file,
    csv_header_with_trailing_comma,
    csv_line_numbers_after_blank_lines,
    csv_nan_and_infinity,
    csv_only_blank_lines,
    csv_positions_after_quoted_cells,
    csv_row_too_long,
    csv_unclosed_quote,
    data_image_in_body,
    date_in_month_thirteen,
    date_on_a_leap_day_of_a_common_year,
    date_with_a_time,
    deeply_nested_flow_lists,
    deeply_nested_mappings,
    derived_table_problems,
    draft_is_a_string,
    duplicate_csv_header,
    duplicate_engine_entry,
    duplicate_engine_id,
    duplicate_group_id,
    duplicate_key_in_front_matter,
    duplicate_key_in_run,
    duplicate_key_in_site,
    duplicate_release_spellings,
    empty_engines_list,
    empty_finding_file,
    empty_run_yaml,
    empty_site_yaml,
    empty_string_title,
    engine_id_reserved,
    engine_packages_and_images,
    engine_repo_not_http,
    engines_is_a_string,
    field_names_are_case_sensitive,
    finding_extension_in_capitals,
    finding_file_name_with_capitals,
    finding_file_name_with_underscore,
    finding_file_of_blank_lines,
    fragment_not_in_body,
    front_matter_empty,
    front_matter_is_a_list,
    front_matter_not_on_first_line,
    front_matter_opening_with_text,
    group_id_too_long,
    grouped_bar_with_two_values_for_one_bar,
    http_link_with_spaces,
    id_is_a_fraction,
    id_is_negative,
    introduced_after_fix,
    javascript_autolink_in_body,
    javascript_in_links_field,
    javascript_link_in_capitals,
    link_is_a_bare_url,
    link_kind_unknown,
    link_to_a_draft_finding,
    link_to_a_missing_run,
    links_index_after_a_bad_item,
    list_started_by_a_wrapped_line,
    missing_column_description,
    missing_engines,
    missing_link_url,
    missing_run_title_and_date,
    missing_run_yaml,
    missing_site_title,
    missing_site_yaml,
    missing_withdrawn_reason,
    nav_engines_unknown,
    no_groups_defined,
    page_size_zero,
    protocol_relative_link,
    published_is_a_number,
    relative_link_in_body,
    required_value_left_empty,
    result_file_cut_short,
    result_file_holding_a_credential,
    result_file_of_another_model,
    result_file_of_no_known_format,
    result_files_measuring_one_setting_twice,
    result_path_problems,
    run_date_without_zero_padding,
    run_folder_name_with_capitals,
    run_reference_with_dot_dot,
    run_setup_version_malformed,
    run_with_no_setups,
    run_with_no_tables,
    runs_index_after_a_bad_item,
    same_finding_under_two_names,
    seen_version_also_affected,
    site_path_to_a_draft,
    site_path_to_a_withdrawn_findings_tag,
    site_path_with_another_version_spelling,
    site_path_without_trailing_slash_is_fine,
    site_yaml_is_a_list,
    superseded_by_a_missing_finding,
    superseded_by_itself,
    tab_indentation_in_run,
    tab_indentation_in_site,
    tab_inside_values_is_fine,
    table_file_absolute_path,
    table_file_hidden,
    table_file_in_a_subfolder,
    table_listed_twice,
    tag_too_long,
    tags_is_a_string,
    title_is_a_number,
    unknown_engine_far_from_any,
    unknown_field_in_chart,
    unknown_field_in_engine_entry,
    unknown_field_in_run,
    unknown_field_no_close_match,
    unknown_group_far_from_any,
    vbscript_link_in_body,
    version_empty,
    version_is_a_whole_number,
    version_too_long,
    version_with_repeated_separators,
    version_with_spaces,
    withdrawn_before_published,
    yaml_bad_indentation,
    yaml_colon_in_plain_value,
    yaml_custom_tag_on_a_mapping,
    yaml_custom_tag_on_a_scalar_is_ignored,
    yaml_flow_list_left_open,
    yaml_flow_mapping_left_open,
    yaml_merge_key,
    yaml_syntax_error_in_run,
    yaml_syntax_error_in_site,
    yaml_two_documents_in_run,
    yaml_unclosed_quote,
    yaml_unknown_anchor,
    yaml_value_starting_with_reserved_character,
}

#[test]
fn every_case_folder_is_listed_and_every_listed_case_has_a_folder() {
    let mut folders: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut listed: Vec<String> = CASES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        folders, listed,
        "tests/bad_input/ and the cases! list differ"
    );
    for c in CASES {
        assert!(
            corpus().join(c).join("expected.txt").is_file(),
            "{c} has no expected.txt"
        );
    }
}

// ---------------------------------------------------------------------------
// Cases written at run time.

const F7: &str = "findings/cache-size.md";
const F12: &str = "findings/draft-idea.md";
const RUN: &str = "data/runs/cache-sweep/run.yaml";
const CSV: &str = "data/runs/cache-sweep/starts.csv";

fn write_bytes(site: &Site, rel: &str, bytes: &[u8]) {
    let p = site.path(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// A folder outside the site, removed with the returned guard.
fn outside() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link)
        .unwrap_or_else(|e| panic!("symlink {} -> {}: {e}", link.display(), target.display()));
}

const CLEAN: &str = "check: 0 errors, 0 warnings in 4 findings and 1 run\n";

/// Builds the site into a fresh folder and returns every file it wrote.
fn built(site: &Site) -> Vec<(String, Vec<u8>)> {
    let out = tempfile::tempdir().unwrap();
    let public = out.path().join("public");
    let run = findings(
        &["build", "--output", public.to_str().unwrap()],
        site.root(),
    );
    assert_eq!(run.code, 0, "build failed:\n{}", run.stderr);
    common::tree(&public)
}

/// Asserts that two builds wrote the same files, byte for byte.
fn assert_same_site(a: &[(String, Vec<u8>)], b: &[(String, Vec<u8>)]) {
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(a), names(b));
    for ((name, x), (_, y)) in a.iter().zip(b) {
        assert!(x == y, "{name} differs");
    }
}

#[test]
fn byte_order_marks_are_accepted() {
    let site = Site::copy_of("minimal");
    let plain = built(&site);
    for rel in ["site.yaml", F7, RUN, CSV] {
        let text = site.read(rel);
        write_bytes(&site, rel, format!("\u{feff}{text}").as_bytes());
    }
    assert_check("byte_order_marks_are_accepted", &check(&site), CLEAN);
    // The mark is dropped, not kept as text before the first field: the
    // site is the same as without it.
    assert_same_site(&built(&site), &plain);
}

#[test]
fn crlf_and_cr_line_ends_are_accepted() {
    let site = Site::copy_of("minimal");
    let plain = built(&site);
    for rel in ["site.yaml", F7, CSV] {
        let text = site.read(rel).replace('\n', "\r\n");
        write_bytes(&site, rel, text.as_bytes());
    }
    // Old Mac line ends, CR alone.
    let text = site.read(RUN).replace('\n', "\r");
    write_bytes(&site, RUN, text.as_bytes());
    assert_check("crlf_and_cr_line_ends_are_accepted", &check(&site), CLEAN);
    // The content is intact: the site is the same as with \n line ends.
    assert_same_site(&built(&site), &plain);
}

#[test]
fn bytes_that_are_not_utf8_in_a_finding() {
    let site = Site::copy_of("minimal");
    let text = site
        .read(F7)
        .replace("kept **less** cache", "kept **l\u{e9}ss** cache");
    // Latin-1 é (0xE9) where UTF-8 wants two bytes.
    let bytes = text.replace('\u{e9}', "\u{1}").into_bytes();
    let bytes: Vec<u8> = bytes
        .into_iter()
        .map(|b| if b == 1 { 0xe9 } else { b })
        .collect();
    write_bytes(&site, F7, &bytes);
    assert_check(
        "bytes_that_are_not_utf8_in_a_finding",
        &check(&site),
        "findings/cache-size.md:24:48: error: the file is not valid UTF-8\n  hint: save it as UTF-8\n\
         check: 1 error, 0 warnings in 3 findings and 1 run\n",
    );
}

#[test]
fn bytes_that_are_not_utf8_in_a_table() {
    let site = Site::copy_of("minimal");
    let mut bytes = site.read(CSV).into_bytes();
    bytes.extend_from_slice(b"caf\xe9,vllm,1,2\n");
    write_bytes(&site, CSV, &bytes);
    assert_check(
        "bytes_that_are_not_utf8_in_a_table",
        &check(&site),
        "data/runs/cache-sweep/starts.csv:4:4: error: the file is not valid UTF-8\n  hint: save it as UTF-8\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

#[test]
fn a_body_of_ten_megabytes() {
    let site = Site::copy_of("minimal");
    let mut text = site.read(F12);
    let line = "A line of text that repeats to make a very large body.\n";
    while text.len() < 10 * 1024 * 1024 {
        text.push_str(line);
    }
    write_bytes(&site, F12, text.as_bytes());
    let expected = format!(
        "findings/draft-idea.md: error: the file is {} bytes; the limit is 1048576\n  hint: split it, or move bulk data into a run's CSV table\n\
         check: 1 error, 0 warnings in 3 findings and 1 run\n",
        text.len()
    );
    assert_check("a_body_of_ten_megabytes", &check(&site), &expected);
}

#[test]
fn a_table_over_its_size_limit() {
    let site = Site::copy_of("minimal");
    // A sparse file: its size is what counts, and it is never read.
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(site.path(CSV))
        .unwrap();
    f.set_len(9 * 1024 * 1024).unwrap();
    assert_check(
        "a_table_over_its_size_limit",
        &check(&site),
        "data/runs/cache-sweep/starts.csv: error: the file is 9437184 bytes; the limit is 8388608\n  hint: split it, or move bulk data into a run's CSV table\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

#[test]
fn a_table_with_too_many_rows() {
    let site = Site::copy_of("minimal");
    let mut csv = String::from("start,engine,cache,peak\n");
    for i in 0..100_001 {
        csv.push_str(&format!("s{i},vllm,{i},1\n"));
    }
    site.write(CSV, &csv);
    assert_check(
        "a_table_with_too_many_rows",
        &check(&site),
        "data/runs/cache-sweep/starts.csv:100002:1: error: the table has more than 100000 rows\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

#[test]
fn a_chart_with_too_many_values() {
    let site = Site::copy_of("minimal");
    let mut csv = String::from("start,engine,cache,peak\n");
    for i in 0..10_001 {
        csv.push_str(&format!("s{i},e{i},{i},1\n"));
    }
    site.write(CSV, &csv);
    let msg = "chart \"{id}\" would draw 10001 values (10001 rows × 1 y columns); the limit is 10000\n  hint: chart a summary of the data (its CSV table is published in full anyway), or split it into several charts\n";
    let expected = format!(
        "data/runs/cache-sweep/run.yaml:20:3: error: `charts[0]`: {}\
         data/runs/cache-sweep/run.yaml:27:3: error: `charts[1]`: {}\
         check: 2 errors, 0 warnings in 4 findings and 1 run\n",
        msg.replace("{id}", "cache"),
        msg.replace("{id}", "peak")
    );
    assert_check("a_chart_with_too_many_values", &check(&site), &expected);
}

#[test]
fn aliases_that_expand_quadratically() {
    // Not nested like the billion laughs, but one long anchored list
    // repeated: 20,000 values × 20 = 400,000, from a file of 60 kB.
    let site = Site::copy_of("minimal");
    let items = vec!["x"; 20_000].join(",");
    let refs = vec!["*a"; 20].join(",");
    site.edit(
        F12,
        "draft: true",
        &format!("draft: true\nnotes: [&a [{items}], {refs}]"),
    );
    let out = check(&site);
    assert_check(
        "aliases_that_expand_quadratically",
        &out,
        "findings/draft-idea.md:9:39969: error: the YAML holds more than 100000 values once its aliases are expanded\n  hint: records are small: write values out instead of repeating them with anchors and aliases (&name, *name)\n\
         check: 1 error, 0 warnings in 3 findings and 1 run\n",
    );
}

#[test]
fn a_finding_that_links_outside_the_root() {
    let site = Site::copy_of("minimal");
    let away = outside();
    std::fs::write(
        away.path().join("x.md"),
        site.read(F12).replace("id: 12", "id: 40"),
    )
    .unwrap();
    symlink(&away.path().join("x.md"), &site.path("findings/linked.md"));
    assert_check(
        "a_finding_that_links_outside_the_root",
        &check(&site),
        "findings/linked.md: error: is a symbolic link that leads outside the site folder\n  hint: copy the file into the folder instead of linking to it\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

#[test]
fn a_table_that_links_outside_the_root() {
    // The link is inside a run folder, one level below what the folder
    // listing looks at: the table reader must check it too.
    let site = Site::copy_of("minimal");
    let away = outside();
    std::fs::write(away.path().join("secret.csv"), site.read(CSV)).unwrap();
    std::fs::remove_file(site.path(CSV)).unwrap();
    symlink(&away.path().join("secret.csv"), &site.path(CSV));
    assert_check(
        "a_table_that_links_outside_the_root",
        &check(&site),
        "data/runs/cache-sweep/starts.csv: error: leads outside the site folder through a symbolic link\n  hint: copy the file into the folder instead of linking to it\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

#[test]
fn a_run_yaml_that_links_outside_the_root() {
    let site = Site::copy_of("minimal");
    let away = outside();
    std::fs::write(away.path().join("run.yaml"), site.read(RUN)).unwrap();
    std::fs::remove_file(site.path(RUN)).unwrap();
    symlink(&away.path().join("run.yaml"), &site.path(RUN));
    assert_check(
        "a_run_yaml_that_links_outside_the_root",
        &check(&site),
        "data/runs/cache-sweep/run.yaml: error: leads outside the site folder through a symbolic link\n  hint: copy the file into the folder instead of linking to it\n\
         check: 1 error, 0 warnings in 4 findings and 0 runs\n",
    );
}

#[test]
fn a_run_folder_that_links_outside_the_root() {
    let site = Site::copy_of("minimal");
    let away = outside();
    std::fs::create_dir(away.path().join("other")).unwrap();
    std::fs::write(away.path().join("other/run.yaml"), site.read(RUN)).unwrap();
    symlink(&away.path().join("other"), &site.path("data/runs/other"));
    assert_check(
        "a_run_folder_that_links_outside_the_root",
        &check(&site),
        "data/runs/other: error: is a symbolic link that leads outside the site folder\n  hint: copy the file into the folder instead of linking to it\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

#[test]
fn a_findings_folder_that_links_outside_the_root() {
    // Each file in it is itself a plain file; where it really is counts.
    let site = Site::copy_of("minimal");
    let away = outside();
    let real = away.path().join("findings");
    std::fs::rename(site.path("findings"), &real).unwrap();
    symlink(&real, &site.path("findings"));
    let mut expected = String::new();
    for f in ["cache-size", "draft-idea", "old-claim", "wrong-answers"] {
        expected.push_str(&format!("findings/{f}.md: error: leads outside the site folder through a symbolic link\n  hint: copy the file into the folder instead of linking to it\n"));
    }
    expected.push_str("check: 4 errors, 0 warnings in 0 findings and 1 run\n");
    assert_check(
        "a_findings_folder_that_links_outside_the_root",
        &check(&site),
        &expected,
    );
}

#[test]
fn site_yaml_that_links_outside_the_root() {
    let site = Site::copy_of("minimal");
    let away = outside();
    std::fs::rename(site.path("site.yaml"), away.path().join("site.yaml")).unwrap();
    symlink(&away.path().join("site.yaml"), &site.path("site.yaml"));
    assert_check(
        "site_yaml_that_links_outside_the_root",
        &check(&site),
        "site.yaml: error: leads outside the site folder through a symbolic link\n  hint: copy the file into the folder instead of linking to it\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

#[test]
fn symbolic_links_inside_the_root_are_followed() {
    let site = Site::copy_of("minimal");
    std::fs::create_dir(site.path("shared")).unwrap();
    std::fs::rename(site.path(CSV), site.path("shared/starts.csv")).unwrap();
    symlink(Path::new("../../../shared/starts.csv"), &site.path(CSV));
    std::fs::rename(site.path(F12), site.path("shared/draft.md")).unwrap();
    symlink(Path::new("../shared/draft.md"), &site.path(F12));
    assert_check(
        "symbolic_links_inside_the_root_are_followed",
        &check(&site),
        CLEAN,
    );
}

#[test]
fn a_dangling_symbolic_link() {
    let site = Site::copy_of("minimal");
    std::fs::remove_file(site.path(CSV)).unwrap();
    symlink(Path::new("nowhere.csv"), &site.path(CSV));
    assert_check(
        "a_dangling_symbolic_link",
        &check(&site),
        "data/runs/cache-sweep/run.yaml:12:5: error: `tables[0].file`: the table file \"starts.csv\" does not exist\n  hint: create data/runs/cache-sweep/starts.csv or fix the name\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

#[test]
fn a_named_pipe_instead_of_a_file() {
    // Reading a pipe would wait forever for a writer.
    let site = Site::copy_of("minimal");
    let status = Command::new("mkfifo")
        .arg(site.path("findings/pipe.md"))
        .status()
        .expect("mkfifo");
    assert!(status.success());
    assert_check(
        "a_named_pipe_instead_of_a_file",
        &check(&site),
        "findings/pipe.md: error: is not a regular file (it is a pipe, a socket or a device)\n  hint: findings reads only regular files; replace it with one\n\
         check: 1 error, 0 warnings in 4 findings and 1 run\n",
    );
}

// ---------------------------------------------------------------------------
// A site path that check accepts is a page that build writes.

/// The site paths of the pages a build wrote: `x/index.html` → `x/`, other
/// files as they are; redirect pages (aliases) are left out.
fn written_pages(out: &Path, aliases: &[String]) -> std::collections::BTreeSet<String> {
    common::tree(out)
        .into_iter()
        .map(|(name, _)| match name.strip_suffix("index.html") {
            Some(dir) => dir.to_string(),
            None => name,
        })
        .filter(|p| !aliases.contains(p))
        .collect()
}

fn assert_check_matches_build(root: &Path, drafts: bool) {
    let (loaded, diags) = findings::check(root);
    assert!(!diags.has_errors(), "{:?}", diags.sorted());
    let paths: std::collections::BTreeSet<String> = findings::validate::site_paths(&loaded, drafts)
        .into_iter()
        .collect();
    let aliases: Vec<String> = loaded
        .findings
        .iter()
        .filter(|f| drafts || !f.draft)
        .flat_map(|f| f.aliases.iter().map(|a| findings::urls::alias(a)))
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("public");
    findings::build(&findings::BuildOptions {
        root: root.to_path_buf(),
        output: out.clone(),
        base_url: None,
        drafts,
    })
    .unwrap_or_else(|e| panic!("build: {e}"));
    let written = written_pages(&out, &aliases);
    let missing: Vec<&String> = paths.difference(&written).collect();
    assert!(
        missing.is_empty(),
        "check accepts links to pages that are not written: {missing:?}"
    );
    // And every HTML page written is known to check.
    let unknown: Vec<&String> = written
        .iter()
        .filter(|p| p.is_empty() || p.ends_with('/') || p.ends_with(".html"))
        .filter(|p| !paths.contains(*p))
        .collect();
    assert!(unknown.is_empty(), "pages check does not know: {unknown:?}");
}

#[test]
fn check_knows_exactly_the_pages_build_writes() {
    let site = Site::copy_of("minimal");
    // A version written two ways: the page takes the spelling of releases.
    site.edit(
        F7,
        "affected: [\"0.28\", \"0.30\"]",
        "affected: [\"0.28.0\", \"0.30.0\"]",
    );
    // Not in releases, written two ways: the first finding by id wins, here
    // a withdrawn one (its versions still get pages).
    site.edit(
        "findings/old-claim.md",
        "affected: [\"0.29\"]",
        "affected: [\"0.29\", \"0.31.0\"]",
    );
    site.edit(
        "findings/wrong-answers.md",
        "affected: [\"0.28\"]",
        "affected: [\"0.28\", \"0.31\"]",
    );
    // A draft and a withdrawn finding with tags and models of their own.
    site.edit(
        F12,
        "draft: true",
        "draft: true\ntags: [draft-only]\nmodels: [Draft-Model]",
    );
    site.edit(
        "findings/old-claim.md",
        "superseded_by: 7",
        "superseded_by: 7\ntags: [withdrawn-only]",
    );
    for drafts in [false, true] {
        assert_check_matches_build(site.root(), drafts);
    }
}

#[test]
fn check_knows_exactly_the_pages_build_writes_for_the_bundled_site() {
    assert_check_matches_build(&common::bundled(), false);
}
