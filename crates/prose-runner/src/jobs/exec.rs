//! Running a task (seed 002, "Running Tasks"): its user input, its
//! availability, the task session's attempts, its criteria and the
//! failure action's retries, then the end of the run.
//!
//! 1. **Availability**, when the task has one: `previousJobKeywords` and
//!    `previousTasks` are checked against the previous job and task the
//!    run was given (none given: the check does not hold); then the
//!    `condition` is asked of the driving session, and holds when that
//!    round calls `job_boolean_true` (the last boolean tool called in the
//!    round decides). A round that calls neither boolean tool is asked
//!    once more, with a note. The first check that does not hold ends the
//!    task, `prerequisite_failed` (what the seed's runner does by calling
//!    `job_prerequisite_failed` in the driving session).
//! 2. **The task session** is sent the task's prompt. A round in which any
//!    session calls `job_prerequisite_failed` ends the task at once,
//!    `prerequisite_failed`, without retries.
//! 3. **Criteria**, after each attempt: `toolExecuted` (every tool listed
//!    was called in the task session's last round), then the `condition`
//!    (asked as in 1; not asked when `toolExecuted` already failed). No
//!    criteria: the task succeeded.
//! 4. **Failure action**, when a criterion is unmet and retries are left:
//!    `RetryWithNewSession` starts a new task session with the task's
//!    prompt; `RetryWithUserPrompt` sends its prompt to the same task
//!    session. When `toolExecuted` was unmet, a note naming the missing
//!    tools is appended. A criterion unmet without a `job_boolean_false`
//!    call (`toolExecuted`, a condition no boolean tool answered) sets
//!    `$reported-false-reason` to why, as that call would. No retries
//!    left: `criteria_unmet`.
//!
//! Any failed session (a backend error, a timeout) ends the task at once,
//! `session_failed`. The model option decides which session a condition
//! is asked of: the task session itself (single), or a new one-off
//! session with `models.driving` for each condition (double).

use std::{
    sync::{Arc, Mutex},
    time::Instant,
};

use prose_jobs::model::FailureKind;

use super::{
    JobEvent, TaskOutcome,
    plan::{Mode, PromptStep, TaskPlan},
    session::{Conversation, Stop, TaskRun},
    tools::{self, Verdict},
};
use crate::{
    backend::JobRole,
    events::{EventKind, RunStatus, excerpt, output_excerpts},
    input::{InputProvider, InputRequest},
    run::RunOutcome,
    state::{JournalEntry, RunMeta},
    value::Value,
};

/// What the run was started with, besides the plan.
pub(crate) struct Context {
    pub entry: String,
    pub previous_job: Option<String>,
    pub previous_task: Option<String>,
    pub resumed: bool,
    pub meta: RunMeta,
    pub input_provider: Option<Arc<dyn InputProvider>>,
    pub cancel_reason: Arc<Mutex<Option<String>>>,
}

/// Runs the task to its end and finishes the run (events, `run.json`,
/// `state.md`).
pub(crate) async fn execute(mut run: TaskRun, plan: TaskPlan, mut cx: Context) -> RunOutcome {
    let started = Instant::now();
    run.emit(
        None,
        EventKind::RunStarted {
            program: cx.entry.clone(),
            run_dir: run.store.dir.display().to_string(),
            backend: run.backend.name().to_string(),
            resumed: cx.resumed,
            dry_run: false,
            inputs: cx
                .meta
                .inputs
                .iter()
                .map(|(k, v)| (k.clone(), excerpt(v)))
                .collect(),
        },
    );
    run.emit_job(
        None,
        JobEvent::TaskStarted {
            entry: cx.entry.clone(),
            task: plan.task.clone(),
            mode: plan.mode.as_str(),
            task_model: plan.task_model.id.clone().unwrap_or_default(),
            driving_model: plan.driving_model.id.clone().unwrap_or_default(),
        },
    );
    run.state.write(&run.store, &run.vars);

    let end = match steps(&mut run, &plan, &cx).await {
        Ok(reason) => Stop::End(TaskOutcome::Succeeded, reason),
        Err(stop) => stop,
    };
    let (status, error) = match &end {
        Stop::Cancelled => {
            let why = crate::run::cancel_reason(&cx.cancel_reason);
            run.emit(
                None,
                EventKind::Cancelled {
                    reason: why.clone(),
                },
            );
            (RunStatus::Cancelled, Some(why))
        }
        Stop::End(outcome, reason) => {
            run.emit_job(
                None,
                JobEvent::TaskFinished {
                    task: plan.task.clone(),
                    outcome: *outcome,
                    reason: reason.clone(),
                    variables: run
                        .vars
                        .iter()
                        .map(|(k, v)| (k.to_string(), excerpt(v)))
                        .collect(),
                },
            );
            if *outcome == TaskOutcome::Succeeded {
                (RunStatus::Succeeded, None)
            } else {
                (RunStatus::Failed, Some(reason.clone()))
            }
        }
    };
    // The task's results: the variables its sessions set.
    let outputs: Vec<(String, Value)> = run
        .vars
        .iter()
        .filter(|(k, _)| *k != tools::USER_INPUT)
        .map(|(k, v)| (k.to_string(), Value::text(v)))
        .collect();
    run.state.status = status.as_str().to_string();
    run.state.write(&run.store, &run.vars);
    cx.meta.finish(status.as_str(), error.clone());
    let _ = run.store.write_meta(&cx.meta);
    run.emit(
        None,
        EventKind::RunFinished {
            status,
            duration_ms: started.elapsed().as_millis() as u64,
            outputs: output_excerpts(&outputs),
            error: error.clone(),
        },
    );
    RunOutcome {
        run_id: run.store.run_id.clone(),
        run_dir: run.store.dir.clone(),
        status,
        outputs,
        error,
    }
}

