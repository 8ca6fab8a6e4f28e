//! # P903 `empty-option-body`
//!
//! **Option has empty body.** An `option "…":` with no statement in its
//! body: no indented block at all, or a block holding only comments.
//!
//! ## Why is this bad?
//! Choosing the option does nothing, which is rarely what the author meant
//! (often the body was indented under the wrong option).
//!
//! ## Example
//! ```prose
//! choice **the severity of the incident**:
//!   option "Critical":
//!   option "Minor":
//!     session "File a ticket"
//! ```
//!
//! ## Fix
//! ```prose
//! choice **the severity of the incident**:
//!   option "Critical":
//!     session "Page the on-call engineer"
//!   option "Minor":
//!     session "File a ticket"
//! ```
//!
//! The diagnostic is on the `option` keyword through its label. The parser
//! accepts the empty body, so this is the only diagnostic for it.
//!
//! ## Specification
//! compiler.md, Choice Blocks, Validation Rules: "Empty option body"
//! (Warning, "Option has empty body"). Reported instead of E005
//! (spec-rows.md §2.6). Same severity in every profile.

use super::control_shared::is_empty_body;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P903",
    name: "empty-option-body",
    summary: "Option has empty body",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("empty_option_body.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for o in nodes::<ast::OptionClause>(ctx) {
        // Without the `:` the header is a syntax error (E005) already.
        let has_colon = child_token(o.syntax(), SyntaxKind::COLON).is_some();
        if !has_colon || !is_empty_body(o.body()) {
            continue;
        }
        let Some(kw) = o.keyword() else { continue };
        let end = o
            .label()
            .map_or(kw.text_range().end(), |l| l.syntax().text_range().end());
        acc.report(
            TextRange::new(kw.text_range().start(), end),
            "Option has empty body",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_no};
    use expect_test::expect;

    #[test]
    fn missing_and_comment_only_bodies() {
        check(
            "choice **x y**:\n  option \"A\":\n  option \"B\":\n    # later\n  option \"C\":\n    session \"c\"\n",
            expect![[r#"
                P903 2:3-2:13 warning: Option has empty body
                P903 3:3-3:13 warning: Option has empty body
            "#]],
        );
    }

    #[test]
    fn inline_and_block_bodies_are_fine() {
        check_no(
            "P903",
            "choice **x y**:\n  option \"A\": session \"a\"\n  option \"B\":\n    session \"b\"\n",
        );
    }
}
