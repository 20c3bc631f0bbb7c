//! Any bytes as a finding file, read as `findings check` reads one. See
//! `findings::fuzz::finding` for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    findings::fuzz::finding(data);
});