/// The task's steps; `Ok` with the reason it succeeded.
async fn steps(run: &mut TaskRun, plan: &TaskPlan, cx: &Context) -> Result<String, Stop> {
    if plan.user_input && run.vars.get(tools::USER_INPUT).is_none() {
        user_input(run, plan, cx).await?;
    }
    let run_id = run.store.run_id.clone();
    let key = |n: u32| Some(format!("job:{run_id}:{}#{n}", plan.task));
    let mut task_session = Conversation::new(key(1), plan.task_model.id.clone());

    if let Some(a) = &plan.availability {
        if let Some(list) = &a.previous_job_keywords {
            check_list(
                run,
                "previousJobKeywords",
                "previous job's keyword",
                cx.previous_job.as_deref(),
                list,
                "--previous-job KEYWORD",
            )?;
        }
        if let Some(list) = &a.previous_tasks {
            check_list(
                run,
                "previousTasks",
                "previous task",
                cx.previous_task.as_deref(),
                list,
                "--previous-task NAME",
            )?;
        }
        if let Some(c) = &a.condition {
            let (holds, reason, _) = condition(run, plan, &mut task_session, c).await?;
            run.emit_job(
                None,
                JobEvent::AvailabilityChecked {
                    check: "condition",
                    result: holds,
                    reason: reason.clone(),
                },
            );
            if !holds {
                return Err(Stop::End(
                    TaskOutcome::PrerequisiteFailed,
                    format!("availability: the condition does not hold: {reason}"),
                ));
            }
        }
    }

    let max = plan.max_attempts();
    let mut attempt = 1;
    let mut step = &plan.prompt;
    let mut note: Option<String> = None;
    loop {
        let round = run
            .round(&mut task_session, JobRole::Task, step, note.as_deref())
            .await?;
        if let Some(why) = Verdict::of(&round.calls).prerequisite_failed {
            return Err(Stop::End(
                TaskOutcome::PrerequisiteFailed,
                format!("the task session called job_prerequisite_failed: {why}"),
            ));
        }
        let Some(criteria) = &plan.criteria else {
            return Ok("the task has no criteria: its session answered".into());
        };
        let mut unmet: Option<String> = None;
        let mut missing: Vec<&str> = Vec::new();
        if let Some(list) = &criteria.tool_executed {
            missing = list
                .iter()
                .map(String::as_str)
                .filter(|t| !round.calls.iter().any(|c| c.name == *t))
                .collect();
            let reason = if missing.is_empty() {
                format!("the task session's last round called {}", list.join(", "))
            } else {
                format!(
                    "the task session's last round did not call {}",
                    missing.join(", ")
                )
            };
            run.emit_job(
                None,
                JobEvent::CriteriaChecked {
                    check: "toolExecuted",
                    result: missing.is_empty(),
                    reason: reason.clone(),
                    attempt,
                },
            );
            if !missing.is_empty() {
                run.vars.report_false(&reason);
                unmet = Some(format!("toolExecuted: {reason}"));
            }
        }
        if unmet.is_none()
            && let Some(c) = &criteria.condition
        {
            let (holds, reason, answered) = condition(run, plan, &mut task_session, c).await?;
            if !answered {
                run.vars.report_false(&reason);
            }
            run.emit_job(
                None,
                JobEvent::CriteriaChecked {
                    check: "condition",
                    result: holds,
                    reason: reason.clone(),
                    attempt,
                },
            );
            if !holds {
                unmet = Some(format!("the condition does not hold: {reason}"));
            }
        }
        let Some(why) = unmet else {
            return Ok(format!("the criteria were met in attempt {attempt}"));
        };
        if attempt >= max {
            return Err(Stop::End(
                TaskOutcome::CriteriaUnmet,
                format!(
                    "criteria: {why} (after {attempt} attempt{})",
                    if attempt == 1 { "" } else { "s" }
                ),
            ));
        }
        attempt += 1;
        let f = &criteria.failure;
        run.emit_job(
            None,
            JobEvent::Retry {
                action: f.kind.as_str(),
                attempt,
                max_attempts: max,
                reason: why,
            },
        );
        match f.kind {
            FailureKind::RetryWithNewSession => {
                task_session = Conversation::new(key(attempt), plan.task_model.id.clone());
                step = &plan.prompt;
            }
            FailureKind::RetryWithUserPrompt => step = f.prompt.as_ref().unwrap_or(&plan.prompt),
        }
        note = (!missing.is_empty()).then(|| {
            format!(
                "\n\n(The previous attempt did not call {}; call {} before you finish.)",
                missing.join(", "),
                if missing.len() == 1 { "it" } else { "them" }
            )
        });
    }
}

