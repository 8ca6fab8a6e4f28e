//! The code lenses of each task of a job entry, above the task's name:
//! `▶ Run task` and `Dry run` (the runner's, as a program's lenses:
//! [`LensCommand::RunTask`], [`LensCommand::DryRunTask`]; docs/lsp.md,
//! "Running job tasks"), or, when the entry has errors (with the
//! severities of the file's configuration), one lens saying how many
//! errors block the run, which reveals the first; then "Show expanded
//! prompt", whatever the errors.
//!
//! "Show expanded prompt" shows the task's prompt fully expanded (prompt
//! variables replaced, recursively; runtime variables kept as
//! `$user-input`, for the runner to fill in), as the seed's
//! `expandPromptStatic` gives it to the runner. Clicking it runs
//! [`LensCommand::ShowTaskPrompt`]; the server answers that command with
//! [`ExpandedPrompt`] (docs/lsp.md, "Job entries"), and the editor shows
//! the text. A prompt that cannot be expanded (an unknown variable, a
//! cycle, ...) gives the messages of its errors instead.
//!
//! Whether the workspace is trusted is the host's business: the server
//! replaces the run lenses with [`crate::code_lens::untrusted`] in a
//! workspace the editor has not trusted.

use prose_jobs::index::SymbolKind;

use crate::{
    code_lens::{CodeLens, LensCommand, blocked_title},
    db::{Db, SourceFile, Workspace},
    diagnostics::{Severity, file_diagnostics},
    jobs::{index, parsed},
};

/// The title of every task's prompt lens.
pub const TITLE: &str = "Show expanded prompt";
/// The title of the run lens.
pub const RUN: &str = "▶ Run task";
/// The title of the dry run lens.
pub const DRY_RUN: &str = "Dry run";

/// A task's fully expanded prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpandedPrompt {
    pub task: String,
    /// The expanded text; or, when the prompt cannot be expanded, the
    /// message of each error (`entry.tasks["t"].prompt: Cannot find
    /// prompt variable: $x.`).
    pub text: Result<String, Vec<String>>,
}

pub(crate) fn code_lenses(db: &dyn Db, ws: Workspace, file: SourceFile) -> Vec<CodeLens> {
    let errors = file_diagnostics(db, file, Some(ws))
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let mut lenses = Vec::new();
    for d in index(db, file)
        .definitions
        .iter()
        .filter(|d| d.kind == SymbolKind::Task)
    {
        let task = d.name.clone();
        let lens = |title: String, command: LensCommand| CodeLens {
            range: d.range,
            title,
            command,
        };
        if errors > 0 {
            lenses.push(lens(blocked_title(errors), LensCommand::RevealErrors));
        } else {
            lenses.push(lens(
                RUN.to_string(),
                LensCommand::RunTask { task: task.clone() },
            ));
            lenses.push(lens(
                DRY_RUN.to_string(),
                LensCommand::DryRunTask { task: task.clone() },
            ));
        }
        lenses.push(lens(
            TITLE.to_string(),
            LensCommand::ShowTaskPrompt { task },
        ));
    }
    lenses
}

