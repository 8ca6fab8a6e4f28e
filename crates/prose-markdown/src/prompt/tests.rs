//! Test helpers for the prompt rules and features, and the prompts of
//! seed 004.

use expect_test::Expect;

pub(crate) use crate::testing::{apply_fix, at, render};
use crate::{Diagnostic, prompt, testing::ExampleFiles};

pub(crate) fn diagnostics_with(text: &str, files: &[(&str, Option<&str>)]) -> Vec<Diagnostic> {
    let file = prompt::parse_prompt_file(text);
    prompt::check(text, &file, &ExampleFiles::with(files))
}

/// Only the diagnostics with `code`, with [`example_files`].
pub(crate) fn check_code(code: &str, text: &str, expect: Expect) {
    check_with_files(code, text, &[], expect);
}

/// Only the diagnostics with `code`; `files` are added to the example
/// files (`None`: missing).
pub(crate) fn check_with_files(
    code: &str,
    text: &str,
    files: &[(&str, Option<&str>)],
    expect: Expect,
) {
    let diags: Vec<_> = diagnostics_with(text, files)
        .into_iter()
        .filter(|d| d.code == code)
        .collect();
    expect.assert_eq(&render(text, &diags));
}

/// Applies the quick fix of the first diagnostic with `code`.
pub(crate) fn check_fix(code: &str, text: &str, expect: Expect) {
    let d = diagnostics_with(text, &[])
        .into_iter()
        .find(|d| d.code == code)
        .expect("no diagnostic with that code");
    expect.assert_eq(&apply_fix(text, &d));
}

#[test]
fn seed_examples_are_clean() {
    // The prompts of seed 004, with the files they read.
    let files = [
        ("project/design.md", Some("# Design\n")),
        ("src/auth/README.md", Some("# Auth\n")),
        ("project/auth-design.md", Some("# Auth design\n")),
        ("project/requirements.md", Some("# Requirements\n")),
        ("project/task-spec.md", Some("# Spec\n")),
        (".agents/personas/worker.md", Some("# Worker Persona\n")),
        (".agents/skills/tdd-workflow.md", Some("# TDD\n")),
        ("project/feature-spec.md", Some("# Feature\n")),
    ];
    for prompt in [
        "/read project/design.md\n/push name=prep \"Prep task\"\n/run\n\nImplement the feature.\nUse patterns from the docs.\n\n/push name=tests \"Write tests\"\n",
        "/read src/auth/README.md\n/read project/auth-design.md\nImplement JWT validation in src/auth/token.c.\nFollow the patterns in the docs above.\nWrite tests in tests/unit/test_token.c.\nRun make check to verify.\n",
        "/read project/requirements.md\n/push name=research-a \"Research approach A\"\n/push name=research-b \"Research approach B\"\n/run\nAnalyze the requirements above.\nCheck research results with /check and incorporate findings.\nDecide on best approach and document in DECISION.md.\n/push name=implement \"Implement the chosen approach from DECISION.md\"\n",
        "/read project/task-spec.md\nComplete Phase 1 of the task spec.\nVerify all Phase 1 criteria pass.\n/push name=phase2 \"/read project/task-spec.md\\nComplete Phase 2 of the task spec.\"\n",
        "/read .agents/personas/worker.md\n/read .agents/skills/tdd-workflow.md\n/read project/feature-spec.md\nImplement the feature following TDD workflow.\n",
    ] {
        let d = diagnostics_with(prompt, &files);
        assert!(d.is_empty(), "{prompt}\n{}", render(prompt, &d));
    }
}
