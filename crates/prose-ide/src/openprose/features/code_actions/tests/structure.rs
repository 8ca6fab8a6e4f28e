//! Tests of the fixes in [`super::super::structure`].

use super::*;

#[test]
fn unbounded_loop_gets_a_max() {
    check_fix(
        r#"loop$0:
  session "s"
"#,
        "Add `max: 10` iterations",
        expect![[r#"
                loop (max: 10):
                  session "s"
            "#]],
    );
    check_fix(
        r#"loop$0 as i:
  session "s {i}"
"#,
        "Add `max: 10` iterations",
        expect![[r#"
                loop (max: 10) as i:
                  session "s {i}"
            "#]],
    );
}

#[test]
fn non_positive_counts_become_one() {
    check_fix(
        r#"parallel ("any", count: 0$0):
  a = session "a"
  b = session "b"
"#,
        "Change to `1`",
        expect![[r#"
                parallel ("any", count: 1):
                  a = session "a"
                  b = session "b"
            "#]],
    );
    check_fix(
        r#"loop until **done** (max: -$02):
  session "s"
"#,
        "Change to `1`",
        expect![[r#"
                loop until **done** (max: 1):
                  session "s"
                --- still reported
                P709 Discretion condition may be ambiguous: `done` is a single word
            "#]],
    );
    check_fix(
        r#"repeat 0$0:
  session "s"
"#,
        "Change to `1`",
        expect![[r#"
                repeat 1:
                  session "s"
            "#]],
    );
    check_fix(
        r#"session "s"
  retry: 0$0
"#,
        "Change to `1`",
        expect![[r#"
                session "s"
                  retry: 1
            "#]],
    );
}

#[test]
fn empty_throw_message_is_dropped() {
    check_fix(
        r#"try:
  session "s"
catch:
  throw ""$0
"#,
        "Remove the empty message",
        expect![[r#"
                try:
                  session "s"
                catch:
                  throw
            "#]],
    );
}

#[test]
fn tabs_become_spaces_of_the_same_width() {
    check_list(
        "agent a:\n\t$0model: sonnet\n\tprompt: \"p\"\n",
        expect![[r#"
                + P001 Indent with spaces
                P001 Indent every line of the file with spaces
            "#]],
    );
    check_fix(
        "agent a:\n\t$0model: sonnet\n\tprompt: \"p\"\n",
        "Indent with spaces",
        expect![[r#"
                agent a:
                    model: sonnet
                	prompt: "p"
                --- still reported
                P001 Tab in indentation; indent with spaces
            "#]],
    );
    check_fix(
        "agent a:\n\t$0model: sonnet\n  \tprompt: \"p\"\n",
        "Indent every line of the file with spaces",
        expect![[r#"
                agent a:
                    model: sonnet
                    prompt: "p"
            "#]],
    );
}

#[test]
fn late_input_moves_to_the_header() {
    check_fix(
        r#"use "@alice/research"
input topic: "t"

session "first {topic}"
input de$0pth: "how deep"
session "second {depth}"
"#,
        "Move input `depth` to the top",
        expect![[r#"
                use "@alice/research"
                input topic: "t"
                input depth: "how deep"

                session "first {topic}"
                session "second {depth}"
                --- still reported
                P204 Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
            "#]],
    );
    check_fix(
        r#"# Title

session "first"
input de$0pth: "how deep"
"#,
        "Move input `depth` to the top",
        expect![[r##"
                # Title

                input depth: "how deep"

                session "first"
            "##]],
    );
}

#[test]
fn late_input_showing_earlier_results_stays() {
    check_list(
        r#"let draft = session "d"
input appr$0oval: "Approve {draft}?"
"#,
        expect![[r#"
                E022 (no fix)
            "#]],
    );
}
