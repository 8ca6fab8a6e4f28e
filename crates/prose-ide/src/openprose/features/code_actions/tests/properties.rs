//! Tests of the fixes in [`super::super::properties`].

use super::*;

#[test]
fn unknown_property_nearest_and_remove() {
    check_list(
        r#"
agent a:
  model: sonnet
  promt$0: "p"
"#,
        expect![[r#"
                + W005 Change to `prompt`
                W005 Remove `promt:`
            "#]],
    );
    check_fix(
        r#"
agent a:
  model: sonnet
  promt$0: "p"
"#,
        "Change to `prompt`",
        expect![[r#"

                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
    );
    check_fix(
        r#"
agent a:
  model: sonnet
  prompt: "p"
  timeout$0: 30
"#,
        "Remove `timeout:`",
        expect![[r#"

                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
    );
}

#[test]
fn unknown_property_skips_keys_already_present() {
    // `model` is taken: renaming would only trade W005 for E009.
    check_list(
        r#"
session "s"
  model: opus
  modle$0: haiku
"#,
        expect![[r#"
                W005 Remove `modle:`
            "#]],
    );
}

#[test]
fn unknown_modifier_nearest_and_remove() {
    check_fix(
        r#"loop (maks$0: 3):
  session "s"
"#,
        "Change to `max`",
        expect![[r#"
                loop (max: 3):
                  session "s"
            "#]],
    );
    check_fix(
        r#"parallel ("any", on-fial$0: "continue", count: 1):
  a = session "a"
  b = session "b"
"#,
        "Remove `on-fial`",
        expect![[r#"
                parallel ("any", count: 1):
                  a = session "a"
                  b = session "b"
            "#]],
    );
}

#[test]
fn empty_skills_are_removed() {
    check_fix(
        r#"agent a:
  model: sonnet
  skills: [$0]
  prompt: "p"
"#,
        "Remove `skills:`",
        expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
    );
}

#[test]
fn resume_of_a_non_persistent_agent() {
    check_list(
        r#"agent captain:
  model: opus
  prompt: "lead"
resume: captain$0
"#,
        expect![[r#"
                E017 Add `persist: true` to agent `captain`
                E017 Change `resume:` to `session:`
            "#]],
    );
    check_fix(
        r#"agent captain:
  model: opus
  prompt: "lead"
resume: captain$0
"#,
        "Change `resume:` to `session:`",
        expect![[r#"
                agent captain:
                  model: opus
                  prompt: "lead"
                session: captain
            "#]],
    );
    check_list(
        r#"agent captain:
  model: opus
  prompt: "lead"
  persist: false
session: captain
resume: captain$0
"#,
        expect![[r#"
                * E017 Add `persist: true` to agent `captain`
                E017 Change `resume:` to `session:`
            "#]],
    );
    check_fix(
        r#"agent captain:
  model: opus
  prompt: "lead"
  persist: false
session: captain
resume: captain$0
"#,
        "Add `persist: true` to agent `captain`",
        expect![[r#"
                agent captain:
                  model: opus
                  prompt: "lead"
                  persist: true
                session: captain
                resume: captain
            "#]],
    );
    check_fix(
        r#"agent captain:
  model: opus
  prompt: """
    You lead.
  """
session: captain
resume: captain$0
"#,
        "Add `persist: true` to agent `captain`",
        expect![[r#"
                agent captain:
                  model: opus
                  prompt: """
                    You lead.
                  """
                  persist: true
                session: captain
                resume: captain
            "#]],
    );
}

#[test]
fn resume_without_memory_and_session_ignoring_memory() {
    check_fix(
        r#"agent captain:
  model: opus
  persist: true
  prompt: "lead"
resume: captain$0
"#,
        "Change `resume:` to `session:`",
        expect![[r#"
                agent captain:
                  model: opus
                  persist: true
                  prompt: "lead"
                session: captain
            "#]],
    );
    check_fix(
        r#"#- /ws/.prose/agents/captain/memory.md
#- /ws/main.prose
agent captain:
  model: opus
  persist: project
  prompt: "lead"
session: captain$0
"#,
        "Change `session:` to `resume:`",
        expect![[r#"
                agent captain:
                  model: opus
                  persist: project
                  prompt: "lead"
                resume: captain
            "#]],
    );
}

#[test]
fn duplicate_property_and_import_are_removed() {
    check_fix(
        r#"agent a:
  model: sonnet
  prompt: "p"
  model$0: opus
"#,
        "Remove duplicate `model:`",
        expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
    );
    check_fix(
        r#"session "s" (retry: 2, retry$0: 3)
"#,
        "Remove duplicate `retry`",
        expect![[r#"
                session "s" (retry: 2)
            "#]],
    );
    check_fix(
        r#"use "@alice/research"
use "alice/research"$0
"#,
        "Remove duplicate import",
        expect![[r#"
                use "@alice/research"
                --- still reported
                P204 Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
            "#]],
    );
}

#[test]
fn persist_and_agent_retry() {
    check_fix(
        r#"agent a:
  model: sonnet
  persist: false$0
  prompt: "p"
"#,
        "Remove `persist:`",
        expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
    );
    check_fix(
        r#"agent a:
  model: sonnet
  persist: projetc$0
  prompt: "p"
"#,
        "Change to `project`",
        expect![[r#"
                agent a:
                  model: sonnet
                  persist: project
                  prompt: "p"
            "#]],
    );
    check_fix(
        r#"agent a:
  model: sonnet
  prompt: "p"
  retry$0: 3
"#,
        "Remove `retry:`",
        expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
    );
}
