//! # P902 `duplicate-option-label`
//!
//! **Duplicate option label.** Two `option`s of one `choice` have the same
//! label (compared after escapes are processed).
//!
//! ## Why is this bad?
//! The model picks an option by its label; two identical labels cannot be
//! told apart, so one of the two bodies can never be chosen on purpose.
//!
//! ## Example
//! ```prose
//! choice **the review outcome**:
//!   option "Approve":
//!     session "Merge the change"
//!   option "Approve":
//!     session "Ask for changes"
//! ```
//!
//! ## Fix
//! ```prose
//! choice **the review outcome**:
//!   option "Approve":
//!     session "Merge the change"
//!   option "Request changes":
//!     session "Ask for changes"
//! ```
//!
//! The diagnostic is on the later label and links to the first one.
//! Labels are compared exactly (case and spaces matter). Options of
//! different `choice` blocks never clash.
//!
//! ## Specification
//! compiler.md, Choice Blocks, Validation Rules: "Duplicate option labels"
//! (Warning, "Duplicate option label"). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P902",
    name: "duplicate-option-label",
    summary: "Duplicate option label",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("duplicate_option_label.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for c in nodes::<ast::ChoiceStmt>(ctx) {
        report_repeats(
            ctx,
            acc,
            c.options()
                .filter_map(|o| o.label())
                .map(|l| (l.value(), l.syntax().text_range())),
            |value| format!("Duplicate option label: {value:?}"),
            "first used here",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn same_label_twice() {
        check_code(
            "P902",
            "choice **x**:\n  option \"A\":\n    session \"a\"\n  option \"B\":\n    session \"b\"\n  option \"A\\tB\":\n    session \"c\"\n  option \"A\tB\":\n    session \"d\"\n",
            expect![[r#"
                P902 8:10-8:15 warning: Duplicate option label: "A\tB"
                  related 6:10-6:16: first used here
            "#]],
        );
    }

    #[test]
    fn distinct_labels_and_separate_choices() {
        check_no(
            "P902",
            "choice **x**:\n  option \"A\":\n    session \"a\"\n  option \"a\":\n    session \"b\"\nchoice **y**:\n  option \"A\":\n    session \"c\"\n",
        );
    }
}
