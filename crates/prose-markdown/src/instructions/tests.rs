//! Test helpers for the instruction rules and features, and seed 000
//! itself as an instruction file.

use expect_test::Expect;

use super::{FragmentKind, analyze_instructions, check};
pub(crate) use crate::testing::{apply_fix, render};
use crate::{Diagnostic, testing::ExampleFiles};

pub(crate) fn diagnostics_with(
    text: &str,
    kind: FragmentKind,
    files: &[(&str, Option<&str>)],
) -> Vec<Diagnostic> {
    let ins = analyze_instructions(text, kind);
    check(text, &ins, &ExampleFiles::with(files))
}

fn only(code: &str, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.into_iter().filter(|d| d.code == code).collect()
}

/// Only the diagnostics with `code`, of `text` as an instruction file.
pub(crate) fn check_code(code: &str, text: &str, expect: Expect) {
    check_with_files(code, text, &[], expect);
}

/// Only the diagnostics with `code`, of `text` as a prompt fragment.
pub(crate) fn check_prompt_code(code: &str, text: &str, expect: Expect) {
    let d = only(code, diagnostics_with(text, FragmentKind::Prompt, &[]));
    expect.assert_eq(&render(text, &d));
}

/// As [`check_code`], with `files` added to the example files.
pub(crate) fn check_with_files(
    code: &str,
    text: &str,
    files: &[(&str, Option<&str>)],
    expect: Expect,
) {
    let d = only(code, diagnostics_with(text, FragmentKind::File, files));
    expect.assert_eq(&render(text, &d));
}

/// Applies the quick fix of the first diagnostic with `code`.
pub(crate) fn check_fix(code: &str, text: &str, expect: Expect) {
    let d = diagnostics_with(text, FragmentKind::File, &[])
        .into_iter()
        .find(|d| d.code == code)
        .expect("no diagnostic with that code");
    expect.assert_eq(&apply_fix(text, &d));
}

/// Seed 000 is itself an instruction file (keyword definitions and the
/// SOP): it must be read as the author meant it.
#[test]
fn seed_000_as_an_instruction_file() {
    let seed = include_str!("../../tests/data/seed-000.md");
    assert!(super::is_instruction_file(seed));
    let d = diagnostics_with(seed, FragmentKind::File, &[]);
    expect_test::expect![[r#"
        K011 151:9-151:18 hint: `_resumed_` holds only when your caller resumed a session you had terminated: in the session's first run this branch is skipped
    "#]]
    .assert_eq(&render(seed, &d));
}
