//! # K010 `discard-outside-pattern`
//!
//! **`{*}` outside a pattern.** The discard `{*}` matches any text, so it
//! has a meaning only in a `like "…"` pattern (or a fenced `like:`
//! pattern). Reported in statements: a condition, an action, a line with
//! an action keyword. Prose that talks about `{*}` is left alone.
//!
//! ## Why is this bad?
//! Outside a pattern it is sent as it is: `_terminate_ "Done: {*}"`
//! replies with a literal `{*}`.
//!
//! ## Example
//! ```markdown
//! _if_ _instructed_ like "summarise {*}", _then_ _terminate_ "Summary: {*}".
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ _instructed_ like "summarise {topic}", _then_ _terminate_ "Summary of {topic}".
//! ```
//!
//! ## Severity
//! Warning.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "K010",
    name: "discard-outside-pattern",
    summary: "`{*}` outside a pattern",
    severity: Severity::Warning,
    source: include_str!("discard_outside_pattern.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for v in &ctx.ins.variables {
        if v.discard && !v.in_pattern && v.in_statement {
            acc.report(
                v.range,
                "`{*}` matches text only in a `like \"…\"` pattern; here it is sent as it is (name the text with `{name}` in the pattern to use it)",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::check_code;
    use expect_test::expect;

    #[test]
    fn discards_in_statements() {
        check_code(
            "K010",
            r#"_if_ _instructed_ like "_ask_{*}", _then_ _terminate_ "got {*}".
- _remember_ {*}

"{*}" can be used for discards.
_if_ x (not like "SGN_PENDING{*}"), _then_ y.
"#,
            expect![[r#"
                K010 1:60-1:63 warning: `{*}` matches text only in a `like "…"` pattern; here it is sent as it is (name the text with `{name}` in the pattern to use it)
                K010 2:14-2:17 warning: `{*}` matches text only in a `like "…"` pattern; here it is sent as it is (name the text with `{name}` in the pattern to use it)
            "#]],
        );
    }
}
