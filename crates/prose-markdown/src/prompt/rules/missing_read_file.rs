//! # M005 `missing-read-file`
//!
//! **`/read` of a file that does not exist.** The path is resolved like
//! the agent resolves it: relative to its working directory, the
//! workspace root (a leading `$PWD/` means the same).
//!
//! ## Why is this bad?
//! The prompt processor cannot read the file, so it injects an error as
//! the tool result (as a real failed tool call would): the model starts
//! without the context it was meant to have.
//!
//! ## Example
//! ```markdown
//! /read docs/missing.md
//! Implement the feature described above.
//! ```
//!
//! ## Fix
//! ```markdown
//! /read docs/design.md
//! Implement the feature described above.
//! ```
//!
//! File `docs/design.md`:
//!
//! ```markdown
//! # Design
//! ```
//!
//! ## Severity
//! Warning, not error: the prompt still runs, and the file may be created
//! before it does (by an earlier task, for instance).

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M005",
    name: "missing-read-file",
    summary: "`/read` of a file that does not exist",
    severity: Severity::Warning,
    source: include_str!("missing_read_file.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed() {
        let Some(target) = cmd.read.as_ref() else {
            continue;
        };
        if target.path.is_empty() || cmd.kind != CommandKind::Read {
            continue;
        }
        if ctx.files.lookup(&target.path) == Lookup::Missing {
            acc.report(
                target.range,
                format!(
                    "`{}` does not exist: the model gets an error result instead of its text",
                    target.path
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::{check_code, check_with_files};
    use expect_test::expect;

    #[test]
    fn missing_files_only() {
        check_with_files(
            "M005",
            "/read docs/design.md\n/read $PWD/docs/gone.md\nText.\n",
            &[("docs/design.md", Some("x")), ("docs/gone.md", None)],
            expect![[r#"
                M005 2:7-2:24 warning: `docs/gone.md` does not exist: the model gets an error result instead of its text
            "#]],
        );
    }

    #[test]
    fn files_the_host_did_not_look_up_are_not_reported() {
        let text = "/read unknown.md\nText.\n";
        let file = crate::prompt::parse_prompt_file(text);
        assert!(crate::prompt::check(text, &file, &crate::NoFiles).is_empty());
    }

    #[test]
    fn nested_push_prompts_are_checked() {
        check_code(
            "M005",
            "Do phase 1.\n/push name=p2 \"/read docs/missing.md\\nDo phase 2.\"\n",
            expect![[r#"
                M005 2:22-2:37 warning: `docs/missing.md` does not exist: the model gets an error result instead of its text
            "#]],
        );
    }
}
