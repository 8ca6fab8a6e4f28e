//! `validateEntry`: every check of the entry, every error reported.
//!
//! The order follows the seed: for each task in file order, its model, its
//! prompt (expanded) and `requireUserInput`, its availability (keywords,
//! previous tasks, the condition, expanded with the boolean-tool check),
//! and its criteria (tools, the condition, the retry prompt). Then the
//! prompt variables no task uses are checked on their own. The result is
//! sorted by position.

use crate::{
    ParsedEntry,
    diagnostic::JobDiagnostic,
    expand::Analyzer,
    model::{Entry, Task},
    path::CodePath,
    rules::{
        invalid_json, invalid_variable_name, missing_boolean_tool, runtime_variable_redefined,
        unknown_job_keyword, unknown_model, unknown_task, unknown_tool, unused_prompt_variable,
        user_input_mismatch,
    },
};

/// Every diagnostic of the entry: syntax errors, shape errors and every
/// check, sorted by range.
pub fn validate(parsed: &ParsedEntry) -> Vec<JobDiagnostic> {
    let mut out: Vec<JobDiagnostic> = invalid_json::diagnostics(&parsed.json).collect();
    out.extend(parsed.shape.iter().cloned());
    out.extend(check_entry(&parsed.entry));
    out.sort_by(|a, b| {
        (a.range.start(), a.range.end(), a.code).cmp(&(b.range.start(), b.range.end(), b.code))
    });
    out
}

/// The semantic checks of `entry` (everything but syntax and shape).
pub(crate) fn check_entry(entry: &Entry) -> Vec<JobDiagnostic> {
    let mut out = invalid_variable_name::check(entry);
    out.extend(runtime_variable_redefined::check(entry));
    let mut analyzer = Analyzer::new(entry);
    let tasks = CodePath::entry().field("tasks");
    for task in &entry.tasks {
        check_task(
            entry,
            task,
            &tasks.key(task.name.as_str()),
            &mut analyzer,
            &mut out,
        );
    }
    let vars = CodePath::entry().field("promptVariables");
    // Unused: not expanded by any task (collected before expanding them,
    // which visits the variables they use).
    let unused: Vec<usize> = (0..entry.prompt_variables.len())
        .filter(|&i| !analyzer.visited(i))
        .collect();
    for i in unused {
        let var = &entry.prompt_variables[i];
        let path = vars.key(var.name.as_str());
        out.push(unused_prompt_variable::diagnostic(var, &path));
        analyzer.variable(i, &path);
    }
    out.extend(analyzer.diagnostics);
    out
}

fn check_task(
    entry: &Entry,
    task: &Task,
    path: &CodePath,
    analyzer: &mut Analyzer<'_>,
    out: &mut Vec<JobDiagnostic>,
) {
    out.extend(unknown_model::check(entry, task, path));
    if let Some(prompt) = &task.prompt {
        let summary = analyzer.top(prompt, &path.field("prompt"));
        out.extend(user_input_mismatch::check(task, &summary, path));
    }
    out.extend(unknown_job_keyword::check(entry, task, path));
    out.extend(unknown_task::check(entry, task, path));
    if let Some(condition) = task
        .availability
        .as_ref()
        .and_then(|a| a.condition.as_ref())
    {
        let path = path.field("availability").field("condition");
        let summary = analyzer.top(condition, &path);
        out.extend(missing_boolean_tool::check(condition, &summary, &path));
    }
    out.extend(unknown_tool::check(task, path));
    if let Some(criteria) = &task.criteria {
        if let Some(condition) = &criteria.condition {
            let path = path.field("criteria").field("condition");
            let summary = analyzer.top(condition, &path);
            out.extend(missing_boolean_tool::check(condition, &summary, &path));
        }
        if let Some(prompt) = criteria
            .failure_action
            .as_ref()
            .and_then(|f| f.prompt.as_ref())
        {
            analyzer.top(
                prompt,
                &path.field("criteria").field("failureAction").index(2),
            );
        }
    }
}
