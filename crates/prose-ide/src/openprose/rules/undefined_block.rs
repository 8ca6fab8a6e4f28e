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
//! "Block not defined").
//!
//! ## Profiles
//! `strict` reports every unresolved block as an error. `default` reports a
//! **warning** instead when the file `use`s a local program file
//! (`use "blocks/verification.prose"`): programs in use share blocks this
//! way (a third-party workflow library defines `verify-with-retry` in
//! `blocks/verification.prose` and calls it from five workflows), the
//! runtime reads the used file, and prose-lsp does not look into it, so it
//! cannot tell a missing block from one defined there. Without such a
//! `use`, an undefined block is an error in every profile.

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
    let Some(file) = used_local_file(ctx) else {
        report_undefined(ctx, acc, RefKind::Block, DefKind::Block, "Block");
        return;
    };
    for (range, name) in undefined_refs(ctx, RefKind::Block, DefKind::Block) {
        acc.report_calibrated(
            range,
            format!("Block not defined: {name}; it may come from `{file}` (used above), which is not checked"),
            Vec::new(),
            Level::On(Severity::Warning),
        );
    }
}

/// The first local program file the file `use`s (`use "lib/blocks.prose"`).
fn used_local_file(ctx: &Ctx<'_>) -> Option<String> {
    nodes::<ast::UseStmt>(ctx)
        .filter_map(|u| u.path())
        .map(|p| p.value())
        .find(|v| v.ends_with(".prose") && !v.starts_with('@'))
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    #[test]
    fn a_used_program_file_may_define_it() {
        let text = "use \"blocks/verification.prose\"\ndo verify-with-retry(entity_id: \"t1\")\n";
        check_code(
            "P503",
            text,
            expect![[r#"
                P503 2:4-2:21 warning: Block not defined: `verify-with-retry`; it may come from `blocks/verification.prose` (used above), which is not checked
            "#]],
        );
        check_code_strict(
            "P503",
            text,
            expect![[r#"
                P503 2:4-2:21 error: Block not defined: `verify-with-retry`; it may come from `blocks/verification.prose` (used above), which is not checked
            "#]],
        );
    }

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
