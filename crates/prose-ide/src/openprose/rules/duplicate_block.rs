//! # P504 `duplicate-block`
//!
//! **Duplicate block definition.** Two `block` definitions use the same
//! name.
//!
//! ## Why is this bad?
//! Blocks are hoisted: every `do name` in the program would have two
//! candidates, and one definition silently wins.
//!
//! ## Example
//! ```prose
//! block review:
//!   session "Security review"
//!
//! block review:
//!   session "Style review"
//! ```
//!
//! ## Fix
//! ```prose
//! block security-review:
//!   session "Security review"
//!
//! block style-review:
//!   session "Style review"
//! ```
//!
//! The diagnostic is on the later name and links to the first definition.
//!
//! ## Specification
//! compiler.md, Composition Blocks: "Duplicate block definition" (Error,
//! "Block already defined"). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P504",
    name: "duplicate-block",
    summary: "Duplicate block definition",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("duplicate_block.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    report_duplicate_defs(ctx, acc, DefKind::Block, "Block");
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn second_definition_is_reported() {
        check_code(
            "P504",
            "block a:\n  session \"1\"\nblock b(x):\n  session \"2\"\nblock a(y):\n  session \"3\"\n",
            expect![[r#"
                P504 5:7-5:8 error: Block already defined: `a`
                  related 1:7-1:8: first defined here
            "#]],
        );
    }

    #[test]
    fn distinct_names_are_fine() {
        check_no(
            "P504",
            "block a:\n  session \"1\"\nblock a2:\n  session \"2\"\n",
        );
    }
}
