//! The outline of a job entry: its four parts, each with what it defines.
//!
//! - `models`: each model key, with its model id (and `reviewers`, with
//!   how many);
//! - `promptVariables`: each variable, with the first line of its text;
//! - `grid`: each row, named by its keyword (with whether it is automated),
//!   holding its jobs (name, with the id);
//! - `tasks`: each task, with its model.
//!
//! A part that is missing or not of its type is left out; so is anything
//! the checks had to skip (a value of the wrong type).

use prose_jobs::{
    json::{JsonString, ValueKind},
    model::Entry,
};
use prose_syntax::TextRange;

use crate::{
    db::{Db, SourceFile},
    features::{document_symbols::DocumentSymbol, navigation::SymbolKind},
    jobs::{first_line, hover::count, parsed, prompt_start},
};

/// Details are cut to this many characters.
const MAX_DETAIL: usize = 60;

pub(crate) fn document_symbols(db: &dyn Db, file: SourceFile) -> Vec<DocumentSymbol> {
    let parsed = parsed(db, file);
    let entry = &parsed.entry;
    let Some(members) = parsed.json.root.as_ref().and_then(|r| r.as_object()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in members {
        let children = match (m.key.as_str(), &m.value.kind) {
            ("models", ValueKind::Object(_)) => models(entry),
            ("promptVariables", ValueKind::Object(_)) => variables(entry),
            ("grid", ValueKind::Array(_)) => grid(entry),
            ("tasks", ValueKind::Object(_)) => tasks(entry),
            _ => continue,
        };
        let detail = match m.key.as_str() {
            "models" => {
                let keys = entry.models.as_ref().map_or(0, |m| m.keys.len());
                count(keys, "model key", "model keys")
            }
            "promptVariables" => count(children.len(), "variable", "variables"),
            "grid" => count(children.len(), "row", "rows"),
            _ => count(children.len(), "task", "tasks"),
        };
        out.push(DocumentSymbol {
            name: m.key.as_str().to_string(),
            detail: Some(detail),
            kind: SymbolKind::Section,
            full_range: m.key.range().cover(m.value.range),
            selection_range: m.key.content_range(),
            children,
        });
    }
    out
}

/// A symbol named by the string `name`, over `full` (which holds `name`).
fn named(
    name: &JsonString,
    kind: SymbolKind,
    detail: Option<String>,
    full: TextRange,
) -> DocumentSymbol {
    DocumentSymbol {
        name: name.as_str().to_string(),
        detail,
        kind,
        full_range: full.cover(name.range()),
        selection_range: name.content_range(),
        children: Vec::new(),
    }
}

fn models(entry: &Entry) -> Vec<DocumentSymbol> {
    let Some(models) = &entry.models else {
        return Vec::new();
    };
    let mut out: Vec<DocumentSymbol> = models
        .keys
        .iter()
        .map(|k| {
            named(
                &k.key,
                SymbolKind::ModelKey,
                Some(first_line(k.model.as_str(), MAX_DETAIL)),
                k.key.range().cover(k.model.range()),
            )
        })
        .collect();
    if let (Some(key), Some(reviewers)) = (&models.reviewers_key, &models.reviewers) {
        let full = reviewers
            .iter()
            .flatten()
            .fold(key.range(), |r, s| r.cover(s.range()));
        out.push(named(
            key,
            SymbolKind::ModelKey,
            Some(count(reviewers.len(), "model", "models")),
            full,
        ));
        out.sort_by_key(|s| s.full_range.start());
    }
    out
}

fn variables(entry: &Entry) -> Vec<DocumentSymbol> {
    entry
        .prompt_variables
        .iter()
        .map(|v| {
            let full = v.prompt.as_ref().map_or(v.name.range(), |p| p.range);
            let detail = v.prompt.as_ref().and_then(|p| prompt_start(p, MAX_DETAIL));
            named(&v.name, SymbolKind::Variable, detail, full)
        })
        .collect()
}

fn grid(entry: &Entry) -> Vec<DocumentSymbol> {
    entry
        .grid
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, row)| {
            let jobs: Vec<DocumentSymbol> = row
                .jobs
                .iter()
                .filter_map(|job| {
                    let name = job.name.as_ref()?;
                    let detail = job.id.as_ref().map(|id| id.as_str().to_string());
                    Some(named(name, SymbolKind::GridJob, detail, job.range))
                })
                .collect();
            let automate = row.automate.map(|a| {
                if a.value {
                    "automated"
                } else {
                    "not automated"
                }
            });
            let detail = automate.map(|a| format!("{a}, {}", count(jobs.len(), "job", "jobs")));
            let mut symbol = match &row.keyword {
                Some(keyword) => named(keyword, SymbolKind::GridRow, detail, row.range),
                None => DocumentSymbol {
                    name: format!("[{i}]"),
                    detail,
                    kind: SymbolKind::GridRow,
                    full_range: row.range,
                    selection_range: TextRange::empty(row.range.start()),
                    children: Vec::new(),
                },
            };
            symbol.children = jobs;
            symbol
        })
        .collect()
}

