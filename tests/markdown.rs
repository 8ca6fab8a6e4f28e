//! `prose check` on markdown end to end: a large folder of ordinary
//! markdown reports nothing; prompt files get `M` codes, instruction files
//! `K` codes, fences the diagnostics of their language, with the same JSON
//! contract as programs; `--fix` applies the safe fixes; `prose explain`
//! knows the codes.

mod common;

use std::path::Path;

use common::Sandbox;
use serde_json::{Value, json};

/// Copies the ordinary markdown of the front end's tests into `sb`, laid
/// out as a project: some at the top, some under `docs/` and `docs/ops/`,
/// notes under a hidden folder (skipped by directory scans) and in `notes/`.
fn ordinary_project(sb: &Sandbox) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/prose-markdown/tests/ordinary");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let mut copied = 0;
    for (i, path) in entries.iter().enumerate() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rel = match i % 4 {
            0 => name.clone(),
            1 => format!("docs/{name}"),
            2 => format!("docs/ops/{name}"),
            _ => format!("notes/{name}"),
        };
        sb.write(&rel, std::fs::read(path).unwrap());
        copied += 1;
    }
    copied
}

#[test]
fn a_large_folder_of_ordinary_markdown_reports_nothing() {
    let sb = Sandbox::new("md-ordinary");
    let n = ordinary_project(&sb);
    assert!(n >= 30, "{n} files");
    let run = sb.prose(&["check", "--format", "json", "."]);
    assert_eq!(run.code, 0, "{run:?}");
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["diagnostics"], json!([]), "{}", run.stdout);
    assert_eq!(v["files"], n);
    let run = sb.prose(&["check", "."]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout.trim_end(),
        format!("0 errors, 0 warnings in {n} files")
    );
}

const PROMPT: &str = "/read docs/design.md\n/read docs/missing.md\n/push name=a \"A\"\n/push name=a \"B\"\nImplement it, then _termiante_ \"SGN_DONE\".\n";

const AGENTS: &str =
    "# Agent\n\n_if_ done, _then_ _terminate_ SGN_DONE.\n\n```prose\nsession: reviewer\n```\n";

#[test]
fn prompt_files_instruction_files_and_fences_in_json() {
    let sb = Sandbox::new("md-json");
    sb.write("task.prompt.md", PROMPT)
        .write("docs/design.md", "# Design\n")
        .write("AGENTS.md", AGENTS)
        .write("README.md", "# Project\n\nYou can _run_ the tests.\n");
    let run = sb.prose(&["check", "--format", "json"]);
    assert_eq!(run.code, 1, "an error in the fence: {run:?}");
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["files"], 4);
    let found: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {} {} {}:{}",
                d["path"].as_str().unwrap(),
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["range"]["start"]["line"],
                d["range"]["start"]["column"]
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            "AGENTS.md K004 warning 3:19",
            "AGENTS.md E007 error 6:10",
            "task.prompt.md M005 warning 2:7",
            "task.prompt.md M010 error 4:12",
            "task.prompt.md K001 warning 5:20",
        ]
    );
}

#[test]
fn configured_globs_and_stdin_names_choose_the_language() {
    let sb = Sandbox::new("md-globs");
    sb.write(
        "prose.toml",
        "[files]\nprompts = [\"prompts/**/*.md\"]\ninstructions = [\"GUIDE.md\"]\n",
    )
    .write("prompts/fix/bug.md", "/raed x\nFix it.\n")
    .write("GUIDE.md", "_if_ the build fails, stop.\n");
    let run = sb.prose(&["check", "--format", "json", "."]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let codes: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["K003", "M001"], "{}", run.stdout);

    let run = sb.prose_with_stdin(
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "x.prompt.md",
        ],
        b"/run zero\nGo.\n",
    );
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["code"], "M011", "{}", run.stdout);
}

#[test]
fn fix_applies_only_the_safe_fixes() {
    let sb = Sandbox::new("md-fix");
    sb.write(
        "AGENTS.md",
        "_if_ done, _then_ _terminate_ SGN_DONE.\n_if_ stuck, _then_ _termiante_ \"SGN_STUCK\".\n",
    );
    let run = sb.prose(&["check", "--fix", "AGENTS.md"]);
    assert_eq!(run.code, 0, "warnings only: {run:?}");
    assert_eq!(
        std::fs::read_to_string(sb.path().join("AGENTS.md")).unwrap(),
        "_if_ done, _then_ _terminate_ \"SGN_DONE\".\n_if_ stuck, _then_ _termiante_ \"SGN_STUCK\".\n",
        "K004 is quoted; the misspelling is left to the writer"
    );
    assert!(run.stdout.contains("K001"), "{}", run.stdout);
}

#[test]
fn explain_knows_the_markdown_codes() {
    let sb = Sandbox::new("md-explain");
    let run = sb.prose(&["explain", "M005"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("# M005 `missing-read-file`"),
        "{}",
        run.stdout
    );
    let run = sb.prose(&["explain", "misspelled-keyword"]);
    assert!(run.stdout.contains("# K001"), "{}", run.stdout);
}

/// Issue 11 C on the command line: K codes inside a program's prompt
/// strings and a job entry's prompts (with a `_spawn_` file looked up on
/// disk), with the JSON contract's paths and positions.
#[test]
fn instructions_in_program_strings_and_job_prompts() {
    let sb = Sandbox::new("md-hosts");
    sb.write(
        "main.prose",
        "session \"Review it, then _termiante_ \\\"SGN_DONE\\\".\"\n",
    )
    .write("helper.md", "# Helper\n")
    .write(
        "team.jobs.json",
        "{\"tasks\": {\"t\": {\"prompt\": [\"_if_ _instructed_, _then_ _spawn_ `helper.md`\", \"and _spawn_ `gone.md`.\"]}}}\n",
    );
    let run = sb.prose(&[
        "check",
        "--format",
        "json",
        "--select",
        "K",
        "main.prose",
        "team.jobs.json",
    ]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let found: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {} {}:{}",
                d["path"].as_str().unwrap(),
                d["code"].as_str().unwrap(),
                d["range"]["start"]["line"],
                d["range"]["start"]["column"]
            )
        })
        .collect();
    assert_eq!(
        found,
        ["main.prose K001 1:26", "team.jobs.json K007 1:92"],
        "{}",
        run.stdout
    );
}
