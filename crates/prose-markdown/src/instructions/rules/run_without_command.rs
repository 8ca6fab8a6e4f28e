//! # K005 `run-without-command`
//!
//! **`_run_` without a backticked command.** `_run_` is followed by the
//! command in a code span: ``_run_ `make test` ``.
//!
//! ## Why is this bad?
//! The backticks say exactly what to run; words after `_run_` leave the
//! model to make up a command line. A command in double quotes is
//! reported with a quick fix that puts it in backticks.
//!
//! ## Example
//! ```markdown
//! _if_ the code changed, _then_ _run_ the tests.
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ the code changed, _then_ _run_ `cargo test`.
//! ```
//!
//! ## Severity
//! Warning: the model may still find the right command.

use super::prelude::*;
use crate::instructions::structure::{code_span_after, quote_after};

pub(crate) const RULE: Rule = Rule {
    code: "K005",
    name: "run-without-command",
    summary: "`_run_` without a backticked command",
    severity: Severity::Warning,
    source: include_str!("run_without_command.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for k in ctx.ins.statements().filter(|k| k.keyword == Keyword::Run) {
        let end = usize::from(k.range.end());
        if code_span_after(ctx.text, &ctx.ins.md, end).is_some() {
            continue;
        }
        let d = acc.report(
            k.range,
            "`_run_` needs the command in backticks: _run_ `COMMAND`",
        );
        if let Some(q) = quote_after(ctx.text, ctx.ins.lexed(), end) {
            let inner = slice(ctx.text, q.inner);
            if !inner.contains('`') {
                d.fix(
                    "Put the command in backticks",
                    q.range,
                    format!("`{inner}`"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::{check_code, check_fix};
    use expect_test::expect;

    #[test]
    fn commands_need_backticks() {
        check_code(
            "K005",
            "- _run_ the tests\n- _run_ \"make\"\n- _run_ `make`\n- _run_  `make check`\n",
            expect![[r#"
                K005 1:3-1:8 warning: `_run_` needs the command in backticks: _run_ `COMMAND`
                K005 2:3-2:8 warning: `_run_` needs the command in backticks: _run_ `COMMAND`
            "#]],
        );
    }

    #[test]
    fn quick_fix() {
        check_fix(
            "K005",
            "_run_ \"make test\".\n",
            expect![[r#"
            _run_ `make test`.
        "#]],
        );
    }
}
