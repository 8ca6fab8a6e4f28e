//! The dry run of a task (`prose jobs run ENTRY TASK --dry-run`): its
//! sessions and models, every prompt after static expansion, and the
//! availability and criteria steps, as text. Nothing runs.

use std::fmt::Write;

use prose_jobs::{find_variables, is_runtime_variable, model::FailureKind};

use super::{
    plan::{Mode, ModelPick, PromptStep, TaskPlan},
    tools,
};

/// Where each runtime variable gets its value, for the notes under a
/// prompt that uses it.
fn origin(name: &str) -> &'static str {
    match name {
        tools::USER_INPUT => "the user's input",
        tools::REPORTED_DOCUMENT => "set by job_prepare_document",
        tools::TRUE_REASON => "set by job_boolean_true",
        tools::FALSE_REASON => "set by job_boolean_false",
        _ => "a runtime variable",
    }
}

fn model(m: &ModelPick) -> String {
    match &m.id {
        Some(id) => format!("{id} ({})", m.from),
        None => m.from.clone(),
    }
}

/// A prompt, each line after `  | `, then the runtime variables it uses.
fn prompt(out: &mut String, indent: &str, step: &PromptStep) {
    for line in step.text.lines() {
        let _ = if line.is_empty() {
            writeln!(out, "{indent}|")
        } else {
            writeln!(out, "{indent}| {line}")
        };
    }
    let mut used: Vec<&str> = Vec::new();
    for (s, e) in find_variables(&step.text) {
        let name = &step.text[s + 1..e];
        if is_runtime_variable(name) && !used.contains(&name) {
            used.push(name);
        }
    }
    for name in used {
        let _ = writeln!(out, "{indent}(${name}: {})", origin(name));
    }
}

/// The dry run of one task.
pub fn render(plan: &TaskPlan, entry_path: &str) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "task `{}` of {entry_path}", plan.task);
    let _ = writeln!(
        w,
        "model option: {} ({})",
        plan.mode.as_str(),
        plan.mode_reason
    );
    let _ = writeln!(w, "  task session: {}", model(&plan.task_model));
    let driving = match plan.mode {
        Mode::Single => "the task session itself".to_string(),
        Mode::Double => format!(
            "{}, a new session for each condition",
            model(&plan.driving_model)
        ),
    };
    let _ = writeln!(w, "  driving session: {driving}");
    if plan.user_input {
        let _ = writeln!(
            w,
            "user input: $user-input, from --input user-input=TEXT (asked for on a terminal)"
        );
    }
    let _ = writeln!(
        w,
        "tools of every session: {}",
        prose_jobs::AVAILABLE_TOOLS.join(", ")
    );
    let asked_of = match plan.mode {
        Mode::Single => "the task session",
        Mode::Double => "a driving session",
    };
    let mut requests = 0;

    if let Some(a) = &plan.availability {
        let _ = writeln!(
            w,
            "availability, checked first (every check must hold, else the task fails without running):"
        );
        if let Some(list) = &a.previous_job_keywords {
            let _ = writeln!(
                w,
                "  - previousJobKeywords: the previous job's keyword (--previous-job) is one of: {}",
                or_none(list)
            );
        }
        if let Some(list) = &a.previous_tasks {
            let _ = writeln!(
                w,
                "  - previousTasks: the previous task (--previous-task) is one of: {}",
                or_none(list)
            );
        }
        if let Some(c) = &a.condition {
            requests += 1;
            let _ = writeln!(
                w,
                "  - line {}: condition, asked of {asked_of}; holds when it calls job_boolean_true:",
                c.line
            );
            prompt(w, "      ", c);
        }
    }

    requests += 1;
    let _ = writeln!(
        w,
        "line {}: the task's prompt, sent to the task session:",
        plan.prompt.line
    );
    prompt(w, "    ", &plan.prompt);
    let _ = writeln!(
        w,
        "  a call of job_prerequisite_failed in any round fails the task at once"
    );

    match &plan.criteria {
        None => {
            let _ = writeln!(
                w,
                "no criteria: the task succeeded when its session has answered"
            );
        }
        Some(c) => {
            let _ = writeln!(
                w,
                "criteria, checked after each attempt (every check must hold):"
            );
            if let Some(list) = &c.tool_executed {
                let _ = writeln!(
                    w,
                    "  - toolExecuted: the task session's last round called {}",
                    or_none(list)
                );
            }
            if let Some(cond) = &c.condition {
                requests += 1;
                let _ = writeln!(
                    w,
                    "  - line {}: condition, asked of {asked_of}; holds when it calls job_boolean_true:",
                    cond.line
                );
                prompt(w, "      ", cond);
            }
            let f = &c.failure;
            let attempts = plan.max_attempts();
            if f.retries == 0 {
                let _ = writeln!(
                    w,
                    "  when unmet: the task failed ({} with 0 retries)",
                    f.kind.as_str()
                );
            } else {
                match f.kind {
                    FailureKind::RetryWithNewSession => {
                        let _ = writeln!(
                            w,
                            "  when unmet: RetryWithNewSession, at most {} more attempt{} ({attempts} in all), each in a new task session sent the task's prompt",
                            f.retries,
                            plural(f.retries)
                        );
                    }
                    FailureKind::RetryWithUserPrompt => {
                        let line = f
                            .prompt
                            .as_ref()
                            .map_or(String::new(), |p| format!(" (line {})", p.line));
                        let _ = writeln!(
                            w,
                            "  when unmet: RetryWithUserPrompt, at most {} more attempt{} ({attempts} in all), each sending this to the same task session{line}:",
                            f.retries,
                            plural(f.retries)
                        );
                        if let Some(p) = &f.prompt {
                            prompt(w, "      ", p);
                        }
                    }
                }
            }
        }
    }
    let _ = writeln!(
        w,
        "{requests} request{} at least, {} at most; nothing was run.",
        plural(requests),
        max_requests(plan)
    );
    out
}

