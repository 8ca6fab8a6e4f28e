//! Workspace trust on the command line (docs/security.md): a repository
//! whose `prose.toml` names the `command` backend's program gets that
//! program executed only with the user's consent. `prose run` refuses
//! without a terminal (status 2, naming the setting and the file), asks on
//! a terminal (driven here through a pseudo-terminal) and remembers a yes,
//! `--yes` allows one run; `prose check`, `prose fmt` and `--dry-run`
//! never execute anything. The program of every test writes a marker file
//! when it runs, so "nothing was executed" is checked on disk.

mod common;

use std::{fs, path::Path};

use common::Sandbox;

const PROGRAM: &str = "let x = session \"Say hi\"\noutput out = x\n";

/// A repository whose prose.toml runs `agent.sh`, which records each run
/// in `marker` and answers "hello from agent".
fn repository(name: &str) -> Sandbox {
    let sb = Sandbox::new(name);
    let marker = sb.path().join("marker");
    sb.write(
        "agent.sh",
        format!(
            "#!/bin/sh\ncat >/dev/null\necho ran >> '{}'\necho hello from agent\n",
            marker.display()
        ),
    );
    make_executable(&sb.path().join("agent.sh"));
    sb.write(
        "prose.toml",
        format!(
            "[runner]\nbackend = \"command\"\ncommand = \"{}\"\n",
            sb.path().join("agent.sh").display()
        ),
    );
    sb.write("p.prose", PROGRAM);
    sb
}

fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

fn home(sb: &Sandbox) -> String {
    sb.path().join("home").display().to_string()
}

fn prose(sb: &Sandbox, args: &[&str]) -> common::Run {
    let home = home(sb);
    sb.prose_with_env(args, &[("PROSE_HOME", home.as_str())])
}

