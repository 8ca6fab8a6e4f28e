//! Completion in job entries, where the cursor's place in the entry says
//! what may be written ([`prose_jobs::complete::completion_at`]):
//!
//! - after `$` in a prompt string: the prompt variables (each with the
//!   first line of its expansion) and the runtime variables;
//! - in a task's `model`: the model keys, with their model ids;
//! - in `previousTasks`: the task names; in `previousJobKeywords`: the
//!   grid keywords; in `toolExecuted`: the tools.
//!
//! In a string, the item replaces the string's content; between the items
//! of a list, it inserts a new string (quotes included). Names are written
//! as JSON.

use prose_jobs::{
    AVAILABLE_TOOLS, RUNTIME_VARIABLES,
    complete::{CompletionContext, CompletionKind as JobKind, completion_at},
    index::SymbolKind,
};
use prose_syntax::TextSize;

use crate::{
    db::{Db, SourceFile},
    features::completion::{CompletionItem, CompletionKind},
    jobs::{
        first_line,
        hover::{MAX_SHOWN, fenced, model_id, runtime_variable_docs, shown, tool_docs},
        index, parsed, prompt_start,
    },
};

/// Details are cut to this many characters.
const MAX_DETAIL: usize = 60;

pub(crate) fn completions(db: &dyn Db, file: SourceFile, offset: TextSize) -> Vec<CompletionItem> {
    let text = file.text(db);
    if usize::from(offset) > text.len() || !text.is_char_boundary(offset.into()) {
        return Vec::new();
    }
    let parsed = parsed(db, file);
    let Some(cx) = completion_at(text, parsed, offset) else {
        return Vec::new();
    };
    let index = index(db, file);
    let mut items = Items {
        cx: &cx,
        items: Vec::new(),
    };
    match cx.kind {
        JobKind::Variable => {
            let mut expander = prose_jobs::Expander::new(&parsed.entry);
            for name in index.names(SymbolKind::PromptVariable) {
                let expansion = expander.variable_text(name).and_then(Result::ok);
                items.push(
                    format!("${name}"),
                    CompletionKind::Variable,
                    expansion.as_deref().map(|t| first_line(t, MAX_DETAIL)),
                    expansion.map(|t| fenced(&shown(&t, MAX_SHOWN))),
                );
            }
            for name in RUNTIME_VARIABLES {
                items.push(
                    name.to_string(),
                    CompletionKind::Variable,
                    Some("runtime variable".to_string()),
                    runtime_variable_docs(&name[1..]).map(str::to_string),
                );
            }
        }
        JobKind::ModelKey => {
            for name in index.names(SymbolKind::ModelKey) {
                let id = model_id(parsed, name).map(str::to_string);
                items.push_name(name, CompletionKind::Value, id, None);
            }
        }
        JobKind::Task => {
            for name in index.names(SymbolKind::Task) {
                let detail = parsed
                    .entry
                    .task(name)
                    .and_then(|t| t.prompt.as_ref())
                    .and_then(|p| prompt_start(p, MAX_DETAIL));
                items.push_name(name, CompletionKind::Task, detail, None);
            }
        }
        JobKind::GridKeyword => {
            for name in index.names(SymbolKind::GridKeyword) {
                items.push_name(
                    name,
                    CompletionKind::Value,
                    Some("grid keyword".into()),
                    None,
                );
            }
        }
        JobKind::Tool => {
            for name in AVAILABLE_TOOLS {
                items.push_name(
                    name,
                    CompletionKind::Tool,
                    Some("tool".into()),
                    tool_docs(name).map(str::to_string),
                );
            }
        }
    }
    items.items
}

struct Items<'a> {
    cx: &'a CompletionContext,
    items: Vec<CompletionItem>,
}

