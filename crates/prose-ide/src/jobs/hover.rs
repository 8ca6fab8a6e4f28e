//! Hover in job entries: what a name under the cursor stands for.
//!
//! - a prompt variable (`$rules` in a prompt, or its key in
//!   `promptVariables`): where it is defined (line and code path) and its
//!   fully expanded text, variables inside it replaced;
//! - a runtime variable (`$user-input`, ...) and a tool
//!   (`job_boolean_true`, ...): what the job system gives it or does;
//! - a task (its key, or a name in `previousTasks`): its model, whether it
//!   takes user input, and its fully expanded prompt;
//! - a model key (its field in `models`, or a task's `model`): the model id;
//! - a grid keyword: the rows that have it and their jobs;
//!
//! then the diagnostics under the cursor, as in every language. Long texts
//! are cut at [`MAX_SHOWN`] characters (the task's code lens shows a whole
//! prompt).

use prose_jobs::{
    JobDiagnostic, ParsedEntry,
    index::{Index, Symbol, SymbolKind},
};
use prose_syntax::{TextRange, TextSize};

use crate::{
    db::{Db, SourceFile, Workspace},
    features::hover::{HoverResult, line_number, with_diagnostics},
    jobs::{index, parsed},
};

/// Expanded texts longer than this many characters are cut in a hover.
pub(crate) const MAX_SHOWN: usize = 3000;

pub(crate) fn hover(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Option<HoverResult> {
    let text = file.text(db);
    if usize::from(offset) > text.len() {
        return None;
    }
    let index = index(db, file);
    let parsed = parsed(db, file);
    let symbol = index.at(offset);
    let range = symbol.map(|s| range_of(index, s));
    let markdown = symbol.and_then(|s| describe(text, parsed, index, s));
    with_diagnostics(db, ws, file, offset, range, range.zip(markdown))
}

/// The range a symbol covers: `$name`, or the string that names it.
pub(crate) fn range_of(index: &Index, symbol: Symbol) -> TextRange {
    match symbol {
        Symbol::Definition(i) => index.definitions[i].range,
        Symbol::Reference(i) => index.references[i].range,
    }
}

fn describe(text: &str, parsed: &ParsedEntry, index: &Index, symbol: Symbol) -> Option<String> {
    let (kind, name) = index.name_of(symbol);
    let entry = &parsed.entry;
    let def = index
        .definition_of(kind, name)
        .map(|i| &index.definitions[i]);
    match kind {
        SymbolKind::PromptVariable => {
            let def = def?;
            let mut out = format!(
                "**prompt variable** `${name}`, defined at line {} (`entry.promptVariables[{}]`)",
                line_number(text, def.range.start()),
                prose_jobs::quote(name)
            );
            push_expansion(&mut out, "Expanded", prose_jobs::variable_text(entry, name));
            Some(out)
        }
        SymbolKind::RuntimeVariable => {
            let docs = runtime_variable_docs(name)?;
            Some(format!("**runtime variable** `${name}`\n\n{docs}"))
        }
        SymbolKind::Tool => {
            let docs = tool_docs(name)?;
            Some(format!("**tool** `{name}`\n\n{docs}"))
        }
        SymbolKind::Task => {
            let def = def?;
            let task = entry.task(name)?;
            let mut out = format!(
                "**task** `{name}`, defined at line {}",
                line_number(text, def.range.start())
            );
            if let Some(model) = &task.model {
                out.push_str(&format!(" · model `{}`", model.as_str()));
                if let Some(id) = model_id(parsed, model.as_str()) {
                    out.push_str(&format!(" (`{id}`)"));
                }
            }
            if task.require_user_input.is_some_and(|f| f.value) {
                out.push_str(" · takes user input");
            }
            push_expansion(&mut out, "Prompt", prose_jobs::task_prompt(entry, name));
            Some(out)
        }
        SymbolKind::ModelKey => {
            let def = def?;
            let id = model_id(parsed, name)?;
            let users = index
                .references
                .iter()
                .filter(|r| r.kind == SymbolKind::ModelKey && r.name == name)
                .count();
            Some(format!(
                "**model key** `{name}`: `{id}`, defined at line {}; {}",
                line_number(text, def.range.start()),
                count(users, "task uses it", "tasks use it")
            ))
        }
        SymbolKind::GridKeyword => {
            let rows: Vec<_> = entry
                .grid
                .iter()
                .flatten()
                .filter(|r| r.keyword.as_ref().is_some_and(|k| k.as_str() == name))
                .collect();
            if rows.is_empty() {
                return None;
            }
            let mut out = format!("**grid keyword** `{name}`");
            for row in rows {
                let jobs: Vec<String> = row
                    .jobs
                    .iter()
                    .map(|j| {
                        let name = j.name.as_ref().map_or("?", |n| n.as_str());
                        let id = j.id.as_ref().map_or("?", |n| n.as_str());
                        format!("{name} (`{id}`)")
                    })
                    .collect();
                let automate = if row.automate.is_some_and(|a| a.value) {
                    ", automated"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "\n- row at line {}{automate}: {}",
                    line_number(text, row.range.start()),
                    if jobs.is_empty() {
                        "no jobs".to_string()
                    } else {
                        jobs.join(", ")
                    }
                ));
            }
            Some(out)
        }
    }
}

