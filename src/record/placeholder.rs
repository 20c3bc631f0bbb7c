//! The texts `findings new` and `findings init` write for the author to
//! replace. They live here, beside the record types, so that the commands
//! that write them and the check that refuses them can never drift apart:
//! a finding that still says one of them is not ready to publish.

/// The `advice` both commands write.
pub const ADVICE: &str = "Say what to do in a few words";
/// The title of `init`'s example finding.
pub const EXAMPLE_TITLE: &str = "An example: the sentence that says what happened";
/// The lines of the body `new` writes, one per section.
pub const NEW_BODY: [&str; 3] = [
    "What happened, on which versions, and how it showed.",
    "The figures, and a link to the run behind them once it exists (`findings new-run`).",
    "The actionable advice.",
];
/// The last line of `init`'s example body (its other lines explain the
/// format and are caught by the title and advice).
pub const EXAMPLE_ADVICE_LINE: &str = "The advice, as steps a reader can follow.";

/// The placeholder lines still in `body`: each line's 0-based index in the
/// body and its text. Linear in the body's length.
pub fn placeholder_lines(body: &str) -> Vec<(usize, &'static str)> {
    body.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.trim();
            NEW_BODY
                .iter()
                .chain(std::iter::once(&EXAMPLE_ADVICE_LINE))
                .find(|p| **p == line)
                .map(|p| (i, *p))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_placeholder_line_and_nothing_else() {
        let body = "What happened, on which versions, and how it showed.\n\n## What we saw\n\nThe actionable advice was wrong.\n\n## What to do\n\n  The actionable advice.\n";
        assert_eq!(
            placeholder_lines(body),
            vec![(0, NEW_BODY[0]), (8, NEW_BODY[2])]
        );
    }
}
