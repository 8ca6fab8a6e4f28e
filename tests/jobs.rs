//! `prose check` on job entries, end to end (the real binary): which files
//! are job entries, the same JSON contract and the other formats as for
//! programs, `--fix` with the safe fixes, `--stdin-filename`, selection,
//! and `prose explain` of a J code. The checks themselves are tested in
//! `prose-jobs`; docs/jobs.md is the user's page.

mod common;

use common::Sandbox;
use serde_json::{Value, json};

const SCRUM: &str = include_str!("../docs/examples/scrum.jobs.json");
const BROKEN: &str = include_str!("../docs/examples/broken.jobs.json");

/// A small entry with three problems: a misspelled model (a safe fix), an
/// unknown variable close to two names (a guess: no safe fix), and
/// `requireUserInput` written as a string (a safe fix).
const TEAM: &str = r#"{
  "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
  "promptVariables": {"ab": ["Read AGENTS.md."], "ac": ["Be brief."]},
  "grid": [],
  "tasks": {
    "plan-task": {"model": "planing", "prompt": ["$ab $ac", "😀 $ad"], "requireUserInput": "false"}
  }
}
"#;

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn the_json_contract_for_a_job_entry() {
    let sb = Sandbox::new("jobs-json");
    sb.write("team.jobs.json", TEAM);
    let run = sb.prose(&["check", "--format", "json", "team.jobs.json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        json_of(&run.stdout),
        json!({
            "version": 1,
            "files": 1,
            "diagnostics": [
                {
                    "path": "team.jobs.json", "code": "J010", "severity": "error",
                    "message": "entry.tasks[\"plan-task\"].model: \"planing\" is not a model key; did you mean \"planning\"?",
                    "range": { "start": { "line": 6, "column": 28 }, "end": { "line": 6, "column": 37 } }
                },
                {
                    "path": "team.jobs.json", "code": "J015", "severity": "error",
                    "message": "entry.tasks[\"plan-task\"].prompt: Cannot find prompt variable: $ad.",
                    "range": { "start": { "line": 6, "column": 64 }, "end": { "line": 6, "column": 67 } }
                },
                {
                    "path": "team.jobs.json", "code": "J002", "severity": "error",
                    "message": "entry.tasks[\"plan-task\"].requireUserInput: Expected a boolean, found a string.",
                    "range": { "start": { "line": 6, "column": 91 }, "end": { "line": 6, "column": 98 } }
                }
            ]
        })
    );
    // The realistic entry checks clean.
    sb.write("scrum.jobs.json", SCRUM);
    let run = sb.prose(&["check", "--format", "json", "scrum.jobs.json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "{\"version\":1,\"files\":1,\"diagnostics\":[]}\n"
    );
}

#[test]
fn the_human_and_ci_formats() {
    let sb = Sandbox::new("jobs-formats");
    sb.write("team.jobs.json", TEAM);
    let run = sb.prose(&["check", "team.jobs.json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.starts_with(
            "error[J010]: entry.tasks[\"plan-task\"].model: \"planing\" is not a model key; did you mean \"planning\"?\n --> team.jobs.json:6:28\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("3 errors, 0 warnings in 1 file\n"),
        "{}",
        run.stdout
    );

    let run = sb.prose(&["check", "--format", "github", "team.jobs.json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let first = run.stdout.lines().next().unwrap();
    assert_eq!(
        first,
        "::error file=team.jobs.json,line=6,col=28,endLine=6,endColumn=37,title=J010 (unknown-model)::entry.tasks[\"plan-task\"].model: \"planing\" is not a model key; did you mean \"planning\"?"
    );

    let run = sb.prose(&["check", "--format", "sarif", "team.jobs.json"]);
    let sarif = json_of(&run.stdout);
    let rules: Vec<&str> = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["J002", "J010", "J015"]);
    let help = sarif["runs"][0]["tool"]["driver"]["rules"][1]["help"]["markdown"]
        .as_str()
        .unwrap();
    assert!(help.starts_with("# J010 `unknown-model`"), "{help}");

    let run = sb.prose(&["check", "--format", "junit", "team.jobs.json"]);
    assert!(
        run.stdout.contains("name=\"J010 unknown-model\""),
        "{}",
        run.stdout
    );
}

#[test]
fn fix_applies_the_safe_fixes_only() {
    let sb = Sandbox::new("jobs-fix");
    sb.write("team.jobs.json", TEAM);
    let run = sb.prose(&["check", "--fix", "--format", "json", "team.jobs.json"]);
    assert_eq!(run.code, 1, "the guess is left: {run:?}");
    let v = json_of(&run.stdout);
    let fixed: Vec<(&str, &str)> = v["fixed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["code"].as_str().unwrap(), f["title"].as_str().unwrap()))
        .collect();
    assert_eq!(
        fixed,
        [
            ("J010", "Change to \"planning\""),
            ("J002", "Change to false")
        ]
    );
    let codes: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["J015"]);
    let text = std::fs::read_to_string(sb.path().join("team.jobs.json")).unwrap();
    assert_eq!(
        text,
        TEAM.replace("\"planing\"", "\"planning\"")
            .replace("\"false\"}", "false}")
    );

    // The broken example: every safe fix, and the file still parses.
    sb.write("broken.jobs.json", BROKEN);
    let run = sb.prose(&["check", "--diff", "broken.jobs.json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr.contains("would fix 5 problems in 1 file"),
        "{}",
        run.stderr
    );
    for line in [
        "+      \"model\": \"planning\",",
        "+      \"prompt\": [\"$rules\", \"Write the plan to REPO-ROOT/plan.md.\"], // ! unknown variable",
        "+      \"availability\": {}                                        // ! misspelled property",
    ] {
        assert!(run.stdout.contains(line), "{line}:\n{}", run.stdout);
    }
}

#[test]
fn which_files_are_job_entries() {
    let sb = Sandbox::new("jobs-kinds");
    sb.write("prose.toml", "[files]\njobs = [\"ci/*.json\"]\n")
        .write("team.jobs.json", TEAM)
        .write("jobs.json", SCRUM)
        .write("ci/nightly.json", TEAM)
        .write("ci/deep/other.json", TEAM)
        .write("package.json", "{\"name\": \"x\"}\n");
    // No PATH: the root, paths relative to it.
    let run = sb.prose(&["check", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let v = json_of(&run.stdout);
    assert_eq!(v["files"], 3, "{v}");
    let mut paths: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    paths.dedup();
    assert_eq!(paths, ["ci/nightly.json", "team.jobs.json"]);

    // A piped buffer is a job entry by its name.
    let run = sb.prose_with_stdin(
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "x.jobs.json",
        ],
        TEAM.as_bytes(),
    );
    assert_eq!(run.code, 1, "{run:?}");
    let v = json_of(&run.stdout);
    assert_eq!(v["diagnostics"][0]["path"], "x.jobs.json");
    assert_eq!(v["diagnostics"][0]["code"], "J010");
}

#[test]
fn selection_statistics_and_explain() {
    let sb = Sandbox::new("jobs-select");
    sb.write("team.jobs.json", TEAM);
    let run = sb.prose(&[
        "check",
        "--format",
        "json",
        "--select",
        "J01",
        "team.jobs.json",
    ]);
    let v = json_of(&run.stdout);
    let codes: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["J010", "J015"]);
    let run = sb.prose(&[
        "check",
        "--ignore",
        "unknown-model,J002",
        "--format",
        "json",
        "team.jobs.json",
    ]);
    let v = json_of(&run.stdout);
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 1, "{v}");

    let run = sb.prose(&["check", "--statistics", "team.jobs.json"]);
    assert_eq!(
        run.stdout,
        "1  J002  wrong-type               (1 fixable)\n1  J010  unknown-model            (1 fixable)\n1  J015  unknown-prompt-variable\n3 errors, 0 warnings in 1 file\n"
    );

    let run = sb.prose(&["explain", "J010"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.starts_with("# J010 `unknown-model`"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("## Fix"), "{}", run.stdout);
}
