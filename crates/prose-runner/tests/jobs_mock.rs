//! Job tasks on the mock backend, with scripted tool calls: every rule of
//! seed 002's "Running Tasks" (the model option, runtime variables and
//! dynamic expansion, the tools, availability, criteria, the failure
//! actions and their sessions, crashes), user input, resume, cancel.

mod common;
mod task_run;

use std::sync::Arc;

use expect_test::expect;
use prose_runner::{
    backend::{JobRole, SessionMode},
    events::{EventKind, RunStatus},
    input::InputRequest,
    jobs::{TaskOutcome, prepare_task},
    run::StartError,
};
use task_run::{options, run_options, run_task};

const ENTRY: &str = r#"{
  "models": {"driving": "small", "planning": "big", "coding": "coder", "reviewers": ["r1"]},
  "promptVariables": {
    "answer": ["Call job_boolean_true or job_boolean_false."],
    "carryOn": ["Carry on: $reported-false-reason"]
  },
  "grid": [
    {"keyword": "story", "automate": false, "jobs": [{"name": "s", "id": "s"}]},
    {"keyword": "plan", "automate": true, "jobs": [{"name": "p", "id": "p"}]}
  ],
  "tasks": {
    "simple": {"model": "coding", "prompt": ["Write hello.txt."], "requireUserInput": false},
    "ask": {"prompt": ["Answer:", "$user-input"], "requireUserInput": true},
    "gated": {
      "model": "planning",
      "prompt": ["Plan it."],
      "requireUserInput": false,
      "availability": {
        "previousJobKeywords": ["story"],
        "previousTasks": ["simple"],
        "condition": ["$answer", "Is the story ready?"]
      }
    },
    "double": {
      "model": "planning",
      "prompt": ["Write the plan."],
      "requireUserInput": false,
      "criteria": {
        "runConditionInSameSession": false,
        "condition": ["$answer", "Is the plan written?"],
        "failureAction": ["RetryWithUserPrompt", 2, ["$carryOn"]]
      }
    },
    "single": {
      "model": "planning",
      "prompt": ["Write the plan."],
      "requireUserInput": false,
      "availability": {"condition": ["$answer", "Can you start?"]},
      "criteria": {
        "runConditionInSameSession": true,
        "condition": ["$answer", "Is the plan written?"],
        "failureAction": ["RetryWithNewSession", 2]
      }
    },
    "review": {
      "model": "coding",
      "prompt": ["Review and report the document."],
      "requireUserInput": false,
      "criteria": {
        "toolExecuted": ["job_prepare_document"],
        "runConditionInSameSession": false,
        "condition": ["$answer", "Does $reported-document exist?"],
        "failureAction": ["RetryWithNewSession", 1]
      }
    },
    "early": {"prompt": ["Review $reported-document."], "requireUserInput": false}
  }
}"#;

