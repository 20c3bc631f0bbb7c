//! Any bytes as a finding file, read as `findings check` reads one. See
//! `checks::finding` for what is checked.
#![no_main]

#[allow(dead_code)]
#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::finding(data);
});
