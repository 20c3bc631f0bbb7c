//! Any bytes as a run: a `run.yaml` and one CSV table, then checked and its
//! charts drawn. See `findings::fuzz::run` for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    findings::fuzz::run(data);
});