#[tokio::test]
async fn a_task_without_checks_is_one_round_offered_every_tool() {
    let ran = run_task(ENTRY, "simple", "", |_| {}).await;
    assert_eq!(ran.status(), RunStatus::Succeeded);
    expect![[r#"
        [
            "started single task=coder driving=coder",
            "s1@12 task: Write hello.txt.",
            "finished succeeded: the task has no criteria: its session answered",
        ]
    "#]]
    .assert_debug_eq(&ran.story());
    let call = &ran.calls[0];
    let tools: Vec<&str> = call.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, prose_jobs::AVAILABLE_TOOLS);
    assert_eq!(call.job.as_ref().unwrap().task, "simple");
    assert_eq!(call.parts.task, "Write hello.txt.");
    let channel = call.tool_channel.as_ref().unwrap();
    assert!(channel.calls_file.starts_with(&ran.outcome.run_dir));
    assert_eq!(channel.server, None, "no MCP server was given");
    assert_eq!(ran.sessions(), ["task new job:simple#1 model=coder"]);
    // The run's directory: the entry's copy, the journal, the state.
    for f in [
        "entry.jobs.json",
        "run.json",
        "state.md",
        "events.jsonl",
        "journal/s1.json",
    ] {
        assert!(ran.outcome.run_dir.join(f).is_file(), "{f}");
    }
    let meta = std::fs::read_to_string(ran.outcome.run_dir.join("run.json")).unwrap();
    assert!(meta.contains("\"name\": \"simple\""), "{meta}");
}

#[tokio::test]
async fn the_tools_set_the_runtime_variables_which_are_the_outputs() {
    let script = r#"
[[rule]]
task = "simple"
answer = "Done."
tools = [[
  { name = "job_prepare_document", argument = "  docs/hello.md  \nmore text" },
  { name = "job_boolean_true", argument = "it exists" },
  { name = "job_boolean_false", argument = "on second thought, no" },
]]
"#;
    let ran = run_task(ENTRY, "simple", script, |_| {}).await;
    assert_eq!(
        ran.output("reported-document").as_deref(),
        Some("docs/hello.md")
    );
    assert_eq!(
        ran.output("reported-false-reason").as_deref(),
        Some("on second thought, no")
    );
    assert_eq!(
        ran.output("reported-true-reason"),
        None,
        "deleted by job_boolean_false"
    );
    expect![[r#"
        [
            "started single task=coder driving=coder",
            "s1@12 task: Write hello.txt.",
            "s1@12 task called job_prepare_document(  docs/hello.md  \nmore text)",
            "s1@12 task called job_boolean_true(it exists)",
            "s1@12 task called job_boolean_false(on second thought, no)",
            "finished succeeded: the task has no criteria: its session answered",
        ]
    "#]]
    .assert_debug_eq(&ran.story());
}

#[tokio::test]
async fn user_input_is_given_asked_or_refused() {
    let ran = run_task(ENTRY, "ask", "", |o| {
        o.user_input = Some("What is 2+2?".into())
    })
    .await;
    assert_eq!(ran.calls[0].parts.task, "Answer:\nWhat is 2+2?");
    assert_eq!(ran.status(), RunStatus::Succeeded);

    let root = tempfile::tempdir().unwrap();
    let backend = Arc::new(common::mock(""));
    let missing = prepare_task(options(ENTRY, "ask", root.path(), backend.clone()));
    let Err(StartError::Usage(m)) = missing else {
        panic!("started without its input")
    };
    assert_eq!(
        m,
        "task `ask` takes the user's input ($user-input): give it with --input user-input=TEXT"
    );
    let mut o = options(ENTRY, "simple", root.path(), backend.clone());
    o.user_input = Some("x".into());
    let Err(StartError::Usage(m)) = prepare_task(o) else {
        panic!("took an input it does not use")
    };
    assert_eq!(
        m,
        "task `simple` takes no user input (its requireUserInput is false)"
    );

    // Interactive: asked for, once; the answer is in the prompt.
    let mut o = options(ENTRY, "ask", root.path(), backend.clone());
    o.interactive = true;
    let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = asked.clone();
    let provider = Arc::new(move |r: InputRequest| {
        log.lock().unwrap().push(r.name);
        Some("typed".to_string())
    });
    let (outcome, events) = run_options(o, Some(provider)).await.unwrap();
    assert_eq!(outcome.status, RunStatus::Succeeded);
    assert_eq!(*asked.lock().unwrap(), ["user-input"]);
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::InputReceived { name, excerpt } if name == "user-input" && excerpt == "typed")));
    assert!(
        backend
            .calls()
            .last()
            .unwrap()
            .parts
            .task
            .ends_with("typed"),
        "{:?}",
        backend.calls()
    );
}

#[tokio::test]
async fn availability_checks_the_previous_job_and_task_then_asks_the_condition() {
    let yes = r#"
[[rule]]
role = "driving"
answer = "Ready."
tools = [[{ name = "job_boolean_true", argument = "story.md is there" }]]
"#;
    let ran = run_task(ENTRY, "gated", yes, |o| {
        o.previous_job = Some("story".into());
        o.previous_task = Some("simple".into());
    })
    .await;
    assert_eq!(ran.status(), RunStatus::Succeeded);
    expect![[r#"
        [
            "started single task=big driving=big",
            "availability previousJobKeywords true: the previous job's keyword is `story`",
            "availability previousTasks true: the previous task is `simple`",
            "s1@21 driving: Call job_boolean_true or job_boolean_false.",
            "s1@21 driving called job_boolean_true(story.md is there)",
            "availability condition true: the session called job_boolean_true: story.md is there",
            "s2@16 task: Plan it.",
            "finished succeeded: the task has no criteria: its session answered",
        ]
    "#]]
    .assert_debug_eq(&ran.story());
    // Single model: the condition and the task are one conversation.
    assert_eq!(
        ran.sessions(),
        [
            "driving new job:gated#1 model=big",
            "task resume job:gated#1 model=big"
        ]
    );

    // No previous job given: the check does not hold, nothing is asked.
    let ran = run_task(ENTRY, "gated", yes, |_| {}).await;
    assert_eq!(ran.status(), RunStatus::Failed);
    assert_eq!(ran.outcome_of_task(), Some(TaskOutcome::PrerequisiteFailed));
    assert!(ran.calls.is_empty());
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some(
            "availability: previousJobKeywords: no previous job's keyword was given (--previous-job KEYWORD); it must be one of story"
        )
    );
    // The wrong previous task.
    let ran = run_task(ENTRY, "gated", yes, |o| {
        o.previous_job = Some("story".into());
        o.previous_task = Some("gated".into());
    })
    .await;
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some("availability: previousTasks: the previous task is `gated`; it must be one of simple")
    );
    assert!(ran.calls.is_empty());
}