fn ran(sb: &Sandbox) -> usize {
    fs::read_to_string(sb.path().join("marker"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

fn consent_file(sb: &Sandbox) -> std::path::PathBuf {
    sb.path().join("home/.prose/consent.toml")
}

#[test]
fn without_a_terminal_the_run_is_refused_and_names_the_setting_and_the_file() {
    let sb = repository("consent-refused");
    let r = prose(&sb, &["run", "p.prose"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let file = sb.path().join("prose.toml");
    assert!(
        r.stderr.starts_with(&format!(
            "error: not run: the repository's prose.toml chooses what runs: `runner.command` in {}\n",
            file.display()
        )),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(&format!(
            "executes `{}` once per session, with the prompt on stdin",
            sb.path().join("agent.sh").display()
        )),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("or pass --yes"), "{}", r.stderr);
    assert_eq!(ran(&sb), 0, "the repository's program ran");
    assert!(!sb.path().join(".prose/runs").exists(), "no run was made");
    assert!(!consent_file(&sb).exists());
}

#[test]
fn yes_allows_one_run_and_prints_what_it_allowed() {
    let sb = repository("consent-yes");
    let r = prose(&sb, &["run", "p.prose", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "out:\nhello from agent\n\n");
    assert!(
        r.stderr.contains("allowed for this run (--yes)"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("runner.command = "), "{}", r.stderr);
    assert_eq!(ran(&sb), 1);
    // Not remembered: the next run without --yes is refused again.
    assert!(!consent_file(&sb).exists());
    assert_eq!(prose(&sb, &["run", "p.prose"]).code, 2);
    assert_eq!(ran(&sb), 1);
}

/// A job entry with one task and no criteria: it succeeds once its
/// session answers.
const ENTRY: &str = r#"{
  "models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []},
  "promptVariables": {},
  "grid": [],
  "tasks": {"hello": {"prompt": ["Say hello."], "requireUserInput": false, "model": "planning"}}
}"#;

#[test]
fn prose_jobs_run_asks_the_same_consent() {
    let sb = repository("consent-jobs");
    sb.write("t.jobs.json", ENTRY);
    // The dry run executes nothing and needs no consent.
    let r = prose(&sb, &["jobs", "run", "t.jobs.json", "hello", "--dry-run"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("task `hello` of t.jobs.json\n"),
        "{}",
        r.stdout
    );
    // Without a terminal and without --yes: refused, naming the setting.
    let r = prose(&sb, &["jobs", "run", "t.jobs.json", "hello"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(
            "error: not run: the repository's prose.toml chooses what runs: `runner.command` in "
        ),
        "{}",
        r.stderr
    );
    assert_eq!(ran(&sb), 0, "the repository's program ran");
    assert!(!sb.path().join(".prose/runs").exists(), "no run was made");
    // --yes allows this run only.
    let r = prose(&sb, &["jobs", "run", "t.jobs.json", "hello", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("allowed for this run (--yes)"),
        "{}",
        r.stderr
    );
    assert_eq!(ran(&sb), 1);
    assert!(!consent_file(&sb).exists());
    // Not remembered: the next run without --yes is refused again.
    assert_eq!(prose(&sb, &["jobs", "run", "t.jobs.json", "hello"]).code, 2);
    assert_eq!(ran(&sb), 1);
}

#[test]
fn check_fmt_and_dry_run_execute_nothing() {
    let sb = repository("consent-check");
    sb.write(
        "messy.prose",
        "let   x = session \"Say hi\"\noutput out = x\n",
    );
    assert_eq!(prose(&sb, &["check", "."]).code, 0);
    assert_eq!(prose(&sb, &["fmt", "messy.prose"]).code, 0);
    let dry = prose(&sb, &["run", "p.prose", "--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(dry.stdout.contains("Say hi"), "{}", dry.stdout);
    assert_eq!(prose(&sb, &["consent"]).code, 0);
    assert_eq!(ran(&sb), 0, "the repository's program ran");
}

#[test]
fn flags_and_the_users_own_configuration_need_no_consent() {
    let sb = repository("consent-flags");
    // The same program, chosen on the command line.
    sb.write("prose.toml", "");
    let agent = sb.path().join("agent.sh").display().to_string();
    let r = prose(
        &sb,
        &[
            "run",
            "p.prose",
            "--backend",
            "command",
            "--command",
            &agent,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Chosen in ~/.prose/prose.toml.
    sb.write(
        "home/.prose/prose.toml",
        format!("[runner]\nbackend = \"command\"\ncommand = \"{agent}\"\n"),
    );
    let r = prose(&sb, &["run", "p.prose"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(ran(&sb), 2);
    // A built-in backend chosen by the repository needs none either.
    sb.write("prose.toml", "[runner]\nbackend = \"mock\"\n");
    sb.write("home/.prose/prose.toml", "");
    assert_eq!(prose(&sb, &["run", "p.prose"]).code, 0);
}

#[test]
fn prose_consent_shows_and_revokes() {
    let sb = repository("consent-command");
    let r = prose(&sb, &["consent"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("runner.command = "), "{}", r.stdout);
    assert!(
        r.stdout
            .ends_with("not allowed yet: `prose run` asks before the first run\n"),
        "{}",
        r.stdout
    );
    assert_eq!(prose(&sb, &["run", "p.prose", "--yes"]).code, 0);
    assert_eq!(
        prose(&sb, &["consent", "--list"]).stdout,
        format!(
            "no repository is allowed ({})\n",
            consent_file(&sb).display()
        )
    );
    let r = prose(&sb, &["consent", "--revoke"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("nothing was allowed for "),
        "{}",
        r.stdout
    );
}

#[cfg(unix)]
mod terminal {
    //! `prose run` on a terminal: a pseudo-terminal is its stdin, stdout and
    //! stderr; the test reads the question and types the answer.

    use std::{
        io::{Read, Write},
        os::fd::OwnedFd,
        process::{Command, Stdio},
        sync::{Arc, Mutex},
        time::{Duration, Instant},
    };

    use super::*;

    /// Runs `prose ARGS` on a new pseudo-terminal; answers `answer` once the
    /// output shows `[y/N] ` (or never, with `None`). Returns the exit
    /// status and everything written to the terminal.
    fn on_terminal(sb: &Sandbox, args: &[&str], answer: Option<&str>) -> (i32, String) {
        let pty = nix::pty::openpty(None, None).expect("openpty");
        let slave = |fd: &OwnedFd| Stdio::from(fd.try_clone().unwrap());
        let mut child = Command::new(common::prose_bin())
            .args(args)
            .current_dir(sb.path())
            .env("PROSE_HOME", home(sb))
            .stdin(slave(&pty.slave))
            .stdout(slave(&pty.slave))
            .stderr(slave(&pty.slave))
            .spawn()
            .expect("run prose");
        drop(pty.slave);
        let output = Arc::new(Mutex::new(String::new()));
        let mut reader = std::fs::File::from(pty.master.try_clone().unwrap());
        let sink = output.clone();
        let reading = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Ends with EIO once the child has exited and the slave closed.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let mut writer = std::fs::File::from(pty.master);
        let deadline = Instant::now() + Duration::from_secs(60);
        if let Some(answer) = answer {
            while !output.lock().unwrap().contains("[y/N] ") {
                assert!(
                    Instant::now() < deadline,
                    "no question within 60 s: {}",
                    output.lock().unwrap()
                );
                if let Some(status) = child.try_wait().unwrap() {
                    panic!(
                        "prose exited ({status}) without asking: {}",
                        output.lock().unwrap()
                    );
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            writer.write_all(answer.as_bytes()).unwrap();
        }
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "prose did not finish within 60 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(writer);
        let _ = reading.join();
        let text = output.lock().unwrap().replace("\r\n", "\n");
        (status.code().unwrap_or(-1), text)
    }

    #[test]
    fn asks_once_on_a_terminal_and_remembers_a_yes() {
        let sb = repository("consent-terminal");

        // No: nothing runs, nothing is remembered.
        let (code, text) = on_terminal(&sb, &["run", "p.prose"], Some("n\n"));
        assert_eq!(code, 2, "{text}");
        assert!(
            text.contains(&format!(
                "The prose.toml of {} chooses what a run with the `command` backend executes",
                fs::canonicalize(sb.path()).unwrap().display()
            )),
            "{text}"
        );
        assert!(
            text.contains("error: not run: you did not allow `runner.command`"),
            "{text}"
        );
        assert_eq!(ran(&sb), 0);
        assert!(!consent_file(&sb).exists());

        // Yes: it runs, and the answer is remembered ...
        let (code, text) = on_terminal(&sb, &["run", "p.prose"], Some("y\n"));
        assert_eq!(code, 0, "{text}");
        assert!(text.contains("hello from agent"), "{text}");
        assert_eq!(ran(&sb), 1);
        let remembered = fs::read_to_string(consent_file(&sb)).unwrap();
        assert!(remembered.contains("[[allowed]]"), "{remembered}");

        // ... so the next run asks nothing, on a terminal or not.
        let (code, text) = on_terminal(&sb, &["run", "p.prose"], None);
        assert_eq!(code, 0, "{text}");
        assert!(!text.contains("[y/N]"), "{text}");
        assert_eq!(prose(&sb, &["run", "p.prose"]).code, 0);
        assert_eq!(ran(&sb), 3);
        assert!(
            prose(&sb, &["consent", "--list"])
                .stdout
                .contains("runner.command = "),
        );

        // Another command in prose.toml asks again.
        let agent = sb.path().join("agent.sh").display().to_string();
        sb.write(
            "prose.toml",
            format!("[runner]\nbackend = \"command\"\ncommand = \"{agent} --again\"\n"),
        );
        let r = prose(&sb, &["run", "p.prose"]);
        assert_eq!(r.code, 2, "{}", r.stderr);

        // Revoked: asked again.
        sb.write(
            "prose.toml",
            format!("[runner]\nbackend = \"command\"\ncommand = \"{agent}\"\n"),
        );
        let r = prose(&sb, &["consent", "--revoke"]);
        assert!(r.stdout.starts_with("revoked: "), "{}", r.stdout);
        assert_eq!(prose(&sb, &["run", "p.prose"]).code, 2);
        assert_eq!(ran(&sb), 3);
    }
}
