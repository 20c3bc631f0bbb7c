//! Measures a rebuild under `serve` after one finding changes, as
//! `bench/bench.py` reports it: builds `<root>` into `<output>` with a
//! [`findings::Session`], then edits one finding (appends a sentence to its
//! body, then takes it out again), rebuilding after each edit, and prints
//! the median rebuild time in milliseconds.
//!
//!     cargo run --release --example rebuild -- <root> <output> [rounds] [title]

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (root, output) = match (args.first(), args.get(1)) {
        (Some(r), Some(o)) => (std::path::PathBuf::from(r), std::path::PathBuf::from(o)),
        _ => {
            eprintln!("usage: rebuild <root> <output> [rounds] [title]");
            std::process::exit(2);
        }
    };
    let rounds: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(10);
    let opts = findings::BuildOptions {
        root: root.clone(),
        output,
        base_url: None,
        drafts: false,
    };
    let mut session = findings::Session::new();
    let t = Instant::now();
    session.build(&opts).expect("the first build");
    eprintln!("first build: {} ms", t.elapsed().as_millis());
    let mut files: Vec<_> = std::fs::read_dir(root.join("findings"))
        .expect("a findings folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    let file = &files[files.len() / 2];
    let original = std::fs::read_to_string(file).expect("the finding");
    let mut times = Vec::new();
    for round in 0..rounds {
        // By default a sentence is added at the end of the body; with
        // `title` as the fourth argument the title changes instead, which
        // also changes every list the finding is in.
        let text = match (round % 2, args.get(3).map(String::as_str)) {
            (1, _) => original.clone(),
            (_, Some("title")) => original.replacen("title: \"", "title: \"Edited ", 1),
            _ => format!("{original}\nOne more sentence, edited in round {round}.\n"),
        };
        std::fs::write(file, text).expect("the edit");
        let t = Instant::now();
        let report = session.build(&opts).expect("a rebuild");
        if std::env::var_os("REBUILD_VERBOSE").is_some() {
            eprintln!("{:?}", report.timings);
        }
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    std::fs::write(file, &original).expect("the original back");
    times.sort_by(f64::total_cmp);
    println!("{:.1}", times[times.len() / 2]);
}