#[tokio::test]
async fn a_condition_without_a_boolean_tool_is_asked_once_more_then_fails() {
    let script = r#"
[[rule]]
role = "driving"
answers = ["I think so.", "Still thinking."]
"#;
    let ran = run_task(ENTRY, "gated", script, |o| {
        o.previous_job = Some("story".into());
        o.previous_task = Some("simple".into());
    })
    .await;
    assert_eq!(ran.outcome_of_task(), Some(TaskOutcome::PrerequisiteFailed));
    assert_eq!(ran.calls.len(), 2, "no task round");
    assert!(
        ran.calls[1].parts.task.ends_with("(Your previous answer called neither job_boolean_true nor job_boolean_false: \"I think so.\". Answer by calling exactly one of them, with your reason as its argument.)"),
        "{}",
        ran.calls[1].parts.task
    );
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some(
            "availability: the condition does not hold: the session called neither job_boolean_true nor job_boolean_false (asked twice)"
        )
    );

    // The second answer decides.
    let script = r#"
[[rule]]
role = "driving"
answers = ["Hmm.", "Yes."]
tools = [[], [{ name = "job_boolean_false", argument = "no story" }]]
"#;
    let ran = run_task(ENTRY, "gated", script, |o| {
        o.previous_job = Some("story".into());
        o.previous_task = Some("simple".into());
    })
    .await;
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some(
            "availability: the condition does not hold: the session called job_boolean_false: no story"
        )
    );
}