/// The model id of the model key `key`.
pub(crate) fn model_id<'a>(parsed: &'a ParsedEntry, key: &str) -> Option<&'a str> {
    let models = parsed.entry.models.as_ref()?;
    models
        .keys
        .iter()
        .rev()
        .find(|k| k.key.as_str() == key)
        .map(|k| k.model.as_str())
}

/// Appends `label` and an expansion: its text in a block, or why there is none.
fn push_expansion(
    out: &mut String,
    label: &str,
    expansion: Option<Result<String, Vec<JobDiagnostic>>>,
) {
    match expansion {
        Some(Ok(text)) => {
            let lines = text.lines().count().max(1);
            out.push_str(&format!(
                "\n\n{label} ({}):\n\n{}",
                count(lines, "line", "lines"),
                fenced(&shown(&text, MAX_SHOWN))
            ));
        }
        Some(Err(errors)) => {
            out.push_str(&format!(
                "\n\nCannot be expanded: {}",
                count(errors.len(), "error", "errors")
            ));
            if let Some(first) = errors.first() {
                out.push_str(&format!(" (`{}` {})", first.code, first.message));
            }
        }
        None => {}
    }
}

/// `1 error`, `3 errors`.
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `text`, cut after `max` characters with a note of how much is left.
pub(crate) fn shown(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!(
            "{}\n… ({} more characters)",
            &text[..at],
            text[at..].chars().count()
        ),
    }
}

/// `text` in a fenced code block whose fence no line of `text` can close.
pub(crate) fn fenced(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}text\n{text}\n{fence}")
}

/// What the job system gives a runtime variable (seed 002).
pub(crate) fn runtime_variable_docs(name: &str) -> Option<&'static str> {
    Some(match name {
        "user-input" => {
            "What the user typed for the task. A task whose expanded prompt uses it must say `\"requireUserInput\": true` (and only then)."
        }
        "reported-document" => {
            "The argument of the last `job_prepare_document` call: its first line, trimmed."
        }
        "reported-true-reason" => {
            "The argument of the last `job_boolean_true` call (cleared by `job_boolean_false`)."
        }
        "reported-false-reason" => {
            "The argument of the last `job_boolean_false` call (cleared by `job_boolean_true`)."
        }
        _ => return None,
    })
}

