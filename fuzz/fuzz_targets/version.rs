//! Any bytes as one or two versions. See `findings::load::fuzz::version`
//! for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    findings::load::fuzz::version(data);
});
