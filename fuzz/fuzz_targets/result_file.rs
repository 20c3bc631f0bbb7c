//! Any bytes as a benchmark result file: detected, read, scrubbed, and read
//! as a run folder. See `findings::fuzz::result_file` for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    findings::fuzz::result_file(data);
});