/// What a tool does when a session calls it (seed 002).
pub(crate) fn tool_docs(name: &str) -> Option<&'static str> {
    Some(match name {
        "job_prepare_document" => {
            "Reports a document: its argument's first line, trimmed, becomes `$reported-document`."
        }
        "job_boolean_true" => {
            "Answers a condition with yes: the condition is satisfied, the argument becomes `$reported-true-reason` and `$reported-false-reason` is cleared. A condition's prompt must mention it or `job_boolean_false`."
        }
        "job_boolean_false" => {
            "Answers a condition with no: the condition fails, the argument becomes `$reported-false-reason` and `$reported-true-reason` is cleared. A condition's prompt must mention it or `job_boolean_true`."
        }
        "job_prerequisite_failed" => {
            "Called by the driving session when a task's availability is not met: the task fails."
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::{fixture::Fixture, kind::FileKind};

    fn check(fixture: &str, expect: Expect) {
        let (host, pos) = Fixture::parse_as(fixture, FileKind::JobEntry).position();
        let analysis = host.analysis();
        let text = analysis.file_text(pos.file).unwrap();
        let actual = match analysis.hover(pos).unwrap() {
            Some(h) => format!("{:?}\n{}", &text[h.range], h.markdown),
            None => "(none)".to_string(),
        };
        expect.assert_eq(&actual);
    }

    const MODELS: &str = r#""models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "c", "reviewers": []}"#;

    fn entry(vars: &str, tasks: &str) -> String {
        format!(
            "{{\n  {MODELS},\n  \"promptVariables\": {{{vars}}},\n  \"grid\": [{{\"keyword\": \"scrum\", \"automate\": true, \"jobs\": [{{\"name\": \"problem\", \"id\": \"scrum-problem\"}}]}}],\n  \"tasks\": {{{tasks}}}\n}}\n"
        )
    }

    #[test]
    fn a_variable_shows_its_expansion_and_definition() {
        check(
            &entry(
                r#""rules": ["Read AGENTS.md.", "$style"], "style": ["Be brief."]"#,
                r#""t": {"prompt": ["$ru$0les", "Go."], "requireUserInput": false}"#,
            ),
            expect![[r#"
                "$rules"
                **prompt variable** `$rules`, defined at line 3 (`entry.promptVariables["rules"]`)

                Expanded (2 lines):

                ```text
                Read AGENTS.md.
                Be brief.
                ```"#]],
        );
        // On the definition too.
        check(
            &entry(
                r#""ru$0les": ["Read AGENTS.md."]"#,
                r#""t": {"prompt": ["$rules"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                "\"rules\""
                **prompt variable** `$rules`, defined at line 3 (`entry.promptVariables["rules"]`)

                Expanded (1 line):

                ```text
                Read AGENTS.md.
                ```"#]],
        );
    }

    #[test]
    fn a_task_shows_its_model_and_expanded_prompt() {
        check(
            &entry(
                r#""rules": ["Read AGENTS.md."]"#,
                r#""plan-task": {"model": "planning", "prompt": ["$rules", "Plan: $user-input"], "requireUserInput": true},
                   "next": {"prompt": ["x"], "requireUserInput": false, "availability": {"previousTasks": ["plan-t$0ask"]}}"#,
            ),
            expect![[r#"
                "\"plan-task\""
                **task** `plan-task`, defined at line 5 · model `planning` (`gpt-5.2`) · takes user input

                Prompt (2 lines):

                ```text
                Read AGENTS.md.
                Plan: $user-input
                ```"#]],
        );
    }

    #[test]
    fn an_unknown_variable_shows_its_diagnostic() {
        check(
            &entry(
                r#""rules": ["x"]"#,
                r#""t": {"prompt": ["$rules $rul$0es-x"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                "$rules-x"
                **error J015** `unknown-prompt-variable`: entry.tasks["t"].prompt: Cannot find prompt variable: $rules-x.

                **Cannot find prompt variable.** A prompt uses `$name`, but `name` is
                neither a key of `promptVariables` nor a runtime variable
                (`$user-input`, `$reported-document`, `$reported-true-reason`,
                `$reported-false-reason`).

                *More: `prose explain J015`*"#]],
        );
    }

    #[test]
    fn a_prompt_with_errors_says_why_it_cannot_be_expanded() {
        check(
            &entry(
                r#""a": ["$b"], "b": ["$a"]"#,
                r#""t$0": {"prompt": ["$a"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                "\"t\""
                **task** `t`, defined at line 5

                Cannot be expanded: 1 error (`J018` entry.tasks["t"].prompt/$a/$b: Prompt variable $a uses itself: $a → $b → $a.)"#]],
        );
    }

    #[test]
    fn built_ins_models_and_keywords() {
        check(
            &entry(
                "",
                r#""t": {"prompt": ["$user-in$0put"], "requireUserInput": true}"#,
            ),
            expect![[r#"
                "$user-input"
                **runtime variable** `$user-input`

                What the user typed for the task. A task whose expanded prompt uses it must say `"requireUserInput": true` (and only then)."#]],
        );
        check(
            &entry(
                "",
                r#""t": {"prompt": ["x job_boolean_true"], "requireUserInput": false, "criteria": {"toolExecuted": ["job_prepare_$0document"], "failureAction": ["RetryWithNewSession", 1]}}"#,
            ),
            expect![[r#"
                "\"job_prepare_document\""
                **tool** `job_prepare_document`

                Reports a document: its argument's first line, trimmed, becomes `$reported-document`."#]],
        );
        check(
            &entry(
                "",
                r#""t": {"model": "plan$0ning", "prompt": ["x"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                "\"planning\""
                **model key** `planning`: `gpt-5.2`, defined at line 2; 1 task uses it"#]],
        );
        check(
            &entry(
                "",
                r#""t": {"prompt": ["x"], "requireUserInput": false, "availability": {"previousJobKeywords": ["scr$0um"]}}"#,
            ),
            expect![[r#"
                "\"scrum\""
                **grid keyword** `scrum`
                - row at line 4, automated: problem (`scrum-problem`)"#]],
        );
    }

    #[test]
    fn long_texts_are_cut_and_fences_are_safe() {
        assert_eq!(super::fenced("a ``` b"), "````text\na ``` b\n````");
        assert_eq!(super::fenced("plain"), "```text\nplain\n```");
        let long = "x".repeat(super::MAX_SHOWN + 5);
        assert!(super::shown(&long, super::MAX_SHOWN).ends_with("\n… (5 more characters)"));
        assert_eq!(super::shown("short", 10), "short");
    }

    #[test]
    fn nothing_on_plain_json() {
        check(
            &entry(
                "",
                r#""t": {"prompt": ["plain$0 text"], "requireUserInput": false}"#,
            ),
            expect!["(none)"],
        );
    }
}
