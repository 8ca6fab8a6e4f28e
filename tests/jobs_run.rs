//! `prose jobs run` end to end: the scrum example on the mock backend, the
//! dry run of every task of the shipped examples, exit statuses (an entry
//! with errors, usage errors), `--events jsonl`, resume, and `prose jobs
//! tool` from a program of the `command` backend.

mod common;

use std::{fs, path::PathBuf};

use common::{Sandbox, prose_bin};
use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn examples(sb: &Sandbox) {
    for f in ["scrum.jobs.json", "scrum.mock.toml", "broken.jobs.json"] {
        sb.write(f, fs::read(repo().join("docs/examples").join(f)).unwrap());
    }
}

/// Runs prose in `sb` with a home of its own.
fn prose(sb: &Sandbox, args: &[&str]) -> common::Run {
    let home = sb.path().join("home").display().to_string();
    sb.prose_with_env(args, &[("PROSE_HOME", home.as_str())])
}

const DESIGN: [&str; 10] = [
    "jobs",
    "run",
    "scrum.jobs.json",
    "design-task",
    "--previous-job",
    "story",
    "--backend",
    "mock",
    "--mock-script",
    "scrum.mock.toml",
];

#[test]
fn the_scrum_example_runs_on_the_mock_backend() {
    let sb = Sandbox::new("jobs-scrum");
    examples(&sb);
    let run = prose(&sb, &DESIGN);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "reported-true-reason:\ndesign.md describes every part\n\n"
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(
        lines[0].starts_with("running scrum.jobs.json with the mock backend (run "),
        "{}",
        run.stderr
    );
    for expected in [
        "task design-task: task session on gpt-5.2, a driving session on gpt-5-mini for each condition",
        "✓ availability previousJobKeywords: the previous job's keyword is `story`",
        "… s1@75 driving: availability.condition (line 75)",
        "  s3@78 driving called job_boolean_false: design.md has only its headings",
        "↻ RetryWithUserPrompt: attempt 2 of 4",
        "… s4@79 task: criteria.failureAction[2] (line 79)",
        "task design-task succeeded: the criteria were met in attempt 2",
    ] {
        assert!(lines.contains(&expected), "{expected}\n{}", run.stderr);
    }
    assert!(lines.last().unwrap().starts_with("run "), "{}", run.stderr);
}

