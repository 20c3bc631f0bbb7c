//! Any bytes as one or two versions. See `findings::fuzz::version`
//! for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    findings::fuzz::version(data);
});
