//! Job entries (seed 002: `*.jobs.json`, `jobs.json` and the `[files] jobs`
//! globs) in the engine.
//!
//! The language is `prose-jobs`: its JSONC reader, the typed entry, prompt
//! expansion, every check (one file per `J` code under
//! `crates/prose-jobs/src/rules/`, whose `//!` comments are the docs
//! pages) and the editor index. This folder turns that into the engine's
//! terms: the rule registry of the `J` codes ([`rules`]), the file's
//! diagnostics ([`diagnostics`]), and one file per editor feature, which
//! `crate::features` calls for files of [`FileKind::JobEntry`]:
//!
//! | feature | file |
//! |---|---|
//! | hover on `$variables`, tasks, models, keywords, tools | `hover.rs` |
//! | go to definition, references, highlight | `navigation.rs` |
//! | rename of variables, tasks, model keys, keywords | `rename.rs` |
//! | completion of `$variables`, model keys, tasks, keywords, tools | `completion.rs` |
//! | outline (models, variables, grid, tasks) | `document_symbols.rs` |
//! | the "Show expanded prompt" lens of each task, and its text | `code_lens.rs` |
//! | quick fixes from the checks' fixes | `code_actions.rs` |
//! | `$variables` as semantic tokens | `semantic_tokens.rs` |
//! | folding of objects and arrays | `folding.rs` |
//!
//! Every prompt string, with its decoded text and its map back to the
//! source, is [`prompt_strings`]: what a guest language (the `_keyword_`
//! instructions) may be injected into.

pub(crate) mod code_actions;
pub mod code_lens;
pub(crate) mod completion;
pub(crate) mod document_symbols;
pub(crate) mod folding;
pub(crate) mod hover;
pub(crate) mod injections;
pub(crate) mod navigation;
pub(crate) mod rename;
pub(crate) mod semantic_tokens;

#[cfg(test)]
mod tests;

use std::sync::{Arc, OnceLock};

use prose_jobs::{
    JobDiagnostic, ParsedEntry, Severity as JobSeverity, index::Index, json::JsonString,
};

use crate::{
    config::{Config, Level},
    db::{Db, SourceFile},
    diagnostics::{Acc, Finding, Related, Rule, Severity, Tag, front_end_accs, front_end_rule},
    kind::FileKind,
};

/// The rules of every `J` code, built once from the front end's table.
pub(crate) fn rules() -> &'static [&'static Rule] {
    static RULES: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        prose_jobs::rules()
            .iter()
            .map(|r| {
                let severity = severity(r.severity);
                front_end_rule(
                    FileKind::JobEntry,
                    r.code,
                    r.name,
                    r.summary,
                    severity,
                    Level::On(severity),
                    r.source,
                )
            })
            .collect()
    })
}

fn severity(s: JobSeverity) -> Severity {
    match s {
        JobSeverity::Error => Severity::Error,
        JobSeverity::Warning => Severity::Warning,
    }
}

/// The entry of a job file: the JSON tree and the typed model.
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn parsed(db: &dyn Db, file: SourceFile) -> Arc<ParsedEntry> {
    Arc::new(prose_jobs::parse(file.text(db)))
}

/// Every definition and reference of the entry's names.
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn index(db: &dyn Db, file: SourceFile) -> Arc<Index> {
    Arc::new(Index::build(&parsed(db, file).entry))
}

/// What the checks find, with their fixes (before the configuration
/// decides which are reported, and how).
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn findings(db: &dyn Db, file: SourceFile) -> Arc<Vec<JobDiagnostic>> {
    Arc::new(prose_jobs::validate(parsed(db, file)))
}

/// Every prompt of the entry: prompt variables, then each task's prompt,
/// conditions and retry prompt (each an array of strings the model reads
/// as lines).
pub(crate) fn prompts(entry: &prose_jobs::model::Entry) -> Vec<&prose_jobs::model::Prompt> {
    let tasks = entry.tasks.iter().flat_map(|t| {
        let availability = t.availability.as_ref().and_then(|a| a.condition.as_ref());
        let criteria = t.criteria.as_ref();
        let condition = criteria.and_then(|c| c.condition.as_ref());
        let retry = criteria
            .and_then(|c| c.failure_action.as_ref())
            .and_then(|f| f.prompt.as_ref());
        [t.prompt.as_ref(), availability, condition, retry]
    });
    entry
        .prompt_variables
        .iter()
        .map(|v| v.prompt.as_ref())
        .chain(tasks)
        .flatten()
        .collect()
}

/// Every prompt string of the file, in file order: prompt variables, then
/// each task's prompt, conditions and retry prompt. What a host of injected
/// languages hands its guest: each [`JsonString`] has the decoded text
/// (`as_str`) and maps any range of it back to the source bytes
/// (`source_range`), escapes included; `content_range` is the source
/// between the quotes.
pub fn prompt_strings(db: &dyn Db, file: SourceFile) -> Vec<JsonString> {
    let mut out: Vec<JsonString> = prompts(&parsed(db, file).entry)
        .into_iter()
        .flat_map(|p| p.items.iter().map(|i| i.text.clone()))
        .collect();
    out.sort_by_key(|s| s.range().start());
    out
}

/// The checks' findings on `file`, grouped by rule.
pub(crate) fn diagnostics(db: &dyn Db, file: SourceFile, config: &Config) -> Vec<Acc> {
    let path = file.path(db);
    let found = findings(db, file).iter().map(|d| Finding {
        code: d.code,
        range: d.range,
        message: d.message.clone(),
        related: d
            .related
            .iter()
            .map(|r| Related {
                path: path.clone(),
                range: r.range,
                message: r.message.clone(),
            })
            .collect(),
        tags: if d.unnecessary {
            vec![Tag::Unnecessary]
        } else {
            Vec::new()
        },
    });
    front_end_accs(config, rules(), found)
}

/// The start of a prompt as written (`$rules Write the plan…`): its first
/// line, with `…` when there is more; `None` for an empty prompt.
pub(crate) fn prompt_start(prompt: &prose_jobs::model::Prompt, max: usize) -> Option<String> {
    let first = prompt.items.first()?;
    let mut out = first_line(first.text.as_str(), max);
    if prompt.items.len() > 1 && !out.ends_with('…') {
        out.push('…');
    }
    Some(out)
}

/// The first line of `text`, cut to `max` characters (with `…` when cut):
/// details in outlines, completion lists and lens titles.
pub(crate) fn first_line(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or("");
    if line.chars().count() <= max && !text.contains('\n') {
        return line.to_string();
    }
    let cut: String = line.chars().take(max).collect();
    format!("{}…", cut.trim_end())
}
