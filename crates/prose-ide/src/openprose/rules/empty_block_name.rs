//! # P506 `empty-block-name`
//!
//! **Empty block name.** A `block` definition has no name: `block:` or
//! `block (params):`.
//!
//! ## Why is this bad?
//! A block is only ever run by `do name`; without a name it can never be
//! called.
//!
//! ## Example
//! ```prose
//! block:
//!   session "Security review"
//! ```
//!
//! ## Fix
//! Name it, or use an anonymous sequential `do:` block to run it in place:
//! ```prose
//! block review:
//!   session "Security review"
//!
//! do:
//!   session "Security review"
//! ```
//!
//! The diagnostic spans from `block` through the colon (or through the
//! parameters when the colon is missing too).
//!
//! ## Specification
//! compiler.md, Composition Blocks: "Empty block name" (Error, "Block
//! definition must have a name"). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P506",
    name: "empty-block-name",
    summary: "Empty block name",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("empty_block_name.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for block in nodes::<ast::BlockDef>(ctx) {
        if block.name().is_some() {
            continue;
        }
        let header: Vec<TextRange> = block
            .syntax()
            .children_with_tokens()
            .take_while(|e| e.kind() != SyntaxKind::BLOCK)
            .filter(|e| {
                matches!(
                    e.kind(),
                    SyntaxKind::BLOCK_KW | SyntaxKind::PARAM_LIST | SyntaxKind::COLON
                )
            })
            .map(|e| e.text_range())
            .collect();
        let (Some(first), Some(last)) = (header.first(), header.last()) else {
            continue;
        };
        acc.report(first.cover(*last), "Block definition must have a name");
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn nameless_blocks() {
        check_code(
            "P506",
            "block:\n  session \"a\"\nblock (x):\n  session \"{x}\"\nblock\n",
            expect![[r#"
                P506 1:1-1:7 error: Block definition must have a name
                P506 3:1-3:11 error: Block definition must have a name
                P506 5:1-5:6 error: Block definition must have a name
            "#]],
        );
    }

    #[test]
    fn named_blocks_and_do_blocks_are_fine() {
        check_no("P506", "block a:\n  session \"a\"\ndo:\n  session \"b\"\n");
    }
}
