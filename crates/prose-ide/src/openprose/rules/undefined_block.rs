//! # P503 `undefined-block`
//!
//! **Undefined block reference.** `do name` or `do name(…)` calls a block
//! that no `block name` definition in the program defines.
//!
//! ## Example
//! ```prose
//! block review-pipeline:
//!   session "Security review"
//!   session "Performance review"
//!
//! do review-pipline
//! ```
//!
//! ## Fix
//! ```prose
//! block review-pipeline:
//!   session "Security review"
//!   session "Performance review"
//!
//! do review-pipeline
//! ```
//!
//! Blocks are hoisted: a block defined further down the file counts. The
//! message suggests the closest defined block.
//!
//! ## Specification
//! compiler.md, Composition Blocks: "Undefined block reference" (Error,
//! "Block not defined"). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P503",
    name: "undefined-block",
    summary: "Undefined block reference",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("undefined_block.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    report_undefined(ctx, acc, RefKind::Block, DefKind::Block, "Block");
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn unknown_blocks() {
        check_code(
            "P503",
            "block review:\n  session \"a\"\ndo reveiw\ndo ghost(1)\n",
            expect![[r#"
                P503 3:4-3:10 error: Block not defined: `reveiw` (did you mean `review`?)
                P503 4:4-4:9 error: Block not defined: `ghost`
            "#]],
        );
    }

    #[test]
    fn hoisted_blocks_resolve() {
        check_no(
            "P503",
            "do later\ndo later(1)\nblock later:\n  session \"a\"\n",
        );
    }
}
