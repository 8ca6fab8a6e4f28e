//! The code lens of each task, "Show expanded prompt", and the text it
//! shows: the task's prompt fully expanded (prompt variables replaced,
//! recursively; runtime variables kept as `$user-input`, for the runner to
//! fill in), as the seed's `expandPromptStatic` gives it to the runner.
//!
//! The lens stands above the task's name. Clicking it runs
//! [`LensCommand::ShowTaskPrompt`]; the server answers that command with
//! [`ExpandedPrompt`] (docs/lsp.md, "Job entries"), and the editor shows
//! the text. A prompt that cannot be expanded (an unknown variable, a
//! cycle, ...) gives the messages of its errors instead.

use prose_jobs::index::SymbolKind;

use crate::{
    code_lens::{CodeLens, LensCommand},
    db::{Db, SourceFile},
    jobs::{index, parsed},
};

/// The title of every task's lens.
pub const TITLE: &str = "Show expanded prompt";

/// A task's fully expanded prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpandedPrompt {
    pub task: String,
    /// The expanded text; or, when the prompt cannot be expanded, the
    /// message of each error (`entry.tasks["t"].prompt: Cannot find
    /// prompt variable: $x.`).
    pub text: Result<String, Vec<String>>,
}

pub(crate) fn code_lenses(db: &dyn Db, file: SourceFile) -> Vec<CodeLens> {
    index(db, file)
        .definitions
        .iter()
        .filter(|d| d.kind == SymbolKind::Task)
        .map(|d| CodeLens {
            range: d.range,
            title: TITLE.to_string(),
            command: LensCommand::ShowTaskPrompt {
                task: d.name.clone(),
            },
        })
        .collect()
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
    use expect_test::expect;

    use crate::{code_lens::LensCommand, fixture::Fixture, jobs::tests::ENTRY, kind::FileKind};

    #[test]
    fn each_task_has_a_lens_that_shows_its_prompt() {
        let (host, file) = Fixture::parse_as(ENTRY, FileKind::JobEntry).host(None);
        let a = host.analysis();
        let text = a.file_text(file).unwrap();
        let lenses = a.code_lenses(file).unwrap();
        let shown: Vec<String> = lenses
            .iter()
            .map(|l| format!("{} {:?} {:?}", &text[l.range], l.title, l.command))
            .collect();
        expect![[r#"
            "plan-task" "Show expanded prompt" ShowTaskPrompt { task: "plan-task" }
            "code-task" "Show expanded prompt" ShowTaskPrompt { task: "code-task" }"#]]
        .assert_eq(&shown.join("\n"));

        let plan = a.expanded_prompt(file, "plan-task").unwrap().unwrap();
        expect![[r#"ExpandedPrompt { task: "plan-task", text: Ok("Read AGENTS.md first.\nBe brief.\nWrite the plan for $user-input.") }"#]].assert_eq(&format!("{plan:?}"));
        // A prompt with an error gives its messages.
        let code = a.expanded_prompt(file, "code-task").unwrap().unwrap();
        expect![[r#"ExpandedPrompt { task: "code-task", text: Err(["entry.tasks[\"code-task\"].prompt: Cannot find prompt variable: $nope."]) }"#]].assert_eq(&format!("{code:?}"));
        assert_eq!(a.expanded_prompt(file, "nothing").unwrap(), None);
        assert!(
            matches!(&lenses[0].command, LensCommand::ShowTaskPrompt { task } if task == "plan-task")
        );
    }
}
