//! Any bytes as what `findings lint --from-issue` reads: `gh issue view
//! --json` or a webhook payload, then the reports pasted into its texts.
//! See `findings::fuzz::issue` for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    findings::fuzz::issue(data);
});
