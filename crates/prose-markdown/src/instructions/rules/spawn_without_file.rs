//! # K006 `spawn-without-file`
//!
//! **`_spawn_` without a backticked `.md` file.** `_spawn_` names the
//! markdown file with the sub-agent's instructions in a code span:
//! ``_spawn_ `agents/reviewer.md` ``. It stands for
//! ``_run_ `$PWD/agent-cli spawn $PWD/agents/reviewer.md` ``.
//!
//! ## Why is this bad?
//! Without the file there is nothing to spawn; a file that is not `.md`
//! is not an agent's instructions.
//!
//! ## Example
//! ```markdown
//! _if_ the change is large, _then_ _spawn_ the reviewer.
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ the change is large, _then_ _spawn_ `agents/reviewer.md`.
//! ```
//!
//! ## Severity
//! Error: the command cannot be formed.

use super::prelude::*;
use crate::instructions::structure::code_span_after;

pub(crate) const RULE: Rule = Rule {
    code: "K006",
    name: "spawn-without-file",
    summary: "`_spawn_` without a backticked `.md` file",
    severity: Severity::Error,
    source: include_str!("spawn_without_file.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for k in ctx.ins.statements().filter(|k| k.keyword == Keyword::Spawn) {
        match code_span_after(ctx.text, &ctx.ins.md, usize::from(k.range.end())) {
            None => {
                acc.report(
                    k.range,
                    "`_spawn_` needs the agent's `.md` file in backticks: _spawn_ `FILE.md`",
                );
            }
            Some(span) => {
                let path = slice(ctx.text, span).trim();
                if !path.to_ascii_lowercase().ends_with(".md") {
                    acc.report(
                        span,
                        format!("`_spawn_` starts an agent from a `.md` file of instructions; `{path}` is not one"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::check_code;
    use expect_test::expect;

    #[test]
    fn spawn_arguments() {
        check_code(
            "K006",
            "- _spawn_ the reviewer\n- _spawn_ `reviewer.py`\n- _spawn_ `agents/reviewer.md`\n- _spawn_ `{name}.md`\n- _spawn_ `R.MD`\n",
            expect![[r#"
                K006 1:3-1:10 error: `_spawn_` needs the agent's `.md` file in backticks: _spawn_ `FILE.md`
                K006 2:12-2:23 error: `_spawn_` starts an agent from a `.md` file of instructions; `reviewer.py` is not one
            "#]],
        );
    }
}
