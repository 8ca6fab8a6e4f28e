//! Test helpers for the instruction rules and features, and seed 000
//! itself as an instruction file.

use expect_test::Expect;

use super::{FragmentKind, analyze_instructions, check, check_finds_nothing};
pub(crate) use crate::testing::{apply_fix, render};
use crate::{Diagnostic, testing::ExampleFiles};

/// Every line, paragraph and whole text of the markdown test data and of
/// the OpenProse corpora (beside the repository, when present): the real
/// texts the analysis's short ways are checked on.
pub(crate) fn real_texts() -> Vec<String> {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![manifest.join("tests/data")];
    dirs.extend(
        ["openprose-examples", "openprose-history"]
            .map(|d| manifest.join("../../../shared/corpus").join(d)),
    );
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                files.push(text);
            }
        }
    }
    assert!(
        !files.is_empty(),
        "no test data under {}",
        manifest.display()
    );
    let mut texts = Vec::new();
    for file in &files {
        let pieces = file
            .split('\n')
            .chain(file.split("\n\n"))
            .chain(std::iter::once(file.as_str()));
        texts.extend(pieces.map(str::to_string));
    }
    texts
}

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

#[test]
fn which_texts_use_the_language() {
    for yes in [
        "_if_ the tests fail, _then_ stop.",
        "Reply with _terminate_ \"SGN_DONE\".",
        "Reply with _terminate_ SGN_DONE.",
        "- _run_ `make check`",
        "_spawn_ `agents/a.md`",
        "_ask_ \"Which database?\"",
        "_follow_:\n1) a\n2) b\n",
        "When _instructed_ to review, read the diff.",
        "---\ntitle: x\n---\n_if_ a, _then_ b.\n",
    ] {
        assert!(super::is_instruction_file(yes), "{yes:?}");
    }
    for no in [
        "Use it only _if_ needed.",
        "You can _run_ the tests, and _then_ ship.",
        "Please _remember_ to _follow_ the guide and _ask_ for help.",
        "_terminate_ the process, or _else_ it leaks.",
        "The _if_, _then_ and _else_ keywords are explained below.",
        "`_if_ a, _then_ b` and `_terminate_ \"x\"` are examples.",
        "```md\n_if_ a, _then_ b.\n```\n",
        "<!-- _if_ a, _then_ b. -->\n",
        "[link](https://x.io/_if_/_then_/) and my_if_var_then_",
        "_follow_ these steps:\n1. one\n",
        "",
    ] {
        assert!(!super::is_instruction_file(no), "{no:?}");
    }
}

#[test]
fn prompts_that_do_not_use_the_language_get_only_misspellings() {
    let plain = "You can _run_ the tests and _then_ report _if_ anything fails.";
    assert!(diagnostics_with(plain, FragmentKind::Prompt, &[]).is_empty());
    // The same text in a file a glob declares an instruction file is checked.
    assert!(!diagnostics_with(plain, FragmentKind::File, &[]).is_empty());
    // An unquoted signal still shows the language is used.
    check_prompt_code(
        "K004",
        "Review the diff, then _terminate_ SGN_DONE.",
        expect_test::expect![[r#"
            K004 1:23-1:34 warning: Quote the message: `_terminate_ "SGN_DONE"` (the caller matches the exact reply)
        "#]],
    );
    let typo = "Review the diff, then _termiante_ \"SGN_DONE\".";
    check_prompt_code(
        "K001",
        typo,
        expect_test::expect![[r#"
            K001 1:23-1:34 warning: `_termiante_` is not a keyword: did you mean `_terminate_`?
        "#]],
    );
}

/// A prompt `check_finds_nothing` skips gets nothing from `check`, even
/// when the files it could name are missing; one it does not skip may.
#[test]
fn prompts_skipped_as_finding_nothing_get_nothing() {
    let skipped = [
        "",
        "Plain words about {topic}.",
        "You can _run_ the tests and _then_ report _if_ anything fails.",
        "Read `notes.md` and [the plan](plan.md), then _spawn_ a helper.",
        "# Heading\n\n    indented code\n~~~\nfence\n~~~\n<b>html</b> SGN_x like this",
    ];
    for text in skipped {
        let ins = analyze_instructions(text, FragmentKind::Prompt);
        assert!(check_finds_nothing(&ins), "{text:?}");
        let missing = ExampleFiles(Default::default());
        assert!(check(text, &ins, &missing).is_empty(), "{text:?}");
    }
    for (text, kind) in [
        (
            "Review, then _termiante_ \"SGN_DONE\".",
            FragmentKind::Prompt,
        ),
        (
            "_if_ done _then_ _terminate_ \"SGN_DONE\"",
            FragmentKind::Prompt,
        ),
        ("Plain words.", FragmentKind::File),
    ] {
        let ins = analyze_instructions(text, kind);
        assert!(!check_finds_nothing(&ins), "{text:?}");
    }
}

#[test]
fn a_session_prompt_fragment() {
    // What an OpenProse `prompt:` hands over once its escapes are decoded.
    let text = "Review the PR. _if_ you find a blocking issue, _then_ _terminate_ \"SGN_BLOCKED: {issue}\". _else_ _terminate_ SGN_DONE";
    let d = diagnostics_with(text, FragmentKind::Prompt, &[]);
    expect_test::expect![[r#"
        K004 1:98-1:109 warning: Quote the message: `_terminate_ "SGN_DONE"` (the caller matches the exact reply)
    "#]]
    .assert_eq(&render(text, &d));
}

#[test]
fn diagnostics_of_a_fragment_shift_into_the_host() {
    // A prompt file's content analysed on its own, mapped back.
    let host = "/read a.md\n_if_ x, _then_ _terminate_ SGN_DONE\n";
    let start = host.find("_if_").unwrap();
    let fragment = &host[start..];
    let d: Vec<Diagnostic> = diagnostics_with(fragment, FragmentKind::Prompt, &[])
        .into_iter()
        .map(|d| d.shifted(text_size::TextSize::new(start as u32)))
        .collect();
    expect_test::expect![[r#"
        K004 2:16-2:27 warning: Quote the message: `_terminate_ "SGN_DONE"` (the caller matches the exact reply)
    "#]]
    .assert_eq(&render(host, &d));
    let fix = &d[0].fix.as_ref().unwrap().edits[0];
    assert_eq!(&host[crate::text::span(fix.range)], "SGN_DONE");
}