#[tokio::test]
async fn double_model_retry_with_user_prompt_reuses_the_task_session_with_fresh_variables() {
    let script = r#"
[[rule]]
role = "driving"
answers = ["no", "no", "yes"]
tools = [
  [{ name = "job_boolean_false", argument = "no plan.md" }],
  [{ name = "job_boolean_false", argument = "plan.md is empty" }],
  [{ name = "job_boolean_true", argument = "plan.md has steps" }],
]
"#;
    let ran = run_task(ENTRY, "double", script, |_| {}).await;
    assert_eq!(ran.status(), RunStatus::Succeeded);
    expect![[r#"
        [
            "started double task=big driving=small",
            "s1@26 task: Write the plan.",
            "s2@30 driving: Call job_boolean_true or job_boolean_false.",
            "s2@30 driving called job_boolean_false(no plan.md)",
            "criteria condition (attempt 1) false: the driving session called job_boolean_false: no plan.md",
            "retry RetryWithUserPrompt 2/3",
            "s3@31 task: Carry on: no plan.md",
            "s4@30 driving: Call job_boolean_true or job_boolean_false.",
            "s4@30 driving called job_boolean_false(plan.md is empty)",
            "criteria condition (attempt 2) false: the driving session called job_boolean_false: plan.md is empty",
            "retry RetryWithUserPrompt 3/3",
            "s5@31 task: Carry on: plan.md is empty",
            "s6@30 driving: Call job_boolean_true or job_boolean_false.",
            "s6@30 driving called job_boolean_true(plan.md has steps)",
            "criteria condition (attempt 3) true: the driving session called job_boolean_true: plan.md has steps",
            "finished succeeded: the criteria were met in attempt 3",
        ]
    "#]]
    .assert_debug_eq(&ran.story());
    // The task session goes on (resumed each time); every condition is a
    // new one-off driving session with models.driving.
    expect![[r#"
        [
            "task new job:double#1 model=big",
            "driving new one-off model=small",
            "task resume job:double#1 model=big",
            "driving new one-off model=small",
            "task resume job:double#1 model=big",
            "driving new one-off model=small",
        ]
    "#]]
    .assert_debug_eq(&ran.sessions());
    // The mock keeps no conversation: the earlier rounds are in the prompt.
    let third = &ran.calls[4];
    assert_eq!(third.parts.context.len(), 1);
    assert_eq!(third.parts.context[0].name, "conversation so far");
    assert!(third.prompt.contains("## Context: conversation so far\n\n### Prompt 1\n\nWrite the plan.\n\n### Answer 1\n\nWrite the plan.\n\n### Prompt 2\n\nCarry on: no plan.md"), "{}", third.prompt);
}

#[tokio::test]
async fn single_model_retry_with_new_session_never_reuses_a_task_session() {
    let script = r#"
[[rule]]
role = "driving"
prompt = "Can you start?"
answer = "Yes."
tools = [[{ name = "job_boolean_true", argument = "go" }]]

[[rule]]
role = "driving"
answer = "No."
tools = [[{ name = "job_boolean_false", argument = "not written" }]]
"#;
    let ran = run_task(ENTRY, "single", script, |_| {}).await;
    assert_eq!(ran.status(), RunStatus::Failed);
    assert_eq!(ran.outcome_of_task(), Some(TaskOutcome::CriteriaUnmet));
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some(
            "criteria: the condition does not hold: the session called job_boolean_false: not written (after 3 attempts)"
        )
    );
    // Attempt 1 shares the session with the availability check; each
    // retry is a new session (#2, #3) that starts new and is then resumed
    // for its own condition.
    expect![[r#"
        [
            "driving new job:single#1 model=big",
            "task resume job:single#1 model=big",
            "driving resume job:single#1 model=big",
            "task new job:single#2 model=big",
            "driving resume job:single#2 model=big",
            "task new job:single#3 model=big",
            "driving resume job:single#3 model=big",
        ]
    "#]]
    .assert_debug_eq(&ran.sessions());
    // A new session gets the task's prompt, and no earlier conversation.
    assert_eq!(ran.calls[3].parts.task, "Write the plan.");
    assert!(ran.calls[3].parts.context.is_empty());
}

#[tokio::test]
async fn tool_executed_is_checked_in_the_last_task_round_before_the_condition() {
    let script = r#"
[[rule]]
role = "task"
answers = ["Reviewed.", "Reviewed and reported."]
tools = [[], [{ name = "job_prepare_document", argument = "reviews/r1.md" }]]

[[rule]]
role = "driving"
answer = "It exists."
tools = [[{ name = "job_boolean_true", argument = "found it" }]]
"#;
    let ran = run_task(ENTRY, "review", script, |_| {}).await;
    assert_eq!(ran.status(), RunStatus::Succeeded);
    expect![[r#"
        [
            "started double task=coder driving=small",
            "s1@47 task: Review and report the document.",
            "criteria toolExecuted (attempt 1) false: the task session's last round did not call job_prepare_document",
            "retry RetryWithNewSession 2/2",
            "s2@47 task: Review and report the document.",
            "s2@47 task called job_prepare_document(reviews/r1.md)",
            "criteria toolExecuted (attempt 2) true: the task session's last round called job_prepare_document",
            "s3@52 driving: Call job_boolean_true or job_boolean_false.",
            "s3@52 driving called job_boolean_true(found it)",
            "criteria condition (attempt 2) true: the driving session called job_boolean_true: found it",
            "finished succeeded: the criteria were met in attempt 2",
        ]
    "#]]
    .assert_debug_eq(&ran.story());
    // The retry names the missing tool; the condition sees the document.
    assert!(ran.calls[1].parts.task.ends_with(
        "\n\n(The previous attempt did not call job_prepare_document; call it before you finish.)"
    ));
    assert_eq!(
        ran.calls[2].parts.task,
        "Call job_boolean_true or job_boolean_false.\nDoes reviews/r1.md exist?"
    );
}

#[tokio::test]
async fn job_prerequisite_failed_ends_the_task_at_once() {
    let script = r#"
[[rule]]
role = "task"
answer = "Cannot."
tools = [[{ name = "job_prerequisite_failed", argument = "no repository" }]]
"#;
    let ran = run_task(ENTRY, "double", script, |_| {}).await;
    assert_eq!(ran.outcome_of_task(), Some(TaskOutcome::PrerequisiteFailed));
    assert_eq!(ran.calls.len(), 1, "no condition, no retry");
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some("the task session called job_prerequisite_failed: no repository")
    );
}

#[tokio::test]
async fn a_crashed_session_fails_the_task_at_once_even_with_retries_left() {
    let script = r#"
[[rule]]
role = "driving"
fail = "HTTP 500 from the model"
"#;
    let ran = run_task(ENTRY, "double", script, |_| {}).await;
    assert_eq!(ran.outcome_of_task(), Some(TaskOutcome::SessionFailed));
    assert_eq!(ran.calls.len(), 2);
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some("session s2@30 failed: HTTP 500 from the model")
    );
}

#[tokio::test]
async fn an_unanswered_condition_reports_its_own_false_reason_to_the_retry() {
    // The driving session never calls a boolean tool: the condition does
    // not hold, and the retry prompt quotes the runner's reason.
    let script = r#"
[[rule]]
role = "driving"
answers = ["?"]
"#;
    let ran = run_task(ENTRY, "double", script, |_| {}).await;
    assert_eq!(ran.outcome_of_task(), Some(TaskOutcome::CriteriaUnmet));
    let retry = ran
        .calls
        .iter()
        .find(|c| c.parts.task.starts_with("Carry on"))
        .unwrap();
    assert_eq!(
        retry.parts.task,
        "Carry on: the driving session called neither job_boolean_true nor job_boolean_false (asked twice)"
    );
}

#[tokio::test]
async fn a_runtime_variable_without_a_value_is_an_error_of_the_prompt() {
    // `$reported-document` has no value before any session reports one.
    let ran = run_task(ENTRY, "early", "", |_| {}).await;
    assert_eq!(ran.outcome_of_task(), Some(TaskOutcome::Error));
    assert!(ran.calls.is_empty());
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some(r#"entry.tasks["early"].prompt: Cannot find runtime variable: $reported-document."#)
    );
}

#[tokio::test]
async fn a_resumed_task_replays_its_journal_and_goes_on() {
    let root = tempfile::tempdir().unwrap();
    // The first run: the task session reports its document, then the
    // driving session fails (the run stops, resumable).
    let first = common::mock(
        r#"
[[rule]]
role = "task"
answer = "Plan written."
tools = [[{ name = "job_prepare_document", argument = "plan.md" }]]

[[rule]]
role = "driving"
fail = "connection reset"
"#,
    );
    let o = options(ENTRY, "double", root.path(), Arc::new(first.clone()));
    let (outcome, _) = run_options(o, None).await.unwrap();
    assert_eq!(outcome.status, RunStatus::Failed);
    assert_eq!(first.calls().len(), 2);

    // Resumed with a backend that works: the task round comes from the
    // journal (its tool call reapplied), the condition is asked again.
    let second = common::mock(
        r#"
[[rule]]
role = "driving"
answer = "Yes."
tools = [[{ name = "job_boolean_true", argument = "plan.md is there" }]]
"#,
    );
    let mut o = options("", "", root.path(), Arc::new(second.clone()));
    o.resume = Some(outcome.run_id.clone());
    let (again, events) = run_options(o, None).await.unwrap();
    assert_eq!(again.status, RunStatus::Succeeded, "{:?}", again.error);
    assert_eq!(again.run_id, outcome.run_id);
    let calls = second.calls();
    assert_eq!(calls.len(), 1, "only the condition was asked");
    assert_eq!(calls[0].session_id, "s3@30", "numbering goes on");
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::SessionReused { output_excerpt, .. } if output_excerpt == "Plan written.")
        && e.session_id.as_deref() == Some("s1@26")));
    let doc = again.outputs.iter().find(|(k, _)| k == "reported-document");
    assert_eq!(doc.map(|(_, v)| v.to_text()), Some("plan.md".into()));
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::RunStarted { resumed: true, .. }))
    );

    // A program's run is not a task's.
    let mut o = options("", "", root.path(), Arc::new(second));
    o.resume = Some("20990101-000000-zzzzzz".into());
    assert!(
        matches!(prepare_task(o), Err(StartError::Usage(m)) if m.starts_with("cannot resume: no run"))
    );
}