impl Items<'_> {
    /// An item that inserts `label` as it is (a `$variable`).
    fn push(
        &mut self,
        label: String,
        kind: CompletionKind,
        detail: Option<String>,
        documentation: Option<String>,
    ) {
        let sort_text = Some(format!("{:04}", self.items.len()));
        self.items.push(CompletionItem {
            label,
            kind,
            detail,
            documentation,
            insert_text: None,
            is_snippet: false,
            replace_range: self.cx.replace,
            sort_text,
        });
    }

    /// An item that inserts `name` as JSON: the string's content, or a
    /// whole string where the cursor is between list items.
    fn push_name(
        &mut self,
        name: &str,
        kind: CompletionKind,
        detail: Option<String>,
        documentation: Option<String>,
    ) {
        let quoted = prose_jobs::quote(name);
        let insert = if self.cx.quoted {
            quoted
        } else {
            quoted[1..quoted.len() - 1].to_string()
        };
        self.push(name.to_string(), kind, detail, documentation);
        if let Some(item) = self.items.last_mut()
            && insert != item.label
        {
            item.insert_text = Some(insert);
        }
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::{fixture::Fixture, jobs::tests::ENTRY, kind::FileKind};

    fn check(fixture: &str, expect: Expect) {
        let (host, pos) = Fixture::parse_as(fixture, FileKind::JobEntry).position();
        let a = host.analysis();
        let text = a.file_text(pos.file).unwrap();
        let items = a.completions(pos).unwrap();
        let shown: Vec<String> = items
            .iter()
            .map(|i| {
                format!(
                    "{} {:?} replaces {:?}{}{}",
                    i.label,
                    i.kind,
                    &text[i.replace_range],
                    i.insert_text
                        .as_ref()
                        .map(|t| format!(" with {t}"))
                        .unwrap_or_default(),
                    i.detail
                        .as_ref()
                        .map(|d| format!(" ({d})"))
                        .unwrap_or_default(),
                )
            })
            .collect();
        expect.assert_eq(&shown.join("\n"));
    }

    /// ENTRY with `insert` (holding `$0`) written in place of `needle`.
    fn edited(needle: &str, insert: &str) -> String {
        assert!(ENTRY.contains(needle), "{needle}");
        ENTRY.replacen(needle, insert, 1)
    }

    #[test]
    fn variables_after_a_dollar() {
        check(
            &edited("Write the plan", "Write $st$0 the plan"),
            expect![[r#"
                $rules Variable replaces "$st" (Read AGENTS.md first.…)
                $style Variable replaces "$st" (Be brief.)
                $answer Variable replaces "$st" (Call job_boolean_true if it holds, job_boolean_false if not.)
                $user-input Variable replaces "$st" (runtime variable)
                $reported-document Variable replaces "$st" (runtime variable)
                $reported-true-reason Variable replaces "$st" (runtime variable)
                $reported-false-reason Variable replaces "$st" (runtime variable)"#]],
        );
        // Not after a dollar, and not outside prompts.
        check(&edited("Write the plan", "Write$0 the plan"), expect![""]);
        check(&edited("\"problem\"", "\"$pro$0blem\""), expect![""]);
    }

    #[test]
    fn names_in_their_places() {
        check(
            &edited("\"model\": \"coding\"", "\"model\": \"co$0\""),
            expect![[r#"
            driving Value replaces "co" (gpt-5-mini)
            planning Value replaces "co" (gpt-5.2)
            coding Value replaces "co" (gpt-5.2-codex)"#]],
        );
        check(
            &edited("[\"plan-task\"]", "[\"plan-task\", $0]"),
            expect![[r#"
                plan-task Task replaces "" with "plan-task" ($rules…)
                code-task Task replaces "" with "code-task" ($rules $style…)"#]],
        );
        check(
            &edited("[\"scrum\"]", "[\"s$0\"]"),
            expect![[r#"scrum Value replaces "s" (grid keyword)"#]],
        );
        check(
            &edited("[\"job_boolean_true\"]", "[\"job_$0\"]"),
            expect![[r#"
                job_prepare_document Tool replaces "job_" (tool)
                job_boolean_true Tool replaces "job_" (tool)
                job_boolean_false Tool replaces "job_" (tool)
                job_prerequisite_failed Tool replaces "job_" (tool)"#]],
        );
    }
}
