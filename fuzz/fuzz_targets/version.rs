//! Any bytes as one or two versions. See `checks::version`
//! for what is checked.
#![no_main]

#[allow(dead_code)]
#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::version(data);
});
