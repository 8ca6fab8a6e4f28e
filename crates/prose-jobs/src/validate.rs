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
    path::At,
    rules::{
        Scope, invalid_json, invalid_variable_name, missing_boolean_tool,
        runtime_variable_redefined, unknown_job_keyword, unknown_model, unknown_task, unknown_tool,
        unused_prompt_variable, user_input_mismatch,
    },
    variables::{is_runtime_variable, is_variable_name},
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
    let scope = Scope::new(entry);
    let tasks = At::ENTRY.field("tasks");
    for task in &entry.tasks {
        check_task(
            entry,
            &scope,
            task,
            &tasks.key(task.name.as_str()),
            &mut analyzer,
            &mut out,
        );
    }
    let vars = At::ENTRY.field("promptVariables");
    // Unused: not expanded by any task (collected before expanding them,
    // which visits the variables they use).
    let unused: Vec<usize> = (0..entry.prompt_variables.len())
        .filter(|&i| !analyzer.visited(i))
        .collect();
    for i in unused {
        let var = &entry.prompt_variables[i];
        let path = vars.key(var.name.as_str());
        // A name no prompt can use is reported as such (J008, J009).
        let name = var.name.as_str();
        if is_variable_name(name) && !is_runtime_variable(name) {
            out.push(unused_prompt_variable::diagnostic(var, &path));
        }
        analyzer.variable(i, &path);
    }
    out.extend(analyzer.diagnostics);
    out
}

