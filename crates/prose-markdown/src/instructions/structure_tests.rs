//! The analysis of a text without `_word_`s and `like`s
//! (`without_statements`) is the whole analysis's (`analyze_lexed`).

use proptest::prelude::*;

use super::{analyze, analyze_lexed, holds_no_statement};
use crate::{
    instructions::{FragmentKind, Instructions, VariableRole, scan},
    markdown,
};

/// The whole analysis, whatever the lexical pass found.
fn whole(text: &str, kind: FragmentKind) -> Instructions {
    let md = markdown::scan(text);
    let lexed = scan::scan(text, &md);
    analyze_lexed(text, kind, md, lexed)
}

/// Whether the analysis of `text` takes the short way.
fn without_statements(text: &str) -> bool {
    holds_no_statement(&scan::scan(text, &markdown::scan(text)))
}

/// `analyze` answers the whole analysis for both kinds; whether it took
/// the short way.
fn holds(text: &str) -> bool {
    for kind in [FragmentKind::Prompt, FragmentKind::File] {
        assert_eq!(analyze(text, kind), whole(text, kind), "{text:?}");
    }
    without_statements(text)
}

#[test]
fn variables_of_markdown_without_statements() {
    let text = "# Title {a}\n\n- item `{in a span}` {b|c}\n\n```md\n{x}\n```\n\n```sh\n{y}\n```\n\n    {indented}\n\nSGN_DONE {one two three four five}\n";
    assert!(holds(text));
    let ins = analyze(text, FragmentKind::Prompt);
    let vars: Vec<(String, bool, bool, bool)> = ins
        .variables
        .iter()
        .map(|v| {
            assert_eq!(v.role, VariableRole::Free, "{v:?}");
            assert!(!v.in_statement && !v.in_pattern, "{v:?}");
            (v.name.clone(), v.in_example, v.choice, v.instruction)
        })
        .collect();
    assert_eq!(
        vars,
        [
            ("a".to_string(), false, false, false),
            ("b|c".to_string(), false, true, false),
            ("x".to_string(), true, false, false),
            ("one two three four five".to_string(), false, false, true),
        ]
    );
    assert_eq!(ins.signals.len(), 1);
    assert!(ins.keywords.is_empty() && !ins.uses_language);
}

#[test]
fn a_word_or_a_like_takes_the_whole_analysis() {
    for text in [
        "# T\n_if_ x, _then_ y",
        "# T\nreply like \"x {a}\"",
        "`a` _b_",
    ] {
        assert!(!holds(text), "{text:?}");
    }
}

/// Every line, paragraph and whole text of the OpenProse corpora (beside
/// the repository, when present) and of the markdown test data.
#[test]
fn real_texts_analyse_alike() {
    let real = crate::instructions::tests::real_texts();
    let texts = real.len();
    let short = real.iter().filter(|text| holds(text)).count();
    assert!(
        short * 2 > texts,
        "only {short} of {texts} texts take the short way"
    );
}

/// Pieces of markdown, braces, signals and what makes a word or a `like`.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "word ",
        "Do it. ",
        "{v} ",
        "{a b} ",
        "{*} ",
        "{x|y} ",
        "{1 2 3 4 5} ",
        "{",
        "}",
        "SGN_A ",
        "\"q\" ",
        "“",
        "”",
        "`c` ",
        "``",
        "```\n",
        "```md\n",
        "```sh\n",
        "~~~\n",
        "# ",
        "<b> ",
        "<!-- ",
        " -->",
        "[l](u) ",
        "- ",
        "1) ",
        "* ",
        "---",
        "=",
        "\n",
        "\n\n",
        "    ",
        "\t",
        "> ",
        ": ",
        "topic_name ",
        "_x_ ",
        "_if_ ",
        "lik",
        "e ",
        "like ",
    ])
}

proptest! {
    #[test]
    fn generated_texts_analyse_alike(pieces in prop::collection::vec(piece(), 0..32)) {
        holds(&pieces.concat());
    }
}
