//! # P202 `empty-input-description`
//!
//! **Consider adding a description.** An `input`'s description is empty or
//! only whitespace. The description is what a caller (or a person asked for
//! the value at run time) reads to know what to pass.
//!
//! ## Example
//! ```prose
//! input topic: ""
//! ```
//!
//! ## Fix
//! ```prose
//! input topic: "The subject to research"
//! ```
//!
//! The diagnostic is on the string literal. An empty discretion prompt
//! (`input x: ****`) is P708 instead.
//!
//! ## Specification
//! compiler.md, Input Declarations › Validation Rules: "Empty description"
//! (Warning, "Consider adding a description"). compiler.md gives the row no
//! E/W-code; this project numbers it P202. Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P202",
    name: "empty-input-description",
    summary: "Consider adding a description",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("empty_input_description.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for input in nodes::<ast::InputDecl>(ctx) {
        let Some(ast::Expr::String(s)) = input.description() else {
            continue;
        };
        if !s.value().trim().is_empty() || !s.is_terminated() {
            continue;
        }
        let name = input.name().map(|n| n.text()).unwrap_or_default();
        let msg = if name.is_empty() {
            "Consider adding a description".to_string()
        } else {
            format!("Consider adding a description of input `{name}`")
        };
        acc.report(s.syntax().text_range(), msg);
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn empty_and_blank_descriptions() {
        check_code(
            "P202",
            "input topic: \"\"\ninput depth: \"   \"\ninput notes: \"\"\"\n\"\"\"\n",
            expect![[r#"
                P202 1:14-1:16 warning: Consider adding a description of input `topic`
                P202 2:14-2:19 warning: Consider adding a description of input `depth`
                P202 3:14-4:4 warning: Consider adding a description of input `notes`
            "#]],
        );
    }

    #[test]
    fn described_inputs() {
        check_no(
            "P202",
            "input topic: \"The subject\"\ninput depth: **how deep to go**\n",
        );
    }
}
