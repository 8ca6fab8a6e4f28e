//! Rename in job entries: prompt variables, tasks, model keys and grid
//! keywords, at their definition or any use.
//!
//! A rename edits every occurrence in the file ([`Index::occurrences`]):
//! the key or `keyword` that defines the name, and every use, `$name`
//! inside prompt strings included. Only the name's own bytes change (the
//! `$` and the quotes stay), so a use written with escapes (`\u0024name`)
//! keeps them around the new name; a new task, model or keyword name is
//! written as JSON (quotes and backslashes escaped).
//!
//! Refused, with the reason: runtime variables and tools (built into the
//! job system), names defined nowhere, a new variable name that no `$use`
//! could match (`step2`) or that is a runtime variable's, an empty name,
//! `reviewers` as a model key, and a new name that another definition of
//! the same kind has already (the two would merge).

use prose_jobs::index::{Index, Symbol, SymbolKind};
use prose_syntax::{TextRange, TextSize};

use crate::{
    FileId,
    db::{Db, SourceFile},
    features::rename::{RenameError, SourceChange, TextEdit},
    jobs::{index, navigation::occurrences},
};

fn refuse<T>(message: impl Into<String>) -> Result<T, RenameError> {
    Err(RenameError {
        message: message.into(),
        nothing_here: false,
    })
}

/// The symbol a rename at `offset` would rename, and the range of its
/// name there.
fn target(index: &Index, offset: TextSize) -> Result<(Symbol, TextRange), RenameError> {
    let Some(symbol) = index.at(offset) else {
        return Err(RenameError::nothing_here());
    };
    let (kind, name) = index.name_of(symbol);
    match kind {
        SymbolKind::RuntimeVariable => {
            return refuse(format!(
                "${name} is a runtime variable of the job system: it cannot be renamed"
            ));
        }
        SymbolKind::Tool => {
            return refuse(format!(
                "{name} is a tool of the job system: it cannot be renamed"
            ));
        }
        _ => {}
    }
    if index.definition_of(kind, name).is_none() {
        return refuse(format!(
            "{} is not defined in this entry",
            shown(kind, name)
        ));
    }
    let range = match symbol {
        Symbol::Definition(i) => index.definitions[i].name_range,
        Symbol::Reference(i) => index.references[i].name_range,
    };
    Ok((symbol, range))
}

/// `$name` for variables, `"name"` for the others.
fn shown(kind: SymbolKind, name: &str) -> String {
    match kind {
        SymbolKind::PromptVariable | SymbolKind::RuntimeVariable => format!("${name}"),
        _ => prose_jobs::quote(name),
    }
}

pub(crate) fn prepare_rename(
    db: &dyn Db,
    file: SourceFile,
    offset: TextSize,
) -> Result<TextRange, RenameError> {
    target(index(db, file), offset).map(|(_, range)| range)
}

pub(crate) fn rename(
    db: &dyn Db,
    file_id: FileId,
    file: SourceFile,
    offset: TextSize,
    new_name: &str,
) -> Result<SourceChange, RenameError> {
    let index = index(db, file);
    let (symbol, _) = target(index, offset)?;
    let (kind, old) = index.name_of(symbol);
    let new_name = match kind {
        // `$plan` and `plan` both mean the variable `plan`.
        SymbolKind::PromptVariable => new_name.strip_prefix('$').unwrap_or(new_name),
        _ => new_name,
    };
    check_new_name(index, kind, new_name)?;
    if new_name == old {
        return Ok(SourceChange::default());
    }
    // The text of the name between its quotes (or after its `$`).
    let written = match kind {
        SymbolKind::PromptVariable => new_name.to_string(),
        _ => {
            let quoted = prose_jobs::quote(new_name);
            quoted[1..quoted.len() - 1].to_string()
        }
    };
    let edits = occurrences(index, symbol)
        .into_iter()
        .map(|(range, _)| TextEdit {
            range,
            new_text: written.clone(),
        })
        .collect();
    Ok(SourceChange {
        edits: vec![(file_id, edits)],
    })
}

