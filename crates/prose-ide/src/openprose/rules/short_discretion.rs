//! # P709 `short-discretion`
//!
//! **Discretion condition may be ambiguous.** The condition of `loop
//! until` / `loop while` is a single word (`**done**`, `**approved**`).
//!
//! ## Why is this bad?
//! A single word names a state without saying whose state it is or what
//! would show it, so the model deciding when the loop ends has to guess.
//!
//! ## Example
//! ```prose
//! loop until **approved** (max: 5):
//!   session "Revise the proposal"
//! ```
//!
//! ## Fix
//! Say who decides and what counts:
//! ```prose
//! loop until **the reviewer approved the proposal** (max: 5):
//!   session "Revise the proposal"
//! ```
//!
//! The diagnostic is on the discretion marker. An empty condition is
//! [P708](P708.md). `if` and `choice` conditions are not checked: the row
//! belongs to Unbounded Loops only.
//!
//! ## Threshold
//! A condition is "very short" when its trimmed text contains no
//! whitespace (spec-rows.md §3.12). Any two words already name a subject
//! and a predicate (`**tests pass**`). A character count would also flag
//! compiler.md's own example `loop until **done** as attempt:` without
//! separating clear conditions from unclear ones any better. In the
//! official programs, the three one-word loop conditions are all
//! `**approved**` in roadmap sketches.
//!
//! ## Specification
//! compiler.md, Unbounded Loops, Validation Rules: "Very short condition"
//! (Warning, "Discretion condition may be ambiguous"). Same severity in
//! every profile.

use super::empty_discretion::{Place, place};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P709",
    name: "short-discretion",
    summary: "Discretion condition may be ambiguous",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("short_discretion.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for d in nodes::<ast::DiscretionExpr>(ctx) {
        let text = d.text();
        if !text.is_empty() && !text.contains(char::is_whitespace) && place(&d) == Place::Loop {
            acc.report(
                d.syntax().text_range(),
                format!("Discretion condition may be ambiguous: `{text}` is a single word"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn single_word_loop_conditions() {
        check_code(
            "P709",
            "loop until **done** (max: 3):\n  session \"a\"\nloop while ***\n  more\n***:\n  session \"b\"\n",
            expect![[r#"
                P709 1:12-1:20 warning: Discretion condition may be ambiguous: `done` is a single word
                P709 3:12-5:4 warning: Discretion condition may be ambiguous: `more` is a single word
            "#]],
        );
    }

    #[test]
    fn longer_or_non_loop_conditions_are_fine() {
        check_no(
            "P709",
            "loop until **tests pass** (max: 3):\n  session \"a\"\nif **ready**:\n  session \"b\"\nloop until ** **:\n  session \"c\"\n",
        );
    }
}
