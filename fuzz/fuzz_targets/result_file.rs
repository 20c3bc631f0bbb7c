//! Any bytes as a benchmark result file: detected, read, scrubbed, and read
//! as a run folder. See `checks::result_file` for what is checked.
#![no_main]

#[allow(dead_code)]
#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::result_file(data);
});