fn check_new_name(index: &Index, kind: SymbolKind, new: &str) -> Result<(), RenameError> {
    if new.is_empty() {
        return refuse("The new name is empty");
    }
    match kind {
        SymbolKind::PromptVariable if !prose_jobs::is_variable_name(new) => {
            return refuse(format!(
                "${new} cannot be a prompt variable: a name is words of ASCII letters joined by hyphens (such as review-rules)"
            ));
        }
        SymbolKind::PromptVariable if prose_jobs::is_runtime_variable(new) => {
            return refuse(format!(
                "${new} is a runtime variable of the job system: a prompt variable of that name would never be used"
            ));
        }
        SymbolKind::ModelKey if new == "reviewers" => {
            return refuse("\"reviewers\" is the list of reviewer models, not a model key");
        }
        _ => {}
    }
    let old_kind_has = index
        .definitions
        .iter()
        .any(|d| d.kind == kind && d.name == new);
    if old_kind_has {
        let what = match kind {
            SymbolKind::PromptVariable => "prompt variable",
            SymbolKind::Task => "task",
            SymbolKind::ModelKey => "model key",
            SymbolKind::GridKeyword => "grid keyword",
            SymbolKind::RuntimeVariable | SymbolKind::Tool => "name",
        };
        return refuse(format!("There is a {what} {} already", shown(kind, new)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::{fixture::Fixture, jobs::tests::ENTRY, kind::FileKind};

    fn cursor(needle: &str, n: usize, delta: usize) -> String {
        let at = ENTRY.match_indices(needle).nth(n).expect("needle").0 + delta;
        format!("{}$0{}", &ENTRY[..at], &ENTRY[at..])
    }

    /// Renames at the cursor and shows the changed lines (or the refusal).
    fn check(fixture: &str, new_name: &str, expect: Expect) {
        let (host, pos) = Fixture::parse_as(fixture, FileKind::JobEntry).position();
        let a = host.analysis();
        let text = a.file_text(pos.file).unwrap();
        let actual = match a.rename(pos, new_name).unwrap() {
            Err(e) => format!("refused: {}", e.message),
            Ok(change) => {
                let mut new = text.clone();
                let mut edits = change
                    .edits
                    .into_iter()
                    .flat_map(|(_, e)| e)
                    .collect::<Vec<_>>();
                edits.sort_by_key(|e| std::cmp::Reverse(e.range.start()));
                for e in edits {
                    new.replace_range(std::ops::Range::<usize>::from(e.range), &e.new_text);
                }
                let before: Vec<&str> = text.lines().collect();
                new.lines()
                    .enumerate()
                    .filter(|(i, l)| before.get(*i) != Some(l))
                    .map(|(i, l)| format!("{}: {l}\n", i + 1))
                    .collect()
            }
        };
        expect.assert_eq(&actual);
    }

    #[test]
    fn a_variable_everywhere_escapes_kept() {
        check(
            &cursor("\"style\"", 0, 2),
            "tone",
            expect![[r#"
                4:     "rules": ["Read AGENTS.md first.", "\u0024tone"],
                5:     "tone": ["Be brief."],
                11:     "code-task": {"model": "coding", "prompt": ["$rules $tone", "Follow the plan. $user-input $nope"], "requireUserInput": true, "availability": {"previousTasks": ["plan-task"], "previousJobKeywords": ["scrum"]}, "criteria": {"toolExecuted": ["job_boolean_true"], "condition": ["$answer", "The code builds."], "runConditionInSameSession": false, "failureAction": ["RetryWithUserPrompt", 2, ["Fix it: $reported-false-reason"]]}}
            "#]],
        );
        // From a use; `$name` is accepted as the new name.
        check(
            &cursor("$rules", 0, 3),
            "$house-rules",
            expect![[r#"
            4:     "house-rules": ["Read AGENTS.md first.", "\u0024style"],
            10:     "plan-task": {"model": "planning", "prompt": ["$house-rules", "Write the plan for $user-input."], "requireUserInput": true},
            11:     "code-task": {"model": "coding", "prompt": ["$house-rules $style", "Follow the plan. $user-input $nope"], "requireUserInput": true, "availability": {"previousTasks": ["plan-task"], "previousJobKeywords": ["scrum"]}, "criteria": {"toolExecuted": ["job_boolean_true"], "condition": ["$answer", "The code builds."], "runConditionInSameSession": false, "failureAction": ["RetryWithUserPrompt", 2, ["Fix it: $reported-false-reason"]]}}
        "#]],
        );
    }

    #[test]
    fn a_task_a_model_and_a_keyword() {
        check(
            &cursor("\"plan-task\"", 1, 3),
            "design \"v2\"",
            expect![[r#"
            10:     "design \"v2\"": {"model": "planning", "prompt": ["$rules", "Write the plan for $user-input."], "requireUserInput": true},
            11:     "code-task": {"model": "coding", "prompt": ["$rules $style", "Follow the plan. $user-input $nope"], "requireUserInput": true, "availability": {"previousTasks": ["design \"v2\""], "previousJobKeywords": ["scrum"]}, "criteria": {"toolExecuted": ["job_boolean_true"], "condition": ["$answer", "The code builds."], "runConditionInSameSession": false, "failureAction": ["RetryWithUserPrompt", 2, ["Fix it: $reported-false-reason"]]}}
        "#]],
        );
        check(
            &cursor("\"coding\"", 0, 3),
            "coder",
            expect![[r#"
            2:   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coder": "gpt-5.2-codex", "reviewers": ["claude-opus-4.5"]},
            11:     "code-task": {"model": "coder", "prompt": ["$rules $style", "Follow the plan. $user-input $nope"], "requireUserInput": true, "availability": {"previousTasks": ["plan-task"], "previousJobKeywords": ["scrum"]}, "criteria": {"toolExecuted": ["job_boolean_true"], "condition": ["$answer", "The code builds."], "runConditionInSameSession": false, "failureAction": ["RetryWithUserPrompt", 2, ["Fix it: $reported-false-reason"]]}}
        "#]],
        );
        check(
            &cursor("\"scrum\"", 2, 3),
            "kanban",
            expect![[r#"
            8:   "grid": [{"keyword": "kanban", "automate": false, "jobs": [{"name": "problem", "id": "scrum-problem"}]}, {"keyword": "kanban", "automate": true, "jobs": []}],
            11:     "code-task": {"model": "coding", "prompt": ["$rules $style", "Follow the plan. $user-input $nope"], "requireUserInput": true, "availability": {"previousTasks": ["plan-task"], "previousJobKeywords": ["kanban"]}, "criteria": {"toolExecuted": ["job_boolean_true"], "condition": ["$answer", "The code builds."], "runConditionInSameSession": false, "failureAction": ["RetryWithUserPrompt", 2, ["Fix it: $reported-false-reason"]]}}
        "#]],
        );
    }

    #[test]
    fn refusals_say_why() {
        check(
            &cursor("$user-input", 0, 3),
            "x",
            expect![
                "refused: $user-input is a runtime variable of the job system: it cannot be renamed"
            ],
        );
        check(
            &cursor("job_boolean_true", 1, 3),
            "x",
            expect!["refused: job_boolean_true is a tool of the job system: it cannot be renamed"],
        );
        check(
            &cursor("$nope", 0, 3),
            "x",
            expect!["refused: $nope is not defined in this entry"],
        );
        check(
            &cursor("\"style\"", 0, 2),
            "step2",
            expect![
                "refused: $step2 cannot be a prompt variable: a name is words of ASCII letters joined by hyphens (such as review-rules)"
            ],
        );
        check(
            &cursor("\"style\"", 0, 2),
            "reported-document",
            expect![
                "refused: $reported-document is a runtime variable of the job system: a prompt variable of that name would never be used"
            ],
        );
        check(
            &cursor("\"style\"", 0, 2),
            "rules",
            expect!["refused: There is a prompt variable $rules already"],
        );
        check(
            &cursor("\"plan-task\"", 0, 2),
            "code-task",
            expect![[r#"refused: There is a task "code-task" already"#]],
        );
        check(
            &cursor("\"coding\"", 0, 2),
            "reviewers",
            expect![[r#"refused: "reviewers" is the list of reviewer models, not a model key"#]],
        );
        check(
            &cursor("\"plan-task\"", 0, 2),
            "",
            expect!["refused: The new name is empty"],
        );
    }

    #[test]
    fn prepare_gives_the_name_or_nothing() {
        let (host, pos) = Fixture::parse_as(&cursor("$style", 0, 3), FileKind::JobEntry).position();
        let a = host.analysis();
        let text = a.file_text(pos.file).unwrap();
        let range = a.prepare_rename(pos).unwrap().unwrap();
        assert_eq!(&text[range], "style");
        let (host, pos) =
            Fixture::parse_as(&cursor("Write the plan", 0, 3), FileKind::JobEntry).position();
        let e = host.analysis().prepare_rename(pos).unwrap().unwrap_err();
        assert!(e.nothing_here);
    }
}
