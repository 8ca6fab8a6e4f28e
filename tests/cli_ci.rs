//! `prose check` as CI jobs, pre-commit hooks and editors' lint plugins
//! use it, end to end through the built binary: unreadable files in every
//! format, `--fix` and `--diff`, the GitHub / SARIF / JUnit formats,
//! `--statistics`, `--quiet`, `--select` / `--ignore`, checking the
//! workspace root, `--stdin-filename`, and paths that hold nothing.

mod common;

use common::Sandbox;
use serde_json::{Value, json};

/// Safe fixes: `opsu` -> `opus`, `promt` -> `prompt`, `captian` -> `captain`. Not
/// safe: `max: 10` for the loop (P705, a warning). Left: nothing else.
const FIXABLE: &str =
    "agent captain:\n  model: opsu\n  promt: \"p\"\nloop:\n  session: captain\nsession: captian\n";
const FIXED: &str =
    "agent captain:\n  model: opus\n  prompt: \"p\"\nloop:\n  session: captain\nsession: captain\n";
const GOOD: &str = "agent a:\n  model: sonnet\n\nsession: a\n  prompt: \"Hello\"\n";
const LATIN1: &[u8] = b"session \"caf\xe9\"\n";

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn an_unreadable_file_is_in_every_format() {
    let sb = Sandbox::new("ci-unreadable");
    sb.write("latin1.prose", LATIN1).write("good.prose", GOOD);
    let message = "latin1.prose is not valid UTF-8 (invalid byte at offset 12)";

    let run = sb.prose(&["check", "--format", "json", "latin1.prose", "good.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    let v = json_of(&run.stdout);
    assert_eq!(v["files"], 1);
    assert_eq!(
        v["diagnostics"],
        json!([{ "path": "latin1.prose", "code": "F001", "severity": "error", "message": message,
                 "range": { "start": { "line": 1, "column": 1 }, "end": { "line": 1, "column": 1 } } }])
    );

    let run = sb.prose(&["check", "--format", "github", "latin1.prose", "good.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stdout,
        format!(
            "::error file=latin1.prose,line=1,col=1,endLine=1,endColumn=1,title=F001 (unreadable-file)::{message}\n"
        )
    );

    let run = sb.prose(&["check", "--format", "sarif", "latin1.prose", "good.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    let log = json_of(&run.stdout);
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "F001");
    assert_eq!(result["message"]["text"], message);
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "latin1.prose"
    );

    let run = sb.prose(&["check", "--format", "junit", "latin1.prose", "good.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stdout
            .contains(r#"<testcase name="F001 unreadable-file" classname="latin1.prose">"#),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains(r#"<testsuite name="good.prose" tests="1""#)
    );

    // prose explain knows the code.
    let run = sb.prose(&["explain", "F001"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.starts_with("# F001 `unreadable-file`"),
        "{run:?}"
    );
}

#[test]
fn fix_applies_the_safe_fixes_and_reports_what_is_left() {
    let sb = Sandbox::new("ci-fix");
    sb.write("a.prose", FIXABLE).write("good.prose", GOOD);
    let run = sb.prose(&["check", "--fix", "a.prose", "good.prose"]);
    assert_eq!(run.code, 0, "a warning is left, no error: {run:?}");
    assert_eq!(
        std::fs::read_to_string(sb.path().join("a.prose")).unwrap(),
        FIXED
    );
    assert_eq!(
        std::fs::read_to_string(sb.path().join("good.prose")).unwrap(),
        GOOD
    );
    assert!(
        run.stdout.starts_with(
            "fixed[E008] a.prose:2:10: Change to `opus`\n\
             fixed[W005] a.prose:3:3: Change to `prompt`\n\
             fixed[E007] a.prose:6:10: Change to `captain`\n\n"
        ),
        "{run:?}"
    );
    assert!(run.stdout.contains("warning[P705]"), "{run:?}");
    assert!(
        run.stdout
            .ends_with("0 errors, 1 warning in 2 files; fixed 3 problems\n"),
        "{run:?}"
    );

    // Nothing left to fix: the files stay as they are.
    let run = sb.prose(&["check", "--fix", "--format", "json", "."]);
    assert_eq!(run.code, 0, "{run:?}");
    let v = json_of(&run.stdout);
    assert_eq!(v["fixed"], json!([]));
    assert_eq!(v["diagnostics"][0]["code"], "P705");
}

#[test]
fn fix_diff_shows_the_fixes_and_writes_nothing() {
    let sb = Sandbox::new("ci-fix-diff");
    sb.write("a.prose", FIXABLE).write("good.prose", GOOD);
    let run = sb.prose(&["check", "--fix", "--diff", "a.prose", "good.prose"]);
    assert_eq!(run.code, 1, "something would change: {run:?}");
    assert_eq!(
        run.stdout,
        "--- a.prose\n+++ a.prose\n@@ -1,6 +1,6 @@\n agent captain:\n-  model: opsu\n-  promt: \"p\"\n+  model: opus\n+  prompt: \"p\"\n loop:\n   session: captain\n-session: captian\n+session: captain\n"
    );
    assert_eq!(run.stderr, "would fix 3 problems in 1 file\n");
    assert_eq!(
        std::fs::read_to_string(sb.path().join("a.prose")).unwrap(),
        FIXABLE
    );

    // --diff alone implies --fix; nothing to fix is status 0.
    let run = sb.prose(&["check", "--diff", "good.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "");
}

#[test]
fn github_sarif_and_junit_report_every_problem() {
    let sb = Sandbox::new("ci-formats");
    sb.write("a.prose", FIXABLE);
    let run = sb.prose(&["check", "--format", "github", "a.prose"]);
    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{run:?}");
    assert_eq!(
        lines[0],
        "::error file=a.prose,line=2,col=10,endLine=2,endColumn=14,title=E008 (invalid-model)::Must be sonnet, opus, or haiku: `opsu` (did you mean `opus`?)"
    );
    assert!(
        lines[1].starts_with("::warning file=a.prose,line=3,col=3,"),
        "{run:?}"
    );

    let run = sb.prose(&["check", "--format", "sarif", "a.prose"]);
    assert_eq!(run.code, 1, "{run:?}");
    let log = json_of(&run.stdout);
    assert_eq!(log["version"], "2.1.0");
    let sarif = &log["runs"][0];
    assert_eq!(sarif["tool"]["driver"]["name"], "prose");
    assert_eq!(sarif["results"].as_array().unwrap().len(), 4);
    let ids: Vec<&str> = sarif["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["E007", "E008", "P705", "W005"]);
    // No docs-url: no helpUri.
    assert_eq!(sarif["tool"]["driver"]["rules"][0].get("helpUri"), None);

    let run = sb.prose(&["check", "--format", "junit", "a.prose"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains(
            r#"<testsuite name="a.prose" tests="4" skipped="0" errors="0" failures="4">"#
        ),
        "{run:?}"
    );
}

#[test]
fn statistics_quiet_select_and_ignore() {
    let sb = Sandbox::new("ci-select");
    sb.write("a.prose", FIXABLE).write("b.prose", FIXABLE);
    let run = sb.prose(&["check", "--statistics", "."]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "2  E007  undefined-agent   (2 fixable)\n\
         2  E008  invalid-model     (2 fixable)\n\
         2  P705  unbounded-loop\n\
         2  W005  unknown-property  (2 fixable)\n\
         4 errors, 4 warnings in 2 files\n"
    );
    let run = sb.prose(&["check", "--statistics", "--format", "json", "a.prose"]);
    assert_eq!(
        json_of(&run.stdout)[0],
        json!({ "code": "E007", "name": "undefined-agent", "count": 1, "fixable": 1 })
    );

    // --quiet: the problems only.
    let run = sb.prose(&["check", "--quiet", "--select", "E008", "a.prose"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.starts_with("error[E008]"), "{run:?}");
    assert!(!run.stdout.contains("errors,"), "{run:?}");

    // --select by prefix and name, --ignore on top of it.
    let run = sb.prose(&[
        "check",
        "--format",
        "json",
        "--select",
        "E,unknown-property",
        "--ignore",
        "E007",
        "a.prose",
    ]);
    let report = json_of(&run.stdout);
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["E008", "W005"], "{run:?}");

    // prose.toml's select and ignore; --select replaces select.
    sb.write("prose.toml", "select = [\"W\"]\nignore = [\"W005\"]\n");
    let run = sb.prose(&["check", "a.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "0 errors, 0 warnings in 1 file\n");
    let run = sb.prose(&["check", "--select", "P7", "a.prose"]);
    assert!(run.stdout.contains("warning[P705]"), "{run:?}");

    // A code that does not exist is a usage error.
    let run = sb.prose(&["check", "--ignore", "X999", "a.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: unknown diagnostic code, prefix or rule name `X999` in --ignore\n"
    );
}

#[test]
fn without_a_path_the_workspace_root_is_checked() {
    let sb = Sandbox::new("ci-root");
    sb.write("prose.toml", "")
        .write("a.prose", "session \"x\" foo\n")
        .write("lib/b.prose", GOOD)
        .mkdir("lib/deeper");
    let run = sb.prose(&["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let v = json_of(&run.stdout);
    assert_eq!(v["files"], 2);
    assert_eq!(v["diagnostics"][0]["path"], "a.prose");
    // From below the root, paths lead back up to it.
    let run = sb.prose_in("lib/deeper", &["check", "--format", "json"]);
    assert_eq!(
        json_of(&run.stdout)["diagnostics"][0]["path"],
        "../../a.prose"
    );
}

#[test]
fn stdin_is_checked_as_the_named_file() {
    let sb = Sandbox::new("ci-stdin");
    // The file need not exist.
    let run = sb.prose_with_stdin(
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "lib/main.prose",
        ],
        b"session \"x\" foo\n",
    );
    assert_eq!(run.code, 1, "{run:?}");
    let v = json_of(&run.stdout);
    assert_eq!(v["files"], 1);
    assert_eq!(v["diagnostics"][0]["path"], "lib/main.prose");
    assert_eq!(v["diagnostics"][0]["code"], "E004");

    // The name decides the kind: the same text as a job entry is not a
    // program.
    let run = sb.prose_with_stdin(
        &["check", "--stdin-filename", "team.jobs.json"],
        b"session \"x\" foo\n",
    );
    assert!(!run.stdout.contains("E004"), "{run:?}");

    // --fix: the fixed text on stdout, the report on stderr.
    let run = sb.prose_with_stdin(
        &["check", "--fix", "--stdin-filename", "a.prose"],
        FIXABLE.as_bytes(),
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, FIXED);
    assert!(run.stderr.contains("fixed 3 problems"), "{run:?}");
    assert!(!sb.path().join("a.prose").exists());
}

#[test]
fn paths_that_hold_nothing_and_a_missing_root() {
    let sb = Sandbox::new("ci-nothing");
    sb.write("src/a.prose", GOOD).mkdir("empty");
    // Alone, a directory with nothing to check is an error.
    let run = sb.prose(&["check", "empty"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: nothing to check: empty holds no file of a known kind (*.prose, *.dialect, *.md, job entries)\n"
    );
    // Beside files, it is a warning.
    let run = sb.prose(&["check", "src", "empty"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, "warning: empty holds no file to check\n");
    // A root that does not exist is a usage error.
    let run = sb.prose(&["check", "--root", "nope", "src"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr, "error: --root nope is not a directory\n");
    assert_eq!(run.stdout, "");
}

/// A note into the same file shows its place and snippet whatever the
/// form the path was given in, under the path as typed.
#[test]
fn related_notes_keep_their_place_with_any_path() {
    let sb = Sandbox::new("ci-notes");
    sb.write(
        "dup.prose",
        "agent a:\n  model: opus\nagent a:\n  model: opus\n",
    );
    let abs = sb.path().join("dup.prose").display().to_string();
    for path in ["dup.prose", "./dup.prose", abs.as_str()] {
        let run = sb.prose(&["check", path]);
        assert_eq!(run.code, 1, "{run:?}");
        let expected =
            format!("note: first defined here\n --> {path}:1:7\n  |\n1 | agent a:\n  |       -\n");
        assert!(run.stdout.contains(&expected), "{path}: {}", run.stdout);
    }
}
