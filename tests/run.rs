//! `prose run` end to end: the quick start on the mock backend, exit
//! statuses, `--events jsonl`, `--dry-run`, secrets kept out of the run
//! directory, and a run killed with SIGKILL then resumed.

mod common;

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use common::{Sandbox, prose_bin};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs prose in `sb` with a home of its own.
fn prose(sb: &Sandbox, args: &[&str], env: &[(&str, &str)]) -> common::Run {
    let home = sb.path().join("home").display().to_string();
    let mut all = vec![("PROSE_HOME", home.as_str())];
    all.extend_from_slice(env);
    sb.prose_with_env(args, &all)
}

fn quickstart(sb: &Sandbox) {
    for f in ["quickstart.prose", "quickstart.mock.toml"] {
        sb.write(f, fs::read(repo().join("docs/examples").join(f)).unwrap());
    }
}

#[test]
fn the_quick_start_runs_on_the_mock_backend() {
    let sb = Sandbox::new("run-quickstart");
    quickstart(&sb);
    let run = prose(
        &sb,
        &[
            "run",
            "quickstart.prose",
            "--backend",
            "mock",
            "--mock-script",
            "quickstart.mock.toml",
            "--input",
            "topic=tide pools",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "introduction:\nTide pools are small worlds the sea leaves behind twice a day. Visit at low tide, look with your eyes rather than your hands, and you will meet sea stars that regrow their arms and anemones that are animals, not plants.\n\n"
    );
    assert!(
        run.stderr
            .starts_with("running quickstart.prose with the mock backend (run "),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("✓ s3@22 -> draft (0.0s): Tide pools are small worlds"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("? line 26: **the introduction answers every question** is true"),
        "{}",
        run.stderr
    );
    let runs: Vec<_> = fs::read_dir(sb.path().join(".prose/runs"))
        .unwrap()
        .collect();
    assert_eq!(runs.len(), 1);
}

#[test]
fn exit_statuses() {
    let sb = Sandbox::new("run-exit");
    sb.write("ok.prose", "session \"hi\"\n");
    sb.write("bad.prose", "session: nobody\n");
    sb.write("fails.prose", "throw \"no luck\"\n");
    sb.write("input.prose", "input topic: \"t\"\nsession \"{topic}\"\n");
    // Errors: not run, diagnostics as `prose check` prints them.
    let r = prose(&sb, &["run", "bad.prose", "--backend", "mock"], &[]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("error[E007]"), "{}", r.stderr);
    assert!(
        r.stderr
            .ends_with("error: bad.prose has errors; it was not run\n"),
        "{}",
        r.stderr
    );
    assert!(!sb.path().join(".prose/runs").exists());
    // The program fails.
    let r = prose(&sb, &["run", "fails.prose", "--backend", "mock"], &[]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("failed: line 1: no luck\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("  resume: prose run fails.prose --resume "),
        "{}",
        r.stderr
    );
    // Usage errors.
    for args in [
        vec!["run", "missing.prose", "--backend", "mock"],
        vec!["run", "ok.prose", "--backend", "gpt"],
        vec!["run", "ok.prose", "--backend", "command"],
        vec!["run", "input.prose", "--backend", "mock"],
        vec!["run", "ok.prose", "--backend", "mock", "--input", "x"],
        vec!["run", "ok.prose", "--backend", "mock", "--resume", "nope"],
        vec!["run", "ok.prose", "--backend", "mock", "--timeout", "soon"],
    ] {
        let r = prose(&sb, &args, &[]);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
    }
    let r = prose(&sb, &["run", "input.prose", "--backend", "mock"], &[]);
    assert_eq!(
        r.stderr,
        "error: missing input: topic (give it with --input NAME=VALUE)\n"
    );
    // No backend configured, no claude on PATH: the list of backends.
    let r = prose(&sb, &["run", "ok.prose"], &[("PATH", "/nonexistent")]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no backend is configured and `claude` is not on PATH"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("  mock       offline scripted answers"),
        "{}",
        r.stderr
    );
    // prose.toml chooses the backend.
    sb.write("prose.toml", "[runner]\nbackend = \"mock\"\n");
    let r = prose(&sb, &["run", "ok.prose"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn events_jsonl_on_stdout() {
    let sb = Sandbox::new("run-events");
    sb.write(
        "p.prose",
        "let a = session \"A\"\nif **done**:\n  session \"B\"\noutput result = a\n",
    );
    let r = prose(
        &sb,
        &[
            "run",
            "p.prose",
            "--backend",
            "mock",
            "--events",
            "jsonl",
            "--events-file",
            "copy.jsonl",
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let events: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "run_started",
            "session_started",
            "session_finished",
            "binding_written",
            "session_started",
            "session_finished",
            "condition_evaluated",
            "binding_written",
            "run_finished"
        ]
    );
    let run_id = events[0]["run_id"].as_str().unwrap();
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["version"], 1);
        assert_eq!(e["run_id"], run_id);
        assert_eq!(e["seq"], i as u64);
        let time = e["time"].as_str().unwrap();
        assert!(time.ends_with('Z') && time.len() == 24, "{time}");
    }
    assert_eq!(events[1]["session_id"], "s1@1");
    assert_eq!(events[4]["kind"], "condition");
    assert_eq!(events[8]["status"], "succeeded");
    assert_eq!(events[8]["outputs"]["result"], "A");
    assert_eq!(
        fs::read_to_string(sb.path().join("copy.jsonl")).unwrap(),
        r.stdout
    );
    // Progress is off: stderr stays quiet.
    assert_eq!(r.stderr, "");
}

#[test]
fn dry_run_prints_the_plan_and_calls_nothing() {
    let sb = Sandbox::new("run-dry");
    quickstart(&sb);
    let r = prose(
        &sb,
        &[
            "run",
            "quickstart.prose",
            "--dry-run",
            "--backend",
            "command",
            "--command",
            "/nonexistent/agent",
        ],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    expect_test::expect![[r#"
        inputs: topic ("What to write about")
        agents:
          researcher: model haiku
          writer: model sonnet
        steps:
            6    input topic (asked if not given)
           16    parallel (all, on-fail: fail-fast): 2 branches at once
           17      facts = session researcher (haiku): "List three surprising facts about {topic}"
           19      questions = session researcher (haiku): "List three questions a beginner asks about {topic}"
           22    draft = session writer (sonnet): "Write a short introduction to {topic}"; context: facts, questions
           26    loop until **the introduction answers every question** (asked before each iteration), at most 3 iterations
           27      draft = session writer (sonnet): "Improve the introduction"; context: draft, questions
           31    output introduction = draft
        4 sessions written in the program; nothing was run.
    "#]]
    .assert_eq(&r.stdout);
    assert!(!sb.path().join(".prose").exists());
}

#[cfg(unix)]
fn executable(sb: &Sandbox, rel: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    sb.write(rel, text);
    let p = sb.path().join(rel);
    fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[cfg(unix)]
#[test]
fn secrets_never_reach_the_run_directory() {
    let sb = Sandbox::new("run-secrets");
    // An agent that answers with its whole environment.
    let agent = executable(&sb, "agent.sh", "#!/bin/sh\ncat >/dev/null\nenv\n");
    sb.write("p.prose", "input topic: \"t\"\nlet a = session \"Tell me about {topic}\"\nif **done**:\n  session \"x\"\n");
    let secret = "sk-test-SECRET-4242";
    let env = [
        ("ANTHROPIC_API_KEY", secret),
        ("OPENAI_API_KEY", secret),
        ("GITHUB_TOKEN", secret),
    ];
    for backend in [
        vec!["--backend", "mock"],
        vec!["--backend", "command", "--command", agent.to_str().unwrap()],
    ] {
        let mut args = vec![
            "run",
            "p.prose",
            "--input",
            "topic=tides",
            "--events-file",
            "events.jsonl",
        ];
        args.extend(backend);
        let r = prose(&sb, &args, &env);
        assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
        assert!(!r.stdout.contains(secret) && !r.stderr.contains(secret));
    }
    let mut found = Vec::new();
    let mut stack = vec![sb.path().join(".prose"), sb.path().join("events.jsonl")];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if fs::read_to_string(&p).unwrap_or_default().contains(secret) {
            found.push(p);
        }
    }
    assert!(found.is_empty(), "the secret is in {found:?}");
    // The agent's answer (its environment) did reach a binding: only the
    // minimal environment was there.
    let runs: Vec<PathBuf> = fs::read_dir(sb.path().join(".prose/runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(runs.iter().any(|r| {
        fs::read_to_string(r.join("bindings/a.md"))
            .unwrap_or_default()
            .contains("PROSE_KIND=session")
    }));
}

/// Waits until `path` holds `lines` lines (generous timeout).
fn wait_for_lines(path: &Path, lines: usize) -> String {
    let start = Instant::now();
    loop {
        let text = fs::read_to_string(path).unwrap_or_default();
        if text.lines().count() >= lines {
            return text;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited for {lines} lines in {}: {text:?}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
#[test]
fn kill_9_then_resume_repeats_no_finished_session() {
    let sb = Sandbox::new("run-kill");
    // Logs each request; `Slow` requests wait while the `hold` file exists.
    let agent = executable(
        &sb,
        "agent.sh",
        "#!/bin/sh\nhere=\"$(dirname \"$0\")\"\ntask=\"$(head -n 1)\"\necho \"$PROSE_SESSION_ID $task\" >> \"$here/calls.log\"\ncase \"$task\" in\n  Slow*) echo $$ > \"$here/slow.pid\"; while [ -f \"$here/hold\" ]; do sleep 0.05; done ;;\nesac\necho \"done: $task\"\n",
    );
    sb.write("hold", "");
    sb.write(
        "p.prose",
        "let a = session \"A\"\nparallel:\n  b = session \"B\"\n  c = session \"C\"\nlet slow = session \"Slow D\"\nlet e = session \"E {a} {b} {c} {slow}\"\noutput result = e\n",
    );
    let home = sb.path().join("home");
    let agent_s = agent.display().to_string();
    let args = [
        "run",
        "p.prose",
        "--backend",
        "command",
        "--command",
        agent_s.as_str(),
    ];
    let mut child = Command::new(prose_bin())
        .args(args)
        .current_dir(sb.path())
        .env("PROSE_HOME", &home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A, B, C finished and D started: kill the runner without warning.
    let log = wait_for_lines(&sb.path().join("calls.log"), 4);
    assert!(log.lines().last().unwrap().ends_with("Slow D"), "{log}");
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success());
    // The agent it left behind is released and ends on its own.
    fs::remove_file(sb.path().join("hold")).unwrap();
    let runs: Vec<String> = fs::read_dir(sb.path().join(".prose/runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(runs.len(), 1);
    let id = &runs[0];

    let mut resume = args.to_vec();
    resume.extend(["--resume", id]);
    let r = prose(&sb, &resume, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "result:\ndone: E done: A done: B done: C done: Slow D\n\n"
    );
    let log = fs::read_to_string(sb.path().join("calls.log")).unwrap();
    let tasks: Vec<&str> = log.lines().map(|l| l.split_once(' ').unwrap().1).collect();
    // A, B and C ran once; D was interrupted and ran again; E ran after.
    let count = |t: &str| tasks.iter().filter(|x| **x == t).count();
    assert_eq!(
        (count("A"), count("B"), count("C"), count("Slow D")),
        (1, 1, 1, 2),
        "{log}"
    );
    assert_eq!(
        tasks.last().unwrap(),
        &"E done: A done: B done: C done: Slow D"
    );
    assert!(
        r.stderr.contains("↺ s1@1 -> a (from the journal): done: A"),
        "{}",
        r.stderr
    );
    for name in ["a", "b", "c", "slow", "e", "result"] {
        assert!(
            sb.path()
                .join(format!(".prose/runs/{id}/bindings/{name}.md"))
                .is_file(),
            "{name}"
        );
    }
}
