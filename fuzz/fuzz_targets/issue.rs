//! Any bytes as what `findings lint --from-issue` reads: `gh issue view
//! --json` or a webhook payload, then the reports pasted into its texts.
//! See `checks::issue` for what is checked.
#![no_main]

#[allow(dead_code)]
#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    checks::issue(data);
});
