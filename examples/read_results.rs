//! Reads result files as `findings` reads them and prints, per file, the
//! time to read it (parse, detect, fill the tables), to scrub it, and to
//! look for a credential left in the scrubbed copy, in milliseconds, with
//! its rows; `bench/results.py` runs it on a generated 50 MB
//! `--save-detailed` file.
//!
//!     cargo run --release --example read_results -- FILE... [--rounds N]

use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = match args.iter().position(|a| a == "--rounds") {
        Some(i) => {
            let n = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(5);
            args.drain(i..(i + 2).min(args.len()));
            n
        }
        None => 5,
    };
    if args.is_empty() {
        eprintln!("usage: read_results FILE... [--rounds N]");
        std::process::exit(2);
    }
    println!("file\tbytes\trows\trequests\tread_ms\tscrub_ms\tcheck_ms");
    for path in &args {
        let bytes = std::fs::read(path).expect("read the file");
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        let median = |f: &mut dyn FnMut()| {
            let mut ms: Vec<f64> = (0..rounds)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            ms[ms.len() / 2]
        };
        let file = findings::results::read(&name, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let read = median(&mut || {
            std::hint::black_box(findings::results::read(&name, &bytes).ok());
        });
        let scrubbed = findings::results::scrub::scrub(&name, &bytes, false).expect("scrub");
        let scrub = median(&mut || {
            std::hint::black_box(findings::results::scrub::scrub(&name, &bytes, false).ok());
        });
        let check = median(&mut || {
            std::hint::black_box(findings::results::scrub::holds_credential(&scrubbed.bytes));
        });
        println!(
            "{name}\t{}\t{}\t{}\t{read:.1}\t{scrub:.1}\t{check:.1}",
            bytes.len(),
            file.results.len(),
            file.requests.len()
        );
    }
}
