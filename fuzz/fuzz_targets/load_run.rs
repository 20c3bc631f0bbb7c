//! Any bytes as a run: a `run.yaml` and one CSV table, then checked and its
//! charts drawn. See `checks::run` for what is checked.
#![no_main]

#[allow(dead_code)]
#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::run(data);
});
