//! The hover fixture tests: the `check` helper, and the tests of
//! diagnostics under the cursor, discretion conditions and broken input;
//! the docs tables and definitions are tested in [`docs`] and
//! [`definitions`].

use expect_test::{Expect, expect};

use crate::fixture::Fixture;

mod definitions;
mod docs;

fn check(fixture: &str, expect: Expect) {
    let f = Fixture::parse(fixture);
    let (host, pos) = f.position();
    let analysis = host.analysis();
    let text = analysis.file_text(pos.file).unwrap();
    let actual = match analysis.hover(pos).unwrap() {
        Some(h) => format!(
            "{:?} {:?}\n{}\n",
            h.range,
            &text[usize::from(h.range.start())..usize::from(h.range.end())],
            h.markdown
        ),
        None => "no hover\n".to_string(),
    };
    expect.assert_eq(&actual);
}

#[test]
fn resume_of_non_persistent_agent_explains_the_diagnostic() {
    check(
        "agent a:\n  model: haiku\nresume: $0a\n  prompt: \"go on\"\n",
        expect![[r#"
                32..33 "a"
                ```prose
                agent a
                ```

                agent · line 1

                - model: `haiku` (fast, for simple steps)
                - persist: none (starts fresh every session; `resume:` is not possible)

                ---

                **error E017** `resume-non-persistent`: Agent must have `persist:` property to use `resume:`: `a` has none

                **`resume:` requires a persistent agent.** `resume: name` names an agent
                whose definition has no `persist:` property, so there is no memory to
                resume.

                *More: `prose explain E017`*
            "#]],
    );
}

#[test]
fn undefined_agent_shows_only_the_diagnostic() {
    check(
        "session: no$0body\n",
        expect![[r#"
            9..15 "nobody"
            **error E007** `undefined-agent`: Agent not defined: `nobody`

            **Undefined agent reference.** `session: name`, `session x: name` or
            `resume: name` names an agent that no `agent` definition in the program
            defines.

            *More: `prose explain E007`*
        "#]],
    );
}

#[test]
fn the_page_is_linked_under_the_docs_url() {
    check(
        r#"#- /ws/prose.toml
docs-url = "https://example.com/prose/{code}.html"
#- /ws/main.prose
session: no$0body
"#,
        expect![[r#"
                9..15 "nobody"
                **error E007** `undefined-agent`: Agent not defined: `nobody`

                **Undefined agent reference.** `session: name`, `session x: name` or
                `resume: name` names an agent that no `agent` definition in the program
                defines.

                *More: [E007](https://example.com/prose/E007.html), or `prose explain E007`*
            "#]],
    );
}

#[test]
fn syntax_error() {
    check(
        "session \"x\" $0)\n",
        expect![[r#"
            12..13 ")"
            **error E004** `unexpected-token`: Unexpected `)`: expected end of line

            **Unexpected token.** A token is present that cannot start or continue
            what is being parsed at that point.

            *More: `prose explain E004`*
        "#]],
    );
}

#[test]
fn discretion() {
    check(
        "loop until **the tests p$0ass** (max: 3):\n  session \"fix\"\n",
        expect![[r#"
                11..29 "**the tests pass**"
                ```prose
                **condition**
                ***
                  a longer condition
                ***
                ```

                A discretion condition: plain language that the OpenProse VM judges at run time from everything that has happened so far, instead of a boolean expression. Used by `if`, `elif`, `loop until/while` and `choice`.

                *Example*
                ```prose
                if **the summary is missing key facts**:
                  session "Add them"
                ```

                Here: the loop stops as soon as the VM judges this condition met.
            "#]],
    );
}

#[test]
fn nothing_to_say() {
    check(
        "$0",
        expect![[r#"
            no hover
        "#]],
    );
    check(
        "session \"Hel$0lo\"\n",
        expect![[r#"
            no hover
        "#]],
    );
    check(
        "# a comm$0ent\n",
        expect![[r#"
            no hover
        "#]],
    );
    check(
        "session \"x\"\n$0",
        expect![[r#"
            no hover
        "#]],
    );
}

#[test]
fn never_panics_on_broken_input() {
    let inputs = [
        "agent a:\n  model: \nsession: \nresume: a\n  prompt: \"",
        "do b(\nlet r = prog(topic: x, \nblock b(p:\n",
        "let x = xs | \n  | reduce(:\n    session \"{",
        "if **\n  loop until *** x\nparallel (\"any\", count: ):\n",
        "use \"\" as\nimport from\ninput : \noutput = \n\"\"\"",
        "session \"a\" -> -> session\ntry:\ncatch as :\nchoice :\n  option :\n",
    ];
    for text in inputs {
        let mut host = crate::AnalysisHost::new();
        let file = host.set_file_text("/ws/main.prose", text);
        let analysis = host.analysis();
        for offset in 0..=text.len() {
            let pos = crate::FilePosition {
                file,
                offset: (offset as u32).into(),
            };
            let _ = analysis.hover(pos).unwrap();
        }
        let past_end = crate::FilePosition {
            file,
            offset: (text.len() as u32 + 5).into(),
        };
        assert_eq!(analysis.hover(past_end).unwrap(), None);
    }
}
