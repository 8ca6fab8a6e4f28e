//! Tests of the hovers of names: agents, variables, inputs, blocks,
//! imported programs.

use super::*;

#[test]
fn agent_reference() {
    check(
        r#"# Reviews plans.
# Keeps notes between runs.
agent captain:
  model: opus
  persist: project
  prompt: """
    You coordinate the crew and review every plan before it is carried out.
  """

session: capt$0ain
  prompt: "Review"
"#,
        expect![[r#"
                199..206 "captain"
                ```prose
                agent captain
                ```

                agent · line 3

                Reviews plans.
                Keeps notes between runs.

                - model: `opus` (most capable, for complex reasoning)
                - persist: `project`: memory in `.prose/agents/captain/`, kept across runs
                - prompt: "You coordinate the crew and review every plan before it is carried out."
            "#]],
    );
}

#[test]
fn agent_definition_without_memory() {
    check(
        "agent wri$0ter:\n  model: sonnet\n  prompt: \"You write.\"\n",
        expect![[r#"
                6..12 "writer"
                ```prose
                agent writer
                ```

                agent

                - model: `sonnet` (balanced, general purpose)
                - persist: none (starts fresh every session; `resume:` is not possible)
                - prompt: "You write."
            "#]],
    );
}

#[test]
fn variables() {
    check(
        "let research = session \"Research\"\nsession \"Use {resea$0rch}\"\n",
        expect![[r#"
                48..56 "research"
                ```prose
                let research = session "Research"
                ```

                let variable: may be reassigned with `name = ...` · line 1
            "#]],
    );
    check(
        "const plan = session \"Plan\"\nsession \"x\"\n  context: pl$0an\n",
        expect![[r#"
                51..55 "plan"
                ```prose
                const plan = session "Plan"
                ```

                const variable: cannot be reassigned · line 1
            "#]],
    );
    check(
        "for f, i in [\"a\"]:\n  session \"{f} {$0i}\"\n",
        expect![[r#"
                35..36 "i"
                ```prose
                for f, i in ["a"]:
                ```

                index variable: the iteration number, from 0; visible only in the loop body · line 1
            "#]],
    );
    check(
        "let r = xs | map:\n  session \"{it$0em}\"\n",
        expect![[r#"
                30..34 "item"
                ```prose
                item
                ```

                pipeline item: the current element inside `map` · line 1
            "#]],
    );
    check(
        "let r = xs | reduce(acc, x):\n  session \"{a$0cc} {x}\"\n",
        expect![[r#"
                41..44 "acc"
                ```prose
                | reduce(acc, x):
                ```

                reduce variable: the accumulator (starts as the first element) · line 1
            "#]],
    );
    check(
        "try:\n  session \"a\"\ncatch as err:\n  session \"b\"\n    context: e$0rr\n",
        expect![[r#"
                60..63 "err"
                ```prose
                catch as err:
                ```

                error variable: the error being handled; visible only in the catch body · line 3
            "#]],
    );
    check(
        "parallel:\n  sec = session \"a\"\nsession \"b\"\n  context: { s$0ec }\n",
        expect![[r#"
                55..58 "sec"
                ```prose
                sec = session "a"
                ```

                variable: bound by assignment · line 2
            "#]],
    );
    check(
        "parallel:\n  s$0ec = session \"a\"\n",
        expect![[r#"
            12..15 "sec"
            ```prose
            sec = session "a"
            ```

            variable: bound by assignment
        "#]],
    );
    check(
        "output sum$0mary = session \"x\"\n",
        expect![[r#"
            7..14 "summary"
            ```prose
            output summary = session "x"
            ```

            output: bound like `let` and returned to a caller, who reads it as `result.summary`
        "#]],
    );
}

#[test]
fn input_with_description() {
    check(
        "input topic: \"The subject to research\"\nsession \"Research {top$0ic}\"\n",
        expect![[r#"
                58..63 "topic"
                ```prose
                input topic
                ```

                input: supplied by the caller before the program runs · line 1

                The subject to research
            "#]],
    );
}

#[test]
fn block_reference_and_parameter() {
    check(
        "do rev$0iew(\"x\", 2)\nblock review(topic, depth):\n  session \"{topic}\"\n",
        expect![[r#"
                3..9 "review"
                ```prose
                block review(topic, depth)
                ```

                block with 2 parameters; run it with `do review(...)` · line 2
            "#]],
    );
    check(
        "block review(topic):\n  session \"{top$0ic}\"\n",
        expect![[r#"
                33..38 "topic"
                ```prose
                block review(topic):
                ```

                block parameter: visible only in the body of `review`; read-only there · line 1
            "#]],
    );
}

#[test]
fn imported_program() {
    check(
        r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
input depth: "shallow, medium or deep"
output findings = session "Research {topic}"
output sources = session "List sources"
#- /ws/main.prose
use "@alice/research"
let r = resea$0rch(topic: "tides", depth: "deep")
"#,
        expect![[r#"
                30..38 "research"
                ```prose
                use "@alice/research"
                ```

                imported program `research`, from `.prose/imports/alice--research/program.prose` · line 1

                **Inputs**
                - `topic`: What to research
                - `depth`: shallow, medium or deep

                **Outputs**: `findings`, `sources`
            "#]],
    );
    check(
        r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
output findings = session "Research {topic}"
#- /ws/main.prose
use "@alice/research" as r
let x = r(top$0ic: "tides")
"#,
        expect![[r#"
                37..42 "topic"
                ```prose
                input topic
                ```

                input of `r`

                What to research
            "#]],
    );
}

#[test]
fn unavailable_program() {
    check(
        "use \"@bob/crit$0ique\" as critic\n",
        expect![[r#"
                4..19 "\"@bob/critique\""
                ```prose
                use "@bob/critique" as critic
                ```

                imported program `critic`

                The program is not available locally, so its inputs and outputs are unknown.

                ---

                **hint P204** `unresolved-import`: Program `@bob/critique` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/bob--critique/program.prose)

                **Imported program not available locally.** A `use` names a program
                whose source is not on this machine, so the calls to it cannot be checked
                against its inputs and outputs (E026, E027, E028 stay silent for it).

                *More: `prose explain P204`*
            "#]],
    );
}