#[test]
fn every_task_of_the_examples_dry_runs_and_the_broken_entry_is_refused() {
    let sb = Sandbox::new("jobs-dry");
    examples(&sb);
    let all = prose(&sb, &["jobs", "run", "scrum.jobs.json", "--dry-run"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let entry: String = fs::read_to_string(sb.path().join("scrum.jobs.json")).unwrap();
    let tasks = [
        "story-task",
        "story-update-task",
        "design-task",
        "plan-task",
        "execute-task",
        "verify-task",
        "review-task",
        "review-apply-task",
        "ask-task",
    ];
    for task in tasks {
        assert!(entry.contains(&format!("\"{task}\"")));
        let one = prose(&sb, &["jobs", "run", "scrum.jobs.json", task, "--dry-run"]);
        assert_eq!(one.code, 0, "{task}: {}", one.stderr);
        assert!(
            one.stdout
                .starts_with(&format!("task `{task}` of scrum.jobs.json\n")),
            "{}",
            one.stdout
        );
        assert!(one.stdout.ends_with("nothing was run.\n"), "{}", one.stdout);
        assert!(all.stdout.contains(&one.stdout), "{task}");
    }
    assert!(
        !sb.path().join(".prose").exists(),
        "a dry run leaves nothing behind"
    );
    let review = prose(
        &sb,
        &[
            "jobs",
            "run",
            "scrum.jobs.json",
            "review-task",
            "--dry-run",
            "--model",
            "coding",
        ],
    );
    assert!(
        review
            .stdout
            .contains("  task session: gpt-5.2-codex (models.coding, from --model or [runner] model (the task names none))\n"),
        "{}",
        review.stdout
    );

    let broken = prose(&sb, &["jobs", "run", "broken.jobs.json", "x", "--dry-run"]);
    assert_eq!(broken.code, 1, "{}", broken.stderr);
    assert!(broken.stdout.is_empty());
    assert!(broken.stderr.contains("error[J010]"), "{}", broken.stderr);
    assert!(
        broken
            .stderr
            .ends_with("error: broken.jobs.json has errors; it was not run\n"),
        "{}",
        broken.stderr
    );
    let broken = prose(
        &sb,
        &["jobs", "run", "broken.jobs.json", "x", "--backend", "mock"],
    );
    assert_eq!(broken.code, 1, "{}", broken.stderr);
    assert!(!sb.path().join(".prose").exists());
}

#[test]
fn exit_statuses_and_usage_errors() {
    let sb = Sandbox::new("jobs-exit");
    examples(&sb);
    let mock = ["--backend", "mock", "--mock-script", "scrum.mock.toml"];
    let run = |args: &[&str]| {
        let mut all = vec!["jobs", "run", "scrum.jobs.json"];
        all.extend_from_slice(args);
        prose(&sb, &all)
    };
    // Usage (2): no task, an unknown one, a missing or unknown input, an
    // unknown previous job, no such file.
    let r = run(&mock);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("error: which task? name one of the entry's: story-task, "),
        "{}",
        r.stderr
    );
    let r = run(&[&["desing-task"], &mock[..]].concat());
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("did you mean `design-task`?"),
        "{}",
        r.stderr
    );
    let r = run(&[&["ask-task", "--no-input"], &mock[..]].concat());
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: task `ask-task` takes the user's input ($user-input): give it with --input user-input=TEXT\n"
    );
    let r = run(&[&["ask-task", "--input", "topic=x"], &mock[..]].concat());
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown input `topic`"), "{}", r.stderr);
    let r = run(&[&["design-task", "--previous-job", "stroy"], &mock[..]].concat());
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("did you mean `story`?"), "{}", r.stderr);
    let r = prose(
        &sb,
        &["jobs", "run", "missing.jobs.json", "t", "--backend", "mock"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);

    // Failed (1): the availability does not hold without a previous job.
    let r = run(&[&["design-task"], &mock[..]].concat());
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("task design-task failed (prerequisite): availability: previousJobKeywords: no previous job's keyword was given (--previous-job KEYWORD); it must be one of story"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("  resume: prose jobs run scrum.jobs.json design-task --resume "),
        "{}",
        r.stderr
    );

    // Succeeded (0), with the user's input in the prompt.
    let r = run(&[
        &["ask-task", "--input", "user-input=Where is the cache?"],
        &mock[..],
    ]
    .concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn events_jsonl_and_resume() {
    let sb = Sandbox::new("jobs-events");
    examples(&sb);
    let mut args = DESIGN.to_vec();
    args.extend(["--events", "jsonl"]);
    let run = prose(&sb, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let events: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types[..2], ["run_started", "task_started"]);
    assert_eq!(types[types.len() - 2..], ["task_finished", "run_finished"]);
    for t in [
        "tool_called",
        "availability_checked",
        "criteria_checked",
        "retry",
    ] {
        assert!(types.contains(&t), "{t}: {types:?}");
    }
    let started = events
        .iter()
        .find(|e| e["type"] == "session_started")
        .unwrap();
    assert_eq!(started["role"], "driving");
    assert_eq!(started["step"], "availability.condition");
    assert_eq!(started["model"], "gpt-5-mini");
    let finished = events.last().unwrap();
    assert_eq!(finished["status"], "succeeded");
    assert_eq!(
        finished["outputs"]["reported-true-reason"],
        "design.md describes every part"
    );
    for e in &events {
        assert_eq!(e["version"], 1);
        assert!(e["run_id"].is_string() && e["seq"].is_u64() && e["time"].is_string());
    }

    // Resuming the finished run replays it without a backend call: the
    // mock would say otherwise (its script is gone).
    let run_id = finished["run_id"].as_str().unwrap();
    fs::remove_file(sb.path().join("scrum.mock.toml")).unwrap();
    let again = prose(
        &sb,
        &[
            "jobs",
            "run",
            "scrum.jobs.json",
            "design-task",
            "--backend",
            "mock",
            "--resume",
            run_id,
            "--events",
            "jsonl",
        ],
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    let types: Vec<String> = again
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(!types.contains(&"session_started".to_string()), "{types:?}");
    assert_eq!(types.iter().filter(|t| *t == "session_reused").count(), 5);
    assert!(again.stdout.contains("\"resumed\":true"));
    let r = prose(
        &sb,
        &[
            "jobs",
            "run",
            "scrum.jobs.json",
            "plan-task",
            "--backend",
            "mock",
            "--resume",
            run_id,
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("ran task `design-task`, not `plan-task`"),
        "{}",
        r.stderr
    );
}

#[cfg(unix)]
#[test]
fn a_command_program_reports_its_tool_calls_with_prose_jobs_tool() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new("jobs-tool");
    sb.write(
        "t.jobs.json",
        r#"{
  "models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []},
  "promptVariables": {},
  "grid": [],
  "tasks": {"report": {
    "prompt": ["Report a document."],
    "requireUserInput": false,
    "criteria": {"toolExecuted": ["job_prepare_document"], "failureAction": ["RetryWithNewSession", 0]}
  }}
}"#,
    );
    let agent = sb.path().join("agent.sh");
    fs::write(
        &agent,
        format!(
            "#!/bin/sh\ncat > /dev/null\n'{prose}' jobs tool job_prepare_document 'docs/notes.md' || exit 9\n'{prose}' jobs tool rm_rf x 2> \"$(dirname \"$0\")/refused.txt\"\necho done\n",
            prose = prose_bin().display()
        ),
    )
    .unwrap();
    fs::set_permissions(&agent, fs::Permissions::from_mode(0o755)).unwrap();
    let command = agent.display().to_string();
    let r = prose(
        &sb,
        &[
            "jobs",
            "run",
            "t.jobs.json",
            "report",
            "--backend",
            "command",
            "--command",
            &command,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "reported-document:\ndocs/notes.md\n\n");
    let refused = fs::read_to_string(sb.path().join("refused.txt")).unwrap();
    assert_eq!(
        refused,
        "error: `rm_rf` is not a tool of this request; it offers job_prepare_document, job_boolean_true, job_boolean_false, job_prerequisite_failed\n"
    );
    // Outside a task's request, the helper says what it is for.
    let r = prose(&sb, &["jobs", "tool", "job_boolean_true", "x"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: `PROSE_TOOLS_FILE` is not set"),
        "{}",
        r.stderr
    );
}