/// How many requests the task may make at most: every condition asked
/// twice (a round without a boolean tool is asked once more), every
/// attempt's prompt and condition.
fn max_requests(plan: &TaskPlan) -> u32 {
    let availability = plan
        .availability
        .as_ref()
        .map_or(0, |a| u32::from(a.condition.is_some()) * 2);
    let per_attempt = 1 + plan
        .criteria
        .as_ref()
        .map_or(0, |c| u32::from(c.condition.is_some()) * 2);
    availability + per_attempt * plan.max_attempts()
}

fn or_none(list: &[String]) -> String {
    if list.is_empty() {
        "(none: this check cannot hold)".to_string()
    } else {
        list.join(", ")
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::plan::PlanOptions;

    #[test]
    fn every_step_of_a_double_model_task() {
        let text = r#"{
  "models": {"driving": "small", "planning": "big", "coding": "c", "reviewers": []},
  "promptVariables": {"ask": ["Call job_boolean_true or job_boolean_false."]},
  "grid": [{"keyword": "plan", "automate": true, "jobs": []}],
  "tasks": {
    "write": {
      "model": "planning",
      "prompt": ["Write it.", "", "$user-input"],
      "requireUserInput": true,
      "availability": {"previousJobKeywords": ["plan"], "condition": ["$ask", "Ready?"]},
      "criteria": {
        "toolExecuted": ["job_prepare_document"],
        "runConditionInSameSession": false,
        "condition": ["$ask", "Is $reported-document there?"],
        "failureAction": ["RetryWithUserPrompt", 2, ["Go on: $reported-false-reason"]]
      }
    }
  }
}"#;
        let plan = TaskPlan::new(
            &prose_jobs::parse(text),
            text,
            "write",
            &PlanOptions::default(),
        )
        .unwrap();
        expect_test::expect![[r#"
            task `write` of w.jobs.json
            model option: double (criteria.runConditionInSameSession is false)
              task session: big (models.planning)
              driving session: small (models.driving), a new session for each condition
            user input: $user-input, from --input user-input=TEXT (asked for on a terminal)
            tools of every session: job_prepare_document, job_boolean_true, job_boolean_false, job_prerequisite_failed
            availability, checked first (every check must hold, else the task fails without running):
              - previousJobKeywords: the previous job's keyword (--previous-job) is one of: plan
              - line 10: condition, asked of a driving session; holds when it calls job_boolean_true:
                  | Call job_boolean_true or job_boolean_false.
                  | Ready?
            line 8: the task's prompt, sent to the task session:
                | Write it.
                |
                | $user-input
                ($user-input: the user's input)
              a call of job_prerequisite_failed in any round fails the task at once
            criteria, checked after each attempt (every check must hold):
              - toolExecuted: the task session's last round called job_prepare_document
              - line 14: condition, asked of a driving session; holds when it calls job_boolean_true:
                  | Call job_boolean_true or job_boolean_false.
                  | Is $reported-document there?
                  ($reported-document: set by job_prepare_document)
              when unmet: RetryWithUserPrompt, at most 2 more attempts (3 in all), each sending this to the same task session (line 15):
                  | Go on: $reported-false-reason
                  ($reported-false-reason: set by job_boolean_false)
            3 requests at least, 11 at most; nothing was run.
        "#]]
        .assert_eq(&render(&plan, "w.jobs.json"));
    }
}
