//! Unit tests of `reparse.rs`: the decision for each case, exactly.

use expect_test::{Expect, expect};

use super::*;

/// Applies the edit marked in `fixture` (`$0` where it starts, `$1`
/// where the deleted text ends, if any) with `insert`, checks that the
/// result is the full parse, and describes how it went.
fn check(fixture: &str, insert: &str, expected: Expect) {
    let start = fixture
        .find("$0")
        .expect("the fixture marks the edit with $0");
    let old_text = fixture.replace("$0", "").replace("$1", "");
    let end = fixture.find("$1").map_or(start, |e| e - 2);
    let mut new_text = old_text.clone();
    new_text.replace_range(start..end, insert);
    let edit = Edit {
        delete: TextRange::new(offset(start), offset(end)),
        insert,
    };
    let old = crate::parse(&old_text);
    let (parse, outcome) = reparse_interruptible(&old, &old_text, edit, &new_text, &|| {});
    assert_eq!(
        parse,
        crate::parse(&new_text),
        "the reparse is the full parse"
    );
    let actual = match outcome {
        Outcome::Spliced { children, window } => format!(
            "spliced children {children:?} of {}: {:?}",
            old.green().children().len(),
            &new_text[window]
        ),
        Outcome::Relexed { token } => format!("relexed {:?}", &new_text[token]),
        Outcome::Full(why) => format!("full parse: {why:?}"),
    };
    expected.assert_eq(&actual);
}

const PROGRAM: &str = "agent writer:\n  model: sonnet\n\n# A comment\nsession \"Draft $0the plan\"\n\nlet x = session: writer\n  prompt: \"Polish\"\n";

