//! Tests of the fixes in [`super::super::names`].

use super::*;

#[test]
fn undefined_agent_nearest_name() {
    check_list(
        r#"
agent writer:
  model: sonnet
  prompt: "w"
session: writr$0
"#,
        expect![[r#"
                + E007 Change to `writer`
                E007 Define agent `writr`
            "#]],
    );
    check_fix(
        r#"
agent writer:
  model: sonnet
  prompt: "w"
session: writr$0
"#,
        "Change to `writer`",
        expect![[r#"

                agent writer:
                  model: sonnet
                  prompt: "w"
                session: writer
            "#]],
    );
}

#[test]
fn undefined_agent_defined_after_imports_and_inputs() {
    check_fix(
        r#"# A program.

use "@alice/research"
input topic: "t"

# The first step.
session: editor$0
"#,
        "Define agent `editor`",
        expect![[r##"
                # A program.

                use "@alice/research"
                input topic: "t"

                agent editor:
                  model: sonnet
                  prompt: "..."

                # The first step.
                session: editor
                --- still reported
                P204 Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
            "##]],
    );
}

#[test]
fn undefined_agent_defined_before_other_agents_with_their_indentation() {
    check_fix(
        r#"agent writer:
    model: sonnet
    prompt: "w"
let draft = session: writer
resume: critic$0
"#,
        "Define agent `critic`",
        expect![[r#"
                agent critic:
                    model: sonnet
                    persist: true
                    prompt: "..."

                agent writer:
                    model: sonnet
                    prompt: "w"
                let draft = session: writer
                resume: critic
                --- still reported
                E018 No memory file exists for agent; use `session:` for first invocation: `critic` has `persist: true` (memory of this run only) and is not invoked before this point
            "#]],
    );
}

#[test]
fn undefined_agent_in_a_file_without_final_newline() {
    check_fix(
        r#"input x: "x"
session: a$0"#,
        "Define agent `a`",
        expect![[r#"
    input x: "x"

    agent a:
      model: sonnet
      prompt: "..."

    session: a"#]],
    );
}

#[test]
fn import_alias_from_handle_and_slug() {
    check_fix(
        r#"use "@alice/research"
use "@bob/research$0"
"#,
        "Import as `bob-research`",
        expect![[r#"
                use "@alice/research"
                use "@bob/research" as bob-research
                --- still reported
                P204 Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
                P204 Program `@bob/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/bob--research/program.prose)
            "#]],
    );
    check_fix(
        r#"use "./a/helper.prose" as h
use "./b/helper.prose" as h$0
"#,
        "Rename alias to `helper`",
        expect![[r#"
                use "./a/helper.prose" as h
                use "./b/helper.prose" as helper
                --- still reported
                P204 Program `./a/helper.prose` is not available locally; its inputs and outputs are not checked
                P204 Program `./b/helper.prose` is not available locally; its inputs and outputs are not checked
            "#]],
    );
}

#[test]
fn duplicates_rename_the_later_definition() {
    check_fix(
        r#"agent a:
  model: sonnet
  prompt: "1"
agent a$0:
  model: opus
  prompt: "2"
agent a2:
  model: haiku
  prompt: "3"
"#,
        "Rename this agent to `a3` (its references are not renamed)",
        expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "1"
                agent a3:
                  model: opus
                  prompt: "2"
                agent a2:
                  model: haiku
                  prompt: "3"
            "#]],
    );
    check_fix(
        r#"block step1:
  session "a"
block step1$0:
  session "b"
do step1
"#,
        "Rename this block to `step2` (its references are not renamed)",
        expect![[r#"
                block step1:
                  session "a"
                block step2:
                  session "b"
                do step1
            "#]],
    );
    check_fix(
        r#"let x = session "a"
let x$0 = session "b"
"#,
        "Rename this variable to `x2` (its references are not renamed)",
        expect![[r#"
                let x = session "a"
                let x2 = session "b"
            "#]],
    );
    check_fix(
        r#"let part-1 = session "a"
let part-1$0 = session "b"
"#,
        "Rename this variable to `part-2` (its references are not renamed)",
        expect![[r#"
                let part-1 = session "a"
                let part-2 = session "b"
            "#]],
    );
    check_fix(
        r#"input topic: "a"
input topic$0: "b"
"#,
        "Rename this input to `topic2` (its references are not renamed)",
        expect![[r#"
                input topic: "a"
                input topic2: "b"
            "#]],
    );
    check_fix(
        r#"output result = session "a"
output result$0 = session "b"
"#,
        "Rename this output to `result2` (its references are not renamed)",
        expect![[r#"
                output result = session "a"
                output result2 = session "b"
            "#]],
    );
}

#[test]
fn undefined_names_get_the_nearest_visible_one() {
    check_fix(
        r#"let draft = session "d"
session "s"
  context: draf$0
"#,
        "Change to `draft`",
        expect![[r#"
                let draft = session "d"
                session "s"
                  context: draft
            "#]],
    );
    check_fix(
        r#"let draft = session "d"
let b = dratf$0
"#,
        "Change to `draft`",
        expect![[r#"
                let draft = session "d"
                let b = draft
            "#]],
    );
    check_fix(
        r#"block review(doc):
  session "review {dco$0}"
do review("x")
"#,
        "Change to `doc`",
        expect![[r#"
                block review(doc):
                  session "review {doc}"
                do review("x")
            "#]],
    );
    check_fix(
        r#"block review:
  session "r"
do reveiw$0
"#,
        "Change to `review`",
        expect![[r#"
                block review:
                  session "r"
                do review
            "#]],
    );
    // A variable bound only later is not a suggestion.
    check_list(
        r#"session "s"
  context: draf$0
let draft = session "d"
"#,
        expect![[r#"
                P404 (no fix)
            "#]],
    );
}
