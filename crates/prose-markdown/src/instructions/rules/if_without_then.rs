//! # K003 `if-without-then`
//!
//! **`_if_` or `_elif_` without `_then_`.** A condition is written
//! `_if_ CONDITION, _then_ ACTION`, with the `_then_` in the same
//! paragraph, list item or heading.
//!
//! ## Why is this bad?
//! Without `_then_` the model cannot tell where the condition ends and
//! the action begins.
//!
//! ## Example
//! ```markdown
//! _if_ the user asks for a summary, write one in three sentences.
//! _if_ they ask for nothing, _then_ _terminate_ "SGN_DONE".
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ the user asks for a summary, _then_ write one in three sentences.
//! _if_ they ask for nothing, _then_ _terminate_ "SGN_DONE".
//! ```
//!
//! An `_if_` without its `_then_` does not make a file an instruction
//! file by itself (it may be emphasis, "only _if_ needed"): in a markdown
//! file that uses the language nowhere else, name the file in
//! `[files] instructions` to have it checked.
//!
//! ## Severity
//! Error: the statement is incomplete.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "K003",
    name: "if-without-then",
    summary: "`_if_` or `_elif_` without `_then_`",
    severity: Severity::Error,
    source: include_str!("if_without_then.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for b in &ctx.ins.branches {
        if b.keyword != Keyword::Else && b.then_range.is_none() {
            acc.report(
                b.keyword_range,
                format!(
                    "`{}` without `_then_`: write `{} CONDITION, _then_ ACTION` in the same paragraph or list item",
                    b.keyword.written(),
                    b.keyword.written()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::check_code;
    use expect_test::expect;

    #[test]
    fn missing_then() {
        check_code(
            "K003",
            "_if_ a, do b.\n_elif_ c, _then_ d.\n\n- _if_ e\n- _then_ f\n\n_if_ _instructed_ like:\n```md\n_ask_ \"{q}\"\n```\n, _then_ answer.\n",
            expect![[r#"
                K003 1:1-1:5 error: `_if_` without `_then_`: write `_if_ CONDITION, _then_ ACTION` in the same paragraph or list item
                K003 4:3-4:7 error: `_if_` without `_then_`: write `_if_ CONDITION, _then_ ACTION` in the same paragraph or list item
            "#]],
        );
    }

    #[test]
    fn mentions_of_the_keywords_are_not_statements() {
        check_code(
            "K003",
            "The _if_, _then_, _elif_ and _else_ keywords are used for typical conditional logic.\nUse the _if_ keyword for conditions.\n",
            expect![""],
        );
    }
}