#[test]
fn typing_plain_text_inside_a_prompt_replaces_its_token() {
    check(
        PROGRAM,
        "all of ",
        expect![[r#"relexed "Draft all of the plan""#]],
    );
    // Deleting, and typing next to an interpolation's text.
    check(
        "session \"Draft $0the$1 plan {topic}\"\n",
        "a",
        expect![[r#"relexed "Draft a plan ""#]],
    );
}

#[test]
fn an_edit_inside_a_prompt_that_may_lex_otherwise_is_not_relexed() {
    // A brace may start an interpolation.
    check(
        PROGRAM,
        "{topic} ",
        expect![[
            r#"spliced children 4..7 of 7: "session \"Draft {topic} the plan\"\n\nlet x = session: writer\n  prompt: \"Polish\"\n""#
        ]],
    );
    // Literal braces in the text: deleting the space would make `{xy}`
    // an interpolation.
    check(
        "session \"a {x$0 $1y} b\"\n",
        "",
        expect![[r#"spliced children 0..1 of 1: "session \"a {xy} b\"\n""#]],
    );
    // After a fence, where a string ends may depend on lines far below.
    check(
        "session \"\"\"\n  ```\n  $0x\n  ```\n\"\"\"\n",
        " ",
        expect!["full parse: Fence"],
    );
}

#[test]
fn an_edit_of_the_last_statement_reparses_to_the_end() {
    check(
        "session \"a\"\nsession \"b\"\n  prompt: \"c$0\"\n\n# end\n",
        "d",
        expect![[r#"spliced children 1..5 of 5: "session \"b\"\n  prompt: \"cd\"\n\n# end\n""#]],
    );
}

#[test]
fn a_statement_typed_at_column_0_inside_a_block_is_spliced_in() {
    check(
        "session \"a\"\n  prompt: \"b\"\n$0  model: opus\nsession \"c\"\n",
        "session \"new\"\n",
        expect![[
            r#"spliced children 0..2 of 2: "session \"a\"\n  prompt: \"b\"\nsession \"new\"\n  model: opus\nsession \"c\"\n""#
        ]],
    );
}

#[test]
fn an_edit_of_the_first_two_tokens_starts_the_window_a_statement_earlier() {
    check(
        PROGRAM
            .replace("$0", "")
            .replacen("let", "l$0et", 1)
            .as_str(),
        "x",
        expect![[
            r#"spliced children 4..7 of 7: "session \"Draft the plan\"\n\nlxet x = session: writer\n  prompt: \"Polish\"\n""#
        ]],
    );
    check(
        "session \"a\"\nx $0= 1\n",
        "=",
        expect![[r#"spliced children 0..2 of 2: "session \"a\"\nx == 1\n""#]],
    );
    // In the first statement: the window starts where the text does.
    check(
        "x $0= 1\nsession \"a\"\n",
        "=",
        expect![[r#"spliced children 0..2 of 2: "x == 1\nsession \"a\"\n""#]],
    );
}

/// Ten statements that each report an error where they start, so that
/// none can start a window.
const MISSPELT: &str = "sesion \"a\"\n";

#[test]
fn an_edit_of_the_first_two_tokens_far_from_a_window_start_parses_everything() {
    check(
        &format!("{}sesion \"$0b\"\n", MISSPELT.repeat(10)),
        "c",
        expect!["full parse: TouchesStatementStart"],
    );
}

#[test]
fn an_edit_before_the_first_statement_starts_the_window_at_the_start() {
    check(
        "# head$0\nsession \"a\"\n",
        "er",
        expect![[r##"spliced children 0..3 of 3: "# header\nsession \"a\"\n""##]],
    );
    // Not at a line start (after a BOM), but first.
    check(
        "\u{FEFF}session \"a$0\"\n",
        "b",
        expect![[r#"spliced children 0..2 of 2: "\u{feff}session \"ab\"\n""#]],
    );
}

#[test]
fn a_string_left_open_changes_the_shape() {
    check(
        "session \"a$0\"\nsession \"b\"\nsession \"c\"\n",
        "\"\"\"",
        expect!["full parse: ShapeChanged"],
    );
}

#[test]
fn an_error_at_a_boundary_starts_the_window_a_statement_earlier() {
    // The misspelt keyword is reported where the statement starts.
    check(
        "session \"a\"\nsesion \"b$0\"\n",
        "c",
        expect![[r#"spliced children 0..2 of 2: "session \"a\"\nsesion \"bc\"\n""#]],
    );
    // With no statement without one within reach: the whole text.
    check(
        &format!("{}sesion \"b$0\"\n", MISSPELT.repeat(10)),
        "c",
        expect!["full parse: ErrorAtBoundary"],
    );
}

#[test]
fn the_window_ends_at_a_statement_that_starts_a_line_in_the_old_tree() {
    // ` n` is a statement indented by one column (after an error): the
    // lines typed before it put `n` at column 0, where the layout would
    // read the next line ` u` as indented. The window goes on to the end.
    check(
        "r\nn\"\n $0n\n u",
        "else:\n  x\n",
        expect![[r#"spliced children 0..6 of 6: "r\nn\"\n else:\n  x\nn\n u""#]],
    );
}

#[test]
fn a_fence_before_the_edit_parses_everything() {
    // The `"""` inside the fence closes the first string only while the
    // fence does not close; the edit closes it.
    check(
        "x = \"\"\"\n```\n\"\"\"\nsession \"a\"\n  prompt: \"b$0\"\n",
        "\"\n```\n\"\"\"\n",
        expect!["full parse: Fence"],
    );
}

#[test]
fn an_edit_that_does_not_match_the_texts_parses_everything() {
    let old = crate::parse("session \"a\"\n");
    let edit = Edit {
        delete: TextRange::empty(offset(9)),
        insert: "zz",
    };
    let (parse, outcome) =
        reparse_interruptible(&old, "session \"a\"\n", edit, "session \"ab\"\n", &|| {});
    assert_eq!(outcome, Outcome::Full(Fallback::InvalidEdit));
    assert_eq!(parse, crate::parse("session \"ab\"\n"));
}

#[test]
fn the_edit_between_two_texts_is_what_differs() {
    let e = Edit::between("session \"abc\"\n", "session \"aXc\"\n");
    assert_eq!(
        (e.delete, e.insert),
        (TextRange::new(10.into(), 11.into()), "X")
    );
    let e = Edit::between("aaa", "aaaa");
    assert_eq!((e.delete, e.insert), (TextRange::empty(3.into()), "a"));
    let e = Edit::between("same", "same");
    assert_eq!((e.delete, e.insert), (TextRange::empty(4.into()), ""));
    // Whole characters: é and è share their first byte.
    let e = Edit::between("é", "è");
    assert_eq!(
        (e.delete, e.insert),
        (TextRange::new(0.into(), 2.into()), "è")
    );
}

#[test]
fn deleting_everything_before_the_first_statement_is_spliced() {
    check(
        "$0# a comment\n$1session \"a\"\nsession \"b\"\n",
        "",
        expect![[r#"spliced children 0..3 of 4: "session \"a\"\n""#]],
    );
    // An edit that changes nothing.
    check(
        "$0session \"a\"\n",
        "",
        expect![[r#"spliced children 0..1 of 1: "session \"a\"\n""#]],
    );
}

proptest::proptest! {
    /// The common prefix and suffix, compared a block at a time, are what
    /// a byte-by-byte comparison finds (texts sharing long runs, short and
    /// over several blocks of every step, so that each step is taken, and
    /// differing anywhere).
    #[test]
    fn common_ends_are_the_byte_by_byte_ones(
        short in proptest::collection::vec(0u8..3, 0..80),
        long in proptest::option::of((0usize..13_000, 1u8..255)),
        a_mid in proptest::collection::vec(0u8..3, 0..6),
        b_mid in proptest::collection::vec(0u8..3, 0..6),
        split in 0usize..13_000,
    ) {
        // A long run is made from a length and a seed (a vector of
        // thousands of bytes would make shrinking slow).
        let shared = match long {
            Some((len, seed)) => (0..len).map(|i| (i as u8).wrapping_mul(seed) % 3).collect(),
            None => short,
        };
        let split = split.min(shared.len());
        let with = |mid: &[u8]| [&shared[..split], mid, &shared[split..]].concat();
        let (a, b) = (with(&a_mid), with(&b_mid));
        let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
        proptest::prop_assert_eq!(common_prefix(&a, &b), prefix);
        proptest::prop_assert_eq!(common_suffix(&a, &b), suffix);
    }
}

/// `token_right_of` finds what rowan's search from the root finds, at
/// every offset of whole, broken and empty programs.
#[test]
fn the_token_right_of_an_offset_is_rowans() {
    for text in [
        "agent a:\n  model: opus\n# note\nlet x = session: a\nsession \"{x} y\"\n",
        "parallel:\n  a = session \"x\"\n  b = do blk(1, [2, {k: 3}])\nif **done**:\n  session \"y\"\n",
        "session \"unterminated\n  ) ] }\n\tfoo bar:\n",
        "session \"\"\"\n  long\n  text\n  \"\"\"\n\n\nsession \"end",
        "# only a comment",
        "",
    ] {
        let root = crate::parse(text).syntax_node();
        for at in 0..=text.len() {
            let at = offset(at);
            assert_eq!(
                token_right_of(&root, at),
                root.token_at_offset(at).right_biased(),
                "{text:?} at {at:?}"
            );
        }
    }
}