fn tasks(entry: &Entry) -> Vec<DocumentSymbol> {
    entry
        .tasks
        .iter()
        .map(|t| {
            let detail = t.model.as_ref().map(|m| m.as_str().to_string());
            named(&t.name, SymbolKind::Task, detail, t.range)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::{fixture::Fixture, jobs::tests::ENTRY, kind::FileKind};

    fn outline(text: &str) -> String {
        let (host, file) = Fixture::parse_as(text, FileKind::JobEntry).host(None);
        let a = host.analysis();
        let text = a.file_text(file).unwrap();
        let mut out = String::new();
        fn walk(
            out: &mut String,
            text: &str,
            s: &crate::features::document_symbols::DocumentSymbol,
            depth: usize,
        ) {
            assert!(s.full_range.contains_range(s.selection_range), "{s:?}");
            out.push_str(&format!(
                "{}{} {:?} {:?} [{:?}]\n",
                "  ".repeat(depth),
                s.name,
                s.kind,
                s.detail.as_deref().unwrap_or(""),
                &text[s.selection_range]
            ));
            for c in &s.children {
                assert!(s.full_range.contains_range(c.full_range), "{c:?}");
                walk(out, text, c, depth + 1);
            }
        }
        for s in a.document_symbols(file).unwrap() {
            walk(&mut out, &text, &s, 0);
        }
        out
    }

    #[test]
    fn parts_and_what_they_define() {
        expect![[r#"
            models Section "3 model keys" ["models"]
              driving ModelKey "gpt-5-mini" ["driving"]
              planning ModelKey "gpt-5.2" ["planning"]
              coding ModelKey "gpt-5.2-codex" ["coding"]
              reviewers ModelKey "1 model" ["reviewers"]
            promptVariables Section "3 variables" ["promptVariables"]
              rules Variable "Read AGENTS.md first.…" ["rules"]
              style Variable "Be brief." ["style"]
              answer Variable "Call job_boolean_true if it holds, job_boolean_false if not." ["answer"]
            grid Section "2 rows" ["grid"]
              scrum GridRow "not automated, 1 job" ["scrum"]
                problem GridJob "scrum-problem" ["problem"]
              scrum GridRow "automated, 0 jobs" ["scrum"]
            tasks Section "2 tasks" ["tasks"]
              plan-task Task "planning" ["plan-task"]
              code-task Task "coding" ["code-task"]
        "#]].assert_eq(&outline(ENTRY));
    }

    #[test]
    fn broken_parts_are_left_out() {
        expect![[r#"
            promptVariables Section "1 variable" ["promptVariables"]
              a Variable "" ["a"]
            grid Section "1 row" ["grid"]
              [0] GridRow "" [""]
            tasks Section "1 task" ["tasks"]
              t Task "" ["t"]
        "#]].assert_eq(&outline(
            r#"{"models": [], "promptVariables": {"a": "not a prompt"}, "grid": [{"automate": 1}], "tasks": {"t": {"prompt": ["x"]}"#,
        ));
    }
}