/// The expanded prompt of the task `task`; `None` when the file has no
/// such task, or the task no prompt.
pub(crate) fn expanded_prompt(db: &dyn Db, file: SourceFile, task: &str) -> Option<ExpandedPrompt> {
    let text = prose_jobs::task_prompt(&parsed(db, file).entry, task)?;
    Some(ExpandedPrompt {
        task: task.to_string(),
        text: text.map_err(|errors| errors.into_iter().map(|e| e.message).collect()),
    })
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::{
        code_lens::{LensCommand, untrusted},
        fixture::Fixture,
        jobs::tests::ENTRY,
        kind::FileKind,
    };

    /// The lenses of `entry`, one a line: the text under the lens, its
    /// title and command (`untrusted`: as a workspace not trusted has
    /// them).
    fn check(entry: &str, trusted: bool, expect: Expect) {
        let (host, file) = Fixture::parse_as(entry, FileKind::JobEntry).host(None);
        let a = host.analysis();
        let text = a.file_text(file).unwrap();
        let mut lenses = a.code_lenses(file).unwrap();
        if !trusted {
            lenses = untrusted(lenses);
        }
        let shown: Vec<String> = lenses
            .iter()
            .map(|l| format!("{} {:?} {:?}", &text[l.range], l.title, l.command))
            .collect();
        expect.assert_eq(&shown.join("\n"));
    }

    /// `ENTRY` without its unknown variable: no errors.
    fn clean() -> String {
        ENTRY.replace(" $nope", "")
    }

    #[test]
    fn each_task_of_a_clean_entry_can_run() {
        check(
            &clean(),
            true,
            expect![[r#"
                "plan-task" "▶ Run task" RunTask { task: "plan-task" }
                "plan-task" "Dry run" DryRunTask { task: "plan-task" }
                "plan-task" "Show expanded prompt" ShowTaskPrompt { task: "plan-task" }
                "code-task" "▶ Run task" RunTask { task: "code-task" }
                "code-task" "Dry run" DryRunTask { task: "code-task" }
                "code-task" "Show expanded prompt" ShowTaskPrompt { task: "code-task" }"#]],
        );
    }

    #[test]
    fn errors_block_every_task_and_the_prompt_lens_stays() {
        check(
            ENTRY,
            true,
            expect![[r#"
                "plan-task" "1 error blocks the run" RevealErrors
                "plan-task" "Show expanded prompt" ShowTaskPrompt { task: "plan-task" }
                "code-task" "1 error blocks the run" RevealErrors
                "code-task" "Show expanded prompt" ShowTaskPrompt { task: "code-task" }"#]],
        );
        // Two errors: an unknown model too.
        check(
            &ENTRY.replace("\"model\": \"planning\"", "\"model\": \"planing\""),
            true,
            expect![[r#"
                "plan-task" "2 errors block the run" RevealErrors
                "plan-task" "Show expanded prompt" ShowTaskPrompt { task: "plan-task" }
                "code-task" "2 errors block the run" RevealErrors
                "code-task" "Show expanded prompt" ShowTaskPrompt { task: "code-task" }"#]],
        );
    }

    #[test]
    fn untrusted_workspaces_keep_only_the_prompt_lens_and_say_why() {
        for entry in [clean(), ENTRY.to_string()] {
            check(
                &entry,
                false,
                expect![[r#"
                    "plan-task" "Run disabled: workspace not trusted" None
                    "plan-task" "Show expanded prompt" ShowTaskPrompt { task: "plan-task" }
                    "code-task" "Run disabled: workspace not trusted" None
                    "code-task" "Show expanded prompt" ShowTaskPrompt { task: "code-task" }"#]],
            );
        }
    }

    #[test]
    fn an_entry_without_tasks_has_no_lenses() {
        check("{\"tasks\": {}}", true, expect![""]);
        check("{", true, expect![""]);
    }

    #[test]
    fn the_prompt_lens_shows_the_expanded_prompt() {
        let (host, file) = Fixture::parse_as(ENTRY, FileKind::JobEntry).host(None);
        let a = host.analysis();
        let plan = a.expanded_prompt(file, "plan-task").unwrap().unwrap();
        expect![[r#"ExpandedPrompt { task: "plan-task", text: Ok("Read AGENTS.md first.\nBe brief.\nWrite the plan for $user-input.") }"#]].assert_eq(&format!("{plan:?}"));
        // A prompt with an error gives its messages.
        let code = a.expanded_prompt(file, "code-task").unwrap().unwrap();
        expect![[r#"ExpandedPrompt { task: "code-task", text: Err(["entry.tasks[\"code-task\"].prompt: Cannot find prompt variable: $nope."]) }"#]].assert_eq(&format!("{code:?}"));
        assert_eq!(a.expanded_prompt(file, "nothing").unwrap(), None);
        let lenses = a.code_lenses(file).unwrap();
        assert!(
            matches!(&lenses[1].command, LensCommand::ShowTaskPrompt { task } if task == "plan-task")
        );
    }
}
