//! Tests of the fixes in [`super::super::values`].

use super::*;

#[test]
fn invalid_model_offers_every_model_nearest_first() {
    check_list(
        r#"
agent a:
  model: opsu$0
  prompt: "p"
"#,
        expect![[r#"
                + E008 Change to `opus`
                E008 Change to `haiku`
                E008 Change to `sonnet`
            "#]],
    );
    check_fix(
        r#"
agent a:
  model: opsu$0
  prompt: "p"
"#,
        "Change to `opus`",
        expect![[r#"

                agent a:
                  model: opus
                  prompt: "p"
            "#]],
    );
    check_fix(
        r#"session "s" (model: claude-$0haiku)
"#,
        "Change to `haiku`",
        expect![[r#"
                session "s" (model: haiku)
            "#]],
    );
}

#[test]
fn invalid_model_far_off_or_missing_is_not_preferred() {
    check_list(
        r#"
agent a:
  model: gpt$0
"#,
        expect![[r#"
                E008 Change to `opus`
                E008 Change to `sonnet`
                E008 Change to `haiku`
            "#]],
    );
    check_list(
        r#"
agent a:
  mod$0el:
  prompt: "p"
"#,
        expect![[r#"
                E008 Set to `sonnet`
                E008 Set to `opus`
                E008 Set to `haiku`
            "#]],
    );
    check_fix(
        r#"
agent a:
  mod$0el:
  prompt: "p"
"#,
        "Set to `haiku`",
        expect![[r#"

                agent a:
                  model: haiku
                  prompt: "p"
            "#]],
    );
}

#[test]
fn quoted_model_is_unquoted_under_strict() {
    check_fix(
        r#"
#- /ws/prose.toml
profile = "strict"
#- /ws/main.prose
agent a:
  model: "op$0us"
  prompt: "p"
"#,
        "Write `opus` without quotes",
        expect![[r#"
                agent a:
                  model: opus
                  prompt: "p"
            "#]],
    );
}

#[test]
fn word_valued_settings_get_the_nearest_word() {
    check_fix(
        r#"session "s"
  retry: 2
  backoff: expo$0nential-ish
"#,
        "Change to `exponential`",
        expect![[r#"
                session "s"
                  retry: 2
                  backoff: exponential
            "#]],
    );
    check_list(
        r#"parallel ("frist"$0, on-fail: "contniue"):
  a = session "a"
  b = session "b"
"#,
        expect![[r#"
                + P601 Change to `"first"`
                P601 Change to `"all"`
                P601 Change to `"any"`
            "#]],
    );
    check_fix(
        r#"parallel ("first", on-fail: "contniue"$0):
  a = session "a"
  b = session "b"
"#,
        r#"Change to `"continue"`"#,
        expect![[r#"
                parallel ("first", on-fail: "continue"):
                  a = session "a"
                  b = session "b"
            "#]],
    );
    check_fix(
        r#"agent a:
  model: sonnet
  prompt: "p"
  permissions:
    bash: dney$0
"#,
        "Change to `deny`",
        expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
                  permissions:
                    bash: deny
            "#]],
    );
    check_fix(
        r#"agent a:
  model: sonnet
  prompt: "p"
  permissions:
    bahs$0: deny
"#,
        "Change to `bash`",
        expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
                  permissions:
                    bash: deny
            "#]],
    );
}

#[test]
fn pattern_array_is_not_replaced_by_a_word() {
    check_list(
        r#"#- /ws/prose.toml
profile = "strict"
#- /ws/main.prose
agent a:
  model: sonnet
  prompt: "p"
  permissions:
    network: ["*"]$0
"#,
        expect![[r#"
                W009 (no fix)
            "#]],
    );
}
