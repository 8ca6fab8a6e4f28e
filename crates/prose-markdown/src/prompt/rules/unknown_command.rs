//! # M001 `unknown-command`
//!
//! **Unknown slash command.** A leading or trailing line starts with `/`
//! and a name that is none of `/read`, `/push`, `/run` (processed before
//! or after the model runs) or `/check`, `/receive`, `/send`, `/queue`,
//! `/inbox` (used by the agent while it runs).
//!
//! ## Why is this bad?
//! Usually a typo: `/raed spec.md` reads nothing, and the model never sees
//! the file it was meant to get. Command lines inside the content are not
//! checked (they are text for the model).
//!
//! ## Example
//! ```markdown
//! /raed docs/design.md
//! Implement the feature described above.
//! ```
//!
//! ## Fix
//! ```markdown
//! /read docs/design.md
//! Implement the feature described above.
//! ```
//!
//! A quick fix replaces the name with the closest known command.
//!
//! ## Severity
//! Warning: the seed (004) is an early design, so a runtime may know
//! commands we do not; but a name this close to a known one is a typo.

use super::prelude::*;
use crate::prompt::COMMANDS;

pub(crate) const RULE: Rule = Rule {
    code: "M001",
    name: "unknown-command",
    summary: "Unknown slash command",
    severity: Severity::Warning,
    source: include_str!("unknown_command.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed() {
        if cmd.kind != CommandKind::Unknown {
            continue;
        }
        let known = if cmd.phase == Phase::Leading {
            "`/read`, `/push` and `/run`"
        } else {
            "`/push`"
        };
        let names = COMMANDS.map(|c| c.name());
        let guess = closest(&cmd.name.to_ascii_lowercase(), names).or_else(|| {
            names
                .into_iter()
                .find(|n| n.eq_ignore_ascii_case(&cmd.name))
        });
        let dym = did_you_mean(guess.map(|g| format!("/{g}")));
        let d = acc.report(
            cmd.name_range,
            format!(
                "Unknown command `/{}`{dym}: the commands processed here are {known}",
                cmd.name
            ),
        );
        if let Some(g) = guess {
            d.fix(format!("Change to `/{g}`"), cmd.name_range, format!("/{g}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::{check_code, check_fix};
    use expect_test::expect;

    #[test]
    fn typos_and_unknown_names() {
        check_code(
            "M001",
            "/raed a.md\n/Read b.md\n/frobnicate\nText.\n/pusj name=x \"y\"\n",
            expect![[r#"
                M001 1:1-1:6 warning: Unknown command `/raed` (did you mean `/read`?): the commands processed here are `/read`, `/push` and `/run`
                M001 2:1-2:6 warning: Unknown command `/Read` (did you mean `/read`?): the commands processed here are `/read`, `/push` and `/run`
                M001 3:1-3:12 warning: Unknown command `/frobnicate`: the commands processed here are `/read`, `/push` and `/run`
                M001 5:1-5:6 warning: Unknown command `/pusj` (did you mean `/push`?): the commands processed here are `/push`
            "#]],
        );
    }

    #[test]
    fn content_lines_and_paths_are_not_commands() {
        check_code(
            "M001",
            "Text.\n/frobnicate is text here\nMore.\n",
            expect![""],
        );
        check_code("M001", "/usr/bin/env python\nText.\n", expect![""]);
    }

    #[test]
    fn quick_fix_renames() {
        check_fix(
            "M001",
            "/raed a.md\nText.\n",
            expect!["/read a.md\nText.\n"],
        );
    }
}
