//! # M003 `command-in-content`
//!
//! **Command line inside the content is not processed.** A line of the
//! content (after the first line that is not a command) starts with
//! `/read`, `/push` or `/run`. Only the commands before the content (and
//! `/push` after it) are processed; this one is sent to the model as text.
//!
//! ## Why is this bad?
//! The file is not read, the task not queued: the model merely sees the
//! line. A blank line between commands is fine, but a line of text ends
//! the leading commands.
//!
//! ## Example
//! ```markdown
//! /read docs/design.md
//! Implement the feature.
//! /read docs/testing.md
//! Write the tests.
//! ```
//!
//! ## Fix
//! ```markdown
//! /read docs/design.md
//! /read docs/testing.md
//! Implement the feature.
//! Write the tests.
//! ```
//!
//! To show the model a command as an example, put it in a code span or a
//! fenced block: code is never processed and never reported.
//!
//! ## Severity
//! Warning: the text is legal, but rarely meant.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M003",
    name: "command-in-content",
    summary: "Command line inside the content is not processed",
    severity: Severity::Warning,
    source: include_str!("command_in_content.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in &ctx.file.in_content {
        let where_ = match cmd.kind {
            CommandKind::Read | CommandKind::Run => {
                "only the commands before the content are (move it to the top)"
            }
            CommandKind::Push => {
                "only the commands before and after the content are (move it to either end)"
            }
            _ => continue,
        };
        acc.report(
            cmd.name_range,
            format!(
                "`/{}` inside the content is sent to the model as text, not processed: {where_}",
                cmd.kind.name()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_code;
    use expect_test::expect;

    #[test]
    fn commands_between_text_lines() {
        check_code(
            "M003",
            "/read a.md\nFirst.\n/read b.md\n/push name=x \"X\"\n/run\nLast.\n/check\nEnd.\n",
            expect![[r#"
                M003 3:1-3:6 warning: `/read` inside the content is sent to the model as text, not processed: only the commands before the content are (move it to the top)
                M003 4:1-4:6 warning: `/push` inside the content is sent to the model as text, not processed: only the commands before and after the content are (move it to either end)
                M003 5:1-5:5 warning: `/run` inside the content is sent to the model as text, not processed: only the commands before the content are (move it to the top)
            "#]],
        );
    }

    #[test]
    fn front_matter_is_content() {
        check_code(
            "M003",
            "---\ndescription: review\n---\n/read a.md\nReview.\n",
            expect![[r#"
                M003 4:1-4:6 warning: `/read` inside the content is sent to the model as text, not processed: only the commands before the content are (move it to the top)
            "#]],
        );
    }

    #[test]
    fn code_is_content_and_never_reported() {
        check_code(
            "M003",
            "Do this:\n\n```sh\n/read a.md\n```\n\n    /run 2\n\nDone.\n",
            expect![""],
        );
    }
}
