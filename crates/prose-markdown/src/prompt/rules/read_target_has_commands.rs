//! # M006 `read-target-has-commands`
//!
//! **The file read starts with commands, which are not expanded.** The
//! `/read` target is itself a prompt file whose first lines are commands.
//!
//! ## Why is this bad?
//! Only the top-level prompt's commands are processed: the model receives
//! the file's text with its `/read` lines as they are, and the files they
//! name are not read. That is fine when the file is shown as an example,
//! a surprise when nested reads were expected.
//!
//! ## Example
//! ```markdown
//! /read .agents/personas/worker.md
//! Implement the feature.
//! ```
//!
//! File `.agents/personas/worker.md`:
//!
//! ```markdown
//! /read .agents/skills/tdd-workflow.md
//! # Worker Persona
//! ```
//!
//! ## Fix
//! Read the nested files from the prompt itself, in the order the model
//! should see them, and drop the command from the persona:
//!
//! ```markdown
//! /read .agents/skills/tdd-workflow.md
//! /read .agents/personas/worker.md
//! Implement the feature.
//! ```
//!
//! File `.agents/personas/worker.md`:
//!
//! ```markdown
//! # Worker Persona
//! ```
//!
//! File `.agents/skills/tdd-workflow.md`:
//!
//! ```markdown
//! # TDD workflow
//! ```
//!
//! ## Severity
//! Hint: it is often intended.

use super::prelude::*;
use crate::prompt::parse_prompt_file;

pub(crate) const RULE: Rule = Rule {
    code: "M006",
    name: "read-target-has-commands",
    summary: "The file read starts with commands, which are not expanded",
    severity: Severity::Hint,
    source: include_str!("read_target_has_commands.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed().filter(|c| c.kind == CommandKind::Read) {
        let Some(target) = cmd.read.as_ref() else {
            continue;
        };
        let Lookup::Exists(Some(contents)) = ctx.files.lookup(&target.path) else {
            continue;
        };
        let inner = parse_prompt_file(contents);
        let Some(first) = inner.leading.first() else {
            continue;
        };
        let first_line = contents
            .get(crate::text::span(first.range))
            .unwrap_or("")
            .to_string();
        let more = match inner.leading.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        acc.report(
            target.range,
            format!(
                "`{}` starts with commands (`{first_line}`{more}); they are not expanded: the model sees them as text",
                target.path
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_with_files;
    use expect_test::expect;

    #[test]
    fn target_starting_with_commands() {
        check_with_files(
            "M006",
            "/read persona.md\n/read plain.md\nText.\n",
            &[
                ("persona.md", Some("/read a.md\n/read b.md\n# Persona\n")),
                ("plain.md", Some("# Plain\n/read c.md\n")),
            ],
            expect![[r#"
                M006 1:7-1:17 hint: `persona.md` starts with commands (`/read a.md` and 1 more); they are not expanded: the model sees them as text
            "#]],
        );
    }
}
