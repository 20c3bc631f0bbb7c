//! Any bytes as a paste holding genai-perf's console table, read by its reader
//! (`src/results/console/`). See `checks::console` for what is
//! checked.
#![no_main]

#[allow(dead_code)]
#[path = "../checks.rs"]
mod checks;

use findings::results::Reader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::console(Reader::GenaiPerf, data);
});
