//! # M002 `command-not-allowed-here`
//!
//! **Command not processed in this position.** `/read` and `/run` are
//! processed only before the content, so they cannot be trailing
//! commands; `/check`, `/receive`, `/send`, `/queue` and `/inbox` are
//! commands the agent uses *while it runs* (as tool calls), so nothing
//! processes them as leading or trailing commands.
//!
//! ## Why is this bad?
//! The command does not do what it says: a trailing `/read` reads nothing
//! for anyone, a leading `/check` checks nothing before the model starts.
//!
//! ## Example
//! ```markdown
//! /check
//! Summarise the results of the research tasks.
//! /read notes/summary-template.md
//! ```
//!
//! ## Fix
//! ```markdown
//! /read notes/summary-template.md
//! Use /check to collect the results of the research tasks, then
//! summarise them.
//! ```
//!
//! ## Severity
//! Error: seed 004 lists the commands allowed in each phase.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M002",
    name: "command-not-allowed-here",
    summary: "Command not processed in this position",
    severity: Severity::Error,
    source: include_str!("command_not_allowed_here.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed() {
        let k = cmd.kind;
        let msg = if k.execution_time_only() {
            let when = match cmd.phase {
                Phase::Leading => "before the model runs",
                _ => "after the model finishes",
            };
            format!(
                "`/{}` is used by the agent while it runs; nothing processes it {when} (write it into the content as an instruction)",
                k.name()
            )
        } else if cmd.phase == Phase::Trailing && (k == CommandKind::Read || k == CommandKind::Run)
        {
            let what = if k == CommandKind::Read {
                "the file is read for no one"
            } else {
                "tasks pushed at the end wait for the caller to run them"
            };
            format!(
                "`/{}` is processed only before the content; after the model finishes {what} (move it to the top)",
                k.name()
            )
        } else {
            continue;
        };
        acc.report(cmd.name_range, msg);
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_code;
    use expect_test::expect;

    #[test]
    fn trailing_read_and_run() {
        check_code(
            "M002",
            "/read a.md\nDo it.\n/push name=t \"Next\"\n/read b.md\n/run\n",
            expect![[r#"
                M002 4:1-4:6 error: `/read` is processed only before the content; after the model finishes the file is read for no one (move it to the top)
                M002 5:1-5:5 error: `/run` is processed only before the content; after the model finishes tasks pushed at the end wait for the caller to run them (move it to the top)
            "#]],
        );
    }

    #[test]
    fn execution_time_commands_at_either_end() {
        check_code(
            "M002",
            "/check\n/receive research-a\nDo it.\n/inbox\n",
            expect![[r#"
                M002 1:1-1:7 error: `/check` is used by the agent while it runs; nothing processes it before the model runs (write it into the content as an instruction)
                M002 2:1-2:9 error: `/receive` is used by the agent while it runs; nothing processes it before the model runs (write it into the content as an instruction)
                M002 4:1-4:7 error: `/inbox` is used by the agent while it runs; nothing processes it after the model finishes (write it into the content as an instruction)
            "#]],
        );
    }

    #[test]
    fn allowed_positions_and_content_mentions() {
        check_code(
            "M002",
            "/read a.md\n/push name=a \"A\"\n/run 1\nCheck results with /check.\n/send is text here\nEnd.\n/push name=b \"B\"\n",
            expect![""],
        );
    }
}
