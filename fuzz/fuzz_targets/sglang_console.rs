//! Any bytes as a paste holding SGLang's `bench_serving` report, read by its reader
//! (`src/results/console/`). See `findings::fuzz::console` for what is
//! checked.
#![no_main]

use findings::results::Reader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    findings::fuzz::console(Reader::Sglang, data);
});