fn check_task(
    entry: &Entry,
    scope: &Scope<'_>,
    task: &Task,
    path: &At<'_>,
    analyzer: &mut Analyzer<'_>,
    out: &mut Vec<JobDiagnostic>,
) {
    out.extend(unknown_model::check(entry, scope, task, path));
    if let Some(prompt) = &task.prompt {
        let summary = analyzer.top(prompt, &path.field("prompt"));
        out.extend(user_input_mismatch::check(task, &summary, path));
    }
    out.extend(unknown_job_keyword::check(scope, task, path));
    out.extend(unknown_task::check(scope, task, path));
    let availability = path.field("availability");
    if let Some(condition) = task
        .availability
        .as_ref()
        .and_then(|a| a.condition.as_ref())
    {
        let path = availability.field("condition");
        let summary = analyzer.top(condition, &path);
        out.extend(missing_boolean_tool::check(condition, &summary, &path));
    }
    out.extend(unknown_tool::check(scope, task, path));
    let criteria_path = path.field("criteria");
    if let Some(criteria) = &task.criteria {
        if let Some(condition) = &criteria.condition {
            let path = criteria_path.field("condition");
            let summary = analyzer.top(condition, &path);
            out.extend(missing_boolean_tool::check(condition, &summary, &path));
        }
        if let Some(prompt) = criteria
            .failure_action
            .as_ref()
            .and_then(|f| f.prompt.as_ref())
        {
            analyzer.top(prompt, &criteria_path.field("failureAction").index(2));
        }
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;
    use proptest::prelude::*;

    use crate::{index::Index, parse, rules::tests::check_all, task_prompt, validate};

    const SCRUM: &str = include_str!("../../../docs/examples/scrum.jobs.json");
    const BROKEN: &str = include_str!("../../../docs/examples/broken.jobs.json");

    #[test]
    fn the_realistic_example_is_clean() {
        check_all(SCRUM, expect![""]);
        let parsed = parse(SCRUM);
        assert_eq!(parsed.entry.tasks.len(), 9);
        expect![[r#"
            REPO-ROOT is the directory you are working in: the root of this repository.
            Read REPO-ROOT/AGENTS.md before anything else and follow it throughout.
            Follow REPO-ROOT/.agents/prompts/story.prompt.md.
            # Start
            $user-input"#]]
        .assert_eq(&task_prompt(&parsed.entry, "story-task").unwrap().unwrap());
    }

    #[test]
    fn the_example_in_the_user_docs_is_clean() {
        let docs = include_str!("../../../docs/jobs.md");
        let start = docs.find("```json\n").unwrap() + "```json\n".len();
        let end = start + docs[start..].find("```").unwrap();
        check_all(&docs[start..end], expect![""]);
    }

    #[test]
    fn the_broken_example_reports_everything() {
        check_all(
            BROKEN,
            expect![[r#"
                J018 15:16-15:22 error: entry.tasks["intro-task"].prompt/$intro/$outro: Prompt variable $intro uses itself: $intro → $outro → $intro.
                J020 16:5-16:15 warning: entry.promptVariables["oldRules"]: $oldRules is never used: no task's prompt expands it.
                J009 17:5-17:17 error: entry.promptVariables["user-input"]: $user-input is a runtime variable: prompts keep it for the runner to fill in, so this definition is never used.
                J010 25:16-25:25 error: entry.tasks["plan-task"].model: "planing" is not a model key; did you mean "planning"?
                  fix (safe): Change to "planning": 25:16-25:25 "\"planning\""
                J015 26:19-26:24 error: entry.tasks["plan-task"].prompt: Cannot find prompt variable: $rule.
                  fix (safe): Change to $rules: 26:19-26:24 "$rules"
                J007 29:9-29:20 error: entry.tasks["plan-task"].criteria.runConditionInSameSession: Required with criteria.condition: true runs the condition in the task's session, false in a separate driving session.
                  fix: Add "runConditionInSameSession": true: 29:9-29:9 "\"runConditionInSameSession\": true, "
                J006 30:27-30:47 error: entry.tasks["plan-task"].criteria.failureAction[0]: Unknown failure action "RetryWithUserPromt"; did you mean "RetryWithUserPrompt"?
                  fix (safe): Change to "RetryWithUserPrompt": 30:27-30:47 "\"RetryWithUserPrompt\""
                J011 36:27-36:31 error: entry.tasks["execute-task"].requireUserInput: requireUserInput is true, but the expanded prompt does not use $user-input.
                  fix (offered): Change to false: 36:27-36:31 "false"
                J012 38:33-38:43 error: entry.tasks["execute-task"].availability.previousJobKeywords[0]: "planning" is not the keyword of any grid row.
                J013 39:27-39:33 error: entry.tasks["execute-task"].availability.previousTasks[0]: "plan" is not the name of a task.
                J017 40:22-40:51 error: entry.tasks["execute-task"].availability.condition: The expanded condition must mention job_boolean_true or job_boolean_false, the tools that answer it.
                J014 43:26-43:43 error: entry.tasks["execute-task"].criteria.toolExecuted[0]: "job_prepare_doc" is not an available tool; did you mean "job_prepare_document"?
                  fix (safe): Change to "job_prepare_document": 43:26-43:43 "\"job_prepare_document\""
                J006 44:50-44:52 error: entry.tasks["execute-task"].criteria.failureAction[1]: The retry count must be a whole number of 0 or more, found -1.
                J004 50:7-50:21 error: entry.tasks["intro-task"].avaliability: Unknown property "avaliability"; did you mean "availability"?
                  fix (safe): Change to "availability": 50:7-50:21 "\"availability\""
                J010 53:16-53:27 error: entry.tasks["empty-task"].model: "reviewers" is a list of models, not a model key; expected "driving", "planning" or "coding".
                J016 54:17-54:19 error: entry.tasks["empty-task"].prompt: Prompt is empty.
                J002 55:27-55:31 error: entry.tasks["empty-task"].requireUserInput: Expected a boolean, found a string.
                J001 56:6-56:6 error: Expected `,`
                J003 57:5-57:16 error: entry.tasks["last-task"].requireUserInput: Required, but missing.
            "#]],
        );
    }

    #[test]
    fn many_errors_in_one_file_are_all_reported() {
        // 200 tasks, each with the same three mistakes.
        let tasks: Vec<String> = (0..200)
            .map(|i| format!(r#""t{i}": {{"model": "planing", "prompt": ["$nope{i}"], "requireUserInput": 1}}"#))
            .collect();
        let text = crate::rules::tests::entry("", &tasks.join(",\n"));
        let diags = validate(&parse(&text));
        let count = |code: &str| diags.iter().filter(|d| d.code == code).count();
        assert_eq!(
            (count("J010"), count("J015"), count("J002")),
            (200, 200, 200)
        );
        assert_eq!(diags.len(), 600);
        // Sorted by position.
        assert!(
            diags
                .windows(2)
                .all(|w| w[0].range.start() <= w[1].range.start())
        );
    }

    /// Every diagnostic's range lies in the text, on character boundaries.
    fn ranges_are_sound(text: &str) {
        let parsed = parse(text);
        for d in validate(&parsed) {
            let r = d.range;
            assert!(
                text.get(usize::from(r.start())..usize::from(r.end()))
                    .is_some(),
                "{d:?} in {text:?}"
            );
            for e in d.fix.iter().flat_map(|f| &f.edits) {
                assert!(
                    text.get(usize::from(e.range.start())..usize::from(e.range.end()))
                        .is_some()
                );
            }
        }
        let index = Index::build(&parsed.entry);
        for r in index
            .references
            .iter()
            .map(|r| r.name_range)
            .chain(index.definitions.iter().map(|d| d.name_range))
        {
            assert!(
                text.get(usize::from(r.start())..usize::from(r.end()))
                    .is_some()
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The realistic example with a few bytes cut or inserted: never a
        /// panic, every range sound.
        #[test]
        fn edits_of_the_example_never_break_anything(
            edits in prop::collection::vec((0usize..SCRUM.len(), 0usize..6, "[\\[\\]{}:,\"$a-z \\\\é]{0,3}"), 1..6)
        ) {
            let mut text = SCRUM.to_string();
            for (at, cut, insert) in edits {
                let mut at = at.min(text.len());
                while !text.is_char_boundary(at) { at -= 1; }
                let mut end = (at + cut).min(text.len());
                while !text.is_char_boundary(end) { end += 1; }
                text.replace_range(at..end, &insert);
            }
            ranges_are_sound(&text);
        }

        #[test]
        fn any_text_never_breaks_anything(text in "\\PC{0,64}") {
            ranges_are_sound(&text);
        }
    }
}