/// `$user-input`, asked of the user (or found in the journal on resume).
async fn user_input(run: &mut TaskRun, plan: &TaskPlan, cx: &Context) -> Result<(), Stop> {
    let name = tools::USER_INPUT;
    if let Some(e) = run.store.journal.get_input(name) {
        run.vars = tools::Variables::with_user_input(Some(&e.output));
        return Ok(());
    }
    let Some(provider) = &cx.input_provider else {
        return Err(Stop::End(
            TaskOutcome::Error,
            format!(
                "task `{}` needs $user-input: give it with --input user-input=TEXT",
                plan.task
            ),
        ));
    };
    let description = format!("the input of task `{}` ($user-input)", plan.task);
    run.emit(
        None,
        EventKind::InputRequested {
            name: name.into(),
            description: description.clone(),
        },
    );
    let request = InputRequest {
        run_id: run.store.run_id.clone(),
        name: name.into(),
        description,
    };
    let answer = tokio::select! {
        a = provider.ask(request) => a,
        () = run.cancel.cancelled() => return Err(Stop::Cancelled),
    };
    let Some(answer) = answer else {
        crate::run::cancel_with(
            &run.cancel,
            &cx.cancel_reason,
            &format!("input `{name}` was not given"),
        );
        return Err(Stop::Cancelled);
    };
    let entry = JournalEntry::input(format!("input:{name}"), name, None, String::new(), &answer);
    if let Err(e) = run.store.journal.put(entry) {
        run.warn(format!("cannot record input `{name}`: {e}"));
    }
    run.emit(
        None,
        EventKind::InputReceived {
            name: name.into(),
            excerpt: excerpt(&answer),
        },
    );
    run.vars = tools::Variables::with_user_input(Some(&answer));
    Ok(())
}

/// A list check of `availability`.
fn check_list(
    run: &TaskRun,
    check: &'static str,
    what: &str,
    given: Option<&str>,
    list: &[String],
    flag: &str,
) -> Result<(), Stop> {
    let one_of = if list.is_empty() {
        "the list is empty".to_string()
    } else {
        format!("it must be one of {}", list.join(", "))
    };
    let (holds, reason) = match given {
        Some(v) if list.iter().any(|k| k == v) => (true, format!("the {what} is `{v}`")),
        Some(v) => (false, format!("the {what} is `{v}`; {one_of}")),
        None => (false, format!("no {what} was given ({flag}); {one_of}")),
    };
    run.emit_job(
        None,
        JobEvent::AvailabilityChecked {
            check,
            result: holds,
            reason: reason.clone(),
        },
    );
    if holds {
        Ok(())
    } else {
        Err(Stop::End(
            TaskOutcome::PrerequisiteFailed,
            format!("availability: {check}: {reason}"),
        ))
    }
}

/// Asks a condition (see the module docs): whether it holds, why, and
/// whether a boolean tool answered it. A round that calls
/// `job_prerequisite_failed` ends the task.
async fn condition(
    run: &mut TaskRun,
    plan: &TaskPlan,
    task_session: &mut Conversation,
    step: &PromptStep,
) -> Result<(bool, String, bool), Stop> {
    let mut driving = Conversation::new(None, plan.driving_model.id.clone());
    let session = match plan.mode {
        Mode::Single => task_session,
        Mode::Double => &mut driving,
    };
    let who = match plan.mode {
        Mode::Single => "the session",
        Mode::Double => "the driving session",
    };
    let round = run.round(session, JobRole::Driving, step, None).await?;
    let mut verdict = Verdict::of(&round.calls);
    if verdict.boolean.is_none() && verdict.prerequisite_failed.is_none() {
        run.warn(format!(
            "{who} called neither job_boolean_true nor job_boolean_false; the condition is asked once more"
        ));
        let note = format!(
            "\n\n(Your previous answer called neither job_boolean_true nor job_boolean_false: {:?}. Answer by calling exactly one of them, with your reason as its argument.)",
            excerpt(round_answer(session))
        );
        let round = run
            .round(session, JobRole::Driving, step, Some(&note))
            .await?;
        verdict = Verdict::of(&round.calls);
    }
    if let Some(why) = verdict.prerequisite_failed {
        return Err(Stop::End(
            TaskOutcome::PrerequisiteFailed,
            format!("{who} called job_prerequisite_failed: {why}"),
        ));
    }
    Ok(match verdict.boolean {
        Some(true) => (
            true,
            format!("{who} called job_boolean_true: {}", verdict.reason),
            true,
        ),
        Some(false) => (
            false,
            format!("{who} called job_boolean_false: {}", verdict.reason),
            true,
        ),
        None => (
            false,
            format!("{who} called neither job_boolean_true nor job_boolean_false (asked twice)"),
            false,
        ),
    })
}

/// The answer of a conversation's last round.
fn round_answer(c: &Conversation) -> &str {
    c.rounds.last().map_or("", |(_, a)| a.as_str())
}
