//! Tests of the hover texts of keywords, property keys and values.

use super::*;

/// Every word of the language's vocabularies has hover text where it
/// stands: the tables here are keyed by `crate::vocabulary`'s lists.
#[test]
fn vocabulary_is_documented() {
    use super::super::docs::{PropertyContext::*, model_blurb, property_docs, value_docs};
    use crate::vocabulary as v;
    let properties = [
        (Agent, v::AGENT_PROPERTIES),
        (Session, v::SESSION_PROPERTIES),
        (Permissions, v::PERMISSION_TYPES),
        (Parallel, v::PARALLEL_MODIFIERS),
        (Loop, v::LOOP_MODIFIERS),
    ];
    for (context, keys) in properties {
        for key in keys {
            assert!(property_docs(context, key).is_some(), "{context:?} {key}");
        }
    }
    let values = [
        ("model", v::MODELS),
        ("persist", v::PERSIST_VALUES),
        ("backoff", v::BACKOFF_STRATEGIES),
        ("bash", v::PERMISSION_VALUES),
        ("network", v::PERMISSION_VALUES),
        ("join", v::JOIN_STRATEGIES),
        ("on-fail", v::FAILURE_POLICIES),
    ];
    for (key, words) in values {
        for word in words {
            assert!(value_docs(key, word).is_some(), "{key}: {word}");
        }
    }
    for model in v::MODELS {
        assert!(model_blurb(model).is_some(), "{model}");
    }
}

#[test]
fn keyword() {
    check(
        r#"ses$0sion "Hello""#,
        expect![[r#"
                0..7 "session"
                ```prose
                session "prompt"
                session: agent
                session name: agent
                ```

                Runs one subagent and waits for it to finish; bind its result with `let`, `const` or `output`. With an agent, the session starts from the agent's settings without its saved memory (see `resume:`); properties indented below override them for this session only.

                *Example*
                ```prose
                let draft = session: writer
                  prompt: "Draft the introduction"
                ```
            "#]],
    );
}

#[test]
fn parallel_for_and_pipe_keywords() {
    check(
        "par$0allel for t in topics:\n  session \"{t}\"\n",
        expect![[r#"
                0..8 "parallel"
                ```prose
                parallel for item in collection:
                  statements
                ```

                A `for` loop whose iterations all run at the same time (fan-out). It accepts the same modifiers as `parallel`.

                *Example*
                ```prose
                parallel for topic in topics:
                  session "Research {topic}"
                ```
            "#]],
    );
    check(
        "let r = xs | ma$0p:\n  session \"{item}\"\n",
        expect![[r#"
                13..16 "map"
                ```prose
                collection | map:
                  statements
                ```

                Transforms every element in order and yields the collection of results. Inside the body the current element is `item`.

                *Example*
                ```prose
                let summaries = articles | map:
                  session "Summarize {item}"
                ```
            "#]],
    );
}

#[test]
fn property_keys_depend_on_their_place() {
    check(
        "agent a:\n  mo$0del: opus\n",
        expect![[r#"
                11..16 "model"
                ```prose
                model: sonnet | opus | haiku
                ```

                The model this agent's sessions run on, unless a session overrides it: `haiku` for quick simple steps, `sonnet` as the balanced default, `opus` for the hardest reasoning.

                *Example*
                ```prose
                agent analyst:
                  model: opus
                ```
            "#]],
    );
    check(
        "session \"x\"\n  mo$0del: opus\n",
        expect![[r#"
                14..19 "model"
                ```prose
                model: sonnet | opus | haiku
                ```

                The model for this session only, overriding the agent's.

                *Example*
                ```prose
                session: analyst
                  model: haiku
                  prompt: "Skim the log"
                ```
            "#]],
    );
    check(
        "agent a:\n  permissions:\n    ba$0sh: deny\n",
        expect![[r#"
                28..32 "bash"
                ```prose
                bash: allow | deny | prompt
                ```

                Whether the agent may run shell commands: always, never, or after asking the user each time.

                *Example*
                ```prose
                bash: deny
                ```
            "#]],
    );
    check(
        "parallel (on-f$0ail: \"continue\"):\n  session \"a\"\n",
        expect![[r#"
                10..17 "on-fail"
                ```prose
                on-fail: "fail-fast" | "continue" | "ignore"
                ```

                What a failing branch does: cancel the others and fail at once (the default), let the others finish and fail afterwards, or count as done.

                *Example*
                ```prose
                parallel (on-fail: "continue"):
                ```
            "#]],
    );
    check(
        "loop until **done** (ma$0x: 3):\n  session \"a\"\n",
        expect![[r#"
                21..24 "max"
                ```prose
                max: N
                ```

                The most iterations the loop may run, even if its condition is never met. N is a positive integer.

                *Example*
                ```prose
                loop until **done** (max: 10):
                ```
            "#]],
    );
}

#[test]
fn property_values() {
    check(
        "agent a:\n  model: op$0us\n",
        expect![[r#"
            18..22 "opus"
            **opus**: the most capable model, for complex reasoning and careful, detailed analysis; slower and costlier.
        "#]],
    );
    check(
        "agent a:\n  persist: proj$0ect\n",
        expect![[r#"
            20..27 "project"
            **persist: project**: the agent's memory lives in `.prose/agents/NAME/` and survives across runs of this project.
        "#]],
    );
    check(
        "agent a:\n  persist: tr$0ue\n",
        expect![[r#"
            20..24 "true"
            **persist: true**: the agent keeps a memory for the current run only (`.prose/runs/{id}/agents/NAME/`).
        "#]],
    );
    check(
        "parallel (\"fi$0rst\"):\n  session \"a\"\n",
        expect![[r#"
                10..17 "\"first\""
                **"first"**: take the first branch to finish and cancel the others.
            "#]],
    );
    check(
        "session \"x\"\n  retry: 3\n  backoff: expo$0nential\n",
        expect![[r#"
                34..45 "exponential"
                **exponential**: double the delay before each retry (1s, 2s, 4s, ...).
            "#]],
    );
}