#[tokio::test]
async fn cancelling_a_task_stops_its_session_and_leaves_it_resumable() {
    let root = tempfile::tempdir().unwrap();
    let mock = common::mock("[[rule]]\nrole = \"task\"\ndelay = \"1h\"\n");
    let o = options(ENTRY, "simple", root.path(), Arc::new(mock));
    let prepared = prepare_task(o).unwrap();
    let events = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = events.clone();
    let handle = prose_runner::jobs::start_task(
        prepared,
        Arc::new(move |e: &prose_runner::events::Event| sink.lock().unwrap().push(e.clone())),
        None,
    );
    let waited = std::time::Instant::now();
    while !events
        .lock()
        .unwrap()
        .iter()
        .any(|e| matches!(e.kind, EventKind::SessionStarted { .. }))
    {
        assert!(waited.elapsed() < std::time::Duration::from_secs(60));
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    handle.cancel("test");
    let outcome = handle.wait().await;
    assert_eq!(outcome.status, RunStatus::Cancelled);
    let types: Vec<&str> = events
        .lock()
        .unwrap()
        .iter()
        .map(|e| e.kind.type_name())
        .collect();
    assert_eq!(
        types[types.len() - 3..],
        ["session_failed", "cancelled", "run_finished"]
    );
    assert!(!types.contains(&"task_finished"));
}

#[tokio::test]
async fn entries_with_errors_unknown_tasks_and_bad_previous_names_do_not_start() {
    let root = tempfile::tempdir().unwrap();
    let backend = Arc::new(common::mock(""));
    let broken = ENTRY.replace("\"model\": \"coding\"", "\"model\": \"codin\"");
    let Err(StartError::ProgramErrors(d)) =
        prepare_task(options(&broken, "simple", root.path(), backend.clone()))
    else {
        panic!("an entry with errors started");
    };
    assert_eq!(d[0].code.0, "J010");
    let Err(StartError::Usage(m)) =
        prepare_task(options(ENTRY, "simpel", root.path(), backend.clone()))
    else {
        panic!("an unknown task started");
    };
    assert_eq!(
        m,
        "there is no task `simpel`; did you mean `simple`? (the entry's: simple, ask, gated, double, single, review, early)"
    );
    let mut o = options(ENTRY, "gated", root.path(), backend.clone());
    o.previous_job = Some("stroy".into());
    let Err(StartError::Usage(m)) = prepare_task(o) else {
        panic!()
    };
    assert_eq!(
        m,
        "the previous job's keyword is not a keyword of the grid: `stroy`; did you mean `story`? (the entry's: story, plan)"
    );
    let mut o = options(ENTRY, "gated", root.path(), backend.clone());
    o.previous_task = Some("nope".into());
    assert!(
        matches!(prepare_task(o), Err(StartError::Usage(m)) if m.starts_with("the previous task is not a task of the entry: `nope`"))
    );
    // The CLI backends need the MCP server to offer the tools.
    let mut o = options(ENTRY, "simple", root.path(), backend);
    o.backend = None;
    o.config.backend = Some(prose_runner::config::Sourced::new(
        prose_runner::backend::BackendKind::Claude,
        prose_runner::config::Origin::CommandLine,
    ));
    let settings = prose_runner::config::BackendSettings {
        executable: Some(prose_runner::config::Sourced::new(
            "/bin/sh".into(),
            prose_runner::config::Origin::CommandLine,
        )),
        ..Default::default()
    };
    o.config
        .backends
        .insert(prose_runner::backend::BackendKind::Claude, settings);
    assert!(matches!(prepare_task(o), Err(StartError::Usage(m)) if m.contains("MCP server")));
}

#[tokio::test]
async fn roles_and_session_modes_reach_the_backend() {
    let ran = run_task(ENTRY, "single", "", |_| {}).await;
    let roles: Vec<JobRole> = ran
        .calls
        .iter()
        .map(|c| c.job.as_ref().unwrap().role)
        .collect();
    assert_eq!(
        roles[..2],
        [JobRole::Driving, JobRole::Driving],
        "asked twice"
    );
    assert_eq!(ran.calls[0].identity.mode, SessionMode::New);
    assert_eq!(ran.calls[1].identity.mode, SessionMode::Resume);
}
