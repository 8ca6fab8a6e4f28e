//! # E020 `empty-input-name`
//!
//! **Input name cannot be empty.** An `input` declaration has no name, so
//! neither the caller nor the program can refer to the value.
//!
//! ## Example
//! ```prose
//! input : "The subject to research"
//! ```
//!
//! ## Fix
//! ```prose
//! input topic: "The subject to research"
//! ```
//!
//! Covers `input : "…"`, `input "…"` and `input` alone. The diagnostic
//! runs from the `input` keyword through the colon, if there is one.
//!
//! ## Specification
//! compiler.md, Input Declarations › Validation Rules: "Empty input name"
//! (Error, "Input name cannot be empty"); Validation Rules: E020. Same
//! severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E020",
    name: "empty-input-name",
    summary: "Input name cannot be empty",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("empty_input_name.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for input in nodes::<ast::InputDecl>(ctx) {
        if input.name().is_some() {
            continue;
        }
        let Some(kw) = input.keyword() else { continue };
        let colon = child_token(input.syntax(), SyntaxKind::COLON);
        let end = colon.map_or(kw.text_range().end(), |c| c.text_range().end());
        acc.report(
            TextRange::new(kw.text_range().start(), end),
            "Input name cannot be empty",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn nameless_inputs() {
        check_code(
            "E020",
            "input : \"x\"\ninput \"y\"\ninput\n",
            expect![[r#"
                E020 1:1-1:8 error: Input name cannot be empty
                E020 2:1-2:6 error: Input name cannot be empty
                E020 3:1-3:6 error: Input name cannot be empty
            "#]],
        );
    }

    #[test]
    fn named_input_is_fine() {
        check_no("E020", "input topic: \"x\"\n");
    }
}
