//! Rename's fixture tests: every kind of name, in one file and across the
//! files that import a program, the refusals (invalid names, collisions,
//! names without a definition, skills, persistent agents, fetched
//! programs), prepareRename, and broken input.

use expect_test::{Expect, expect};

use crate::fixture::Fixture;

/// Renames at the cursor and prints every changed file, or the error.
fn check(new_name: &str, fixture: &str, expect: Expect) {
    let (host, pos) = Fixture::parse(fixture).position();
    let analysis = host.analysis();
    let out = match analysis.rename(pos, new_name).unwrap() {
        Err(e) => format!("error: {}\n", e.message),
        Ok(change) => {
            let mut out = String::new();
            for (file, edits) in change.edits {
                let mut text = analysis.file_text(file).unwrap();
                for e in edits.iter().rev() {
                    text.replace_range(
                        usize::from(e.range.start())..usize::from(e.range.end()),
                        &e.new_text,
                    );
                }
                out.push_str(&format!("#- {}\n{text}", analysis.file_path(file).unwrap()));
            }
            out
        }
    };
    expect.assert_eq(&out);
}

fn check_prepare(fixture: &str, expect: Expect) {
    let (host, pos) = Fixture::parse(fixture).position();
    let analysis = host.analysis();
    let text = analysis.file_text(pos.file).unwrap();
    let out = match analysis.prepare_rename(pos).unwrap() {
        Ok(range) => format!(
            "{:?} {:?}\n",
            range,
            &text[usize::from(range.start())..usize::from(range.end())]
        ),
        Err(e) => format!("error: {}\n", e.message),
    };
    expect.assert_eq(&out);
}

#[test]
fn variable_in_interpolations_context_and_assignments() {
    check(
        "plan",
        r#"let dr$0aft = session "d"
session "Improve {draft} using {draft.title}"
  context: [draft, notes]
draft = session "again"
  context: { draft }
session "x"
  context: { source: draft }
"#,
        expect![[r#"
            #- /ws/main.prose
            let plan = session "d"
            session "Improve {plan} using {plan.title}"
              context: [plan, notes]
            plan = session "again"
              context: { plan }
            session "x"
              context: { source: plan }
        "#]],
    );
}

#[test]
fn agent_and_named_session() {
    check(
        "reviewer",
        r#"agent critic:
  model: opus
session review: cri$0tic
  prompt: "Review"
resume: critic
session "{review}"
"#,
        expect![[r#"
            #- /ws/main.prose
            agent reviewer:
              model: opus
            session review: reviewer
              prompt: "Review"
            resume: reviewer
            session "{review}"
        "#]],
    );
    check(
        "assessment",
        "session rev$0iew: critic\nsession \"x\"\n  context: review\n",
        expect![[r#"
            #- /ws/main.prose
            session assessment: critic
            session "x"
              context: assessment
        "#]],
    );
}

#[test]
fn block_and_parameter() {
    check(
        "examine",
        "block rev$0iew(topic):\n  session \"{topic}\"\ndo review(\"x\")\n",
        expect![[r#"
            #- /ws/main.prose
            block examine(topic):
              session "{topic}"
            do examine("x")
        "#]],
    );
    check(
        "subject",
        "block review(topic):\n  session \"{to$0pic}\"\n    context: topic\ndo review(topic: \"x\")\n",
        expect![[r##"
            #- /ws/main.prose
            block review(subject):
              session "{subject}"
                context: subject
            do review(subject: "x")
        "##]],
    );
}

#[test]
fn loop_and_reduce_variables() {
    check(
        "doc",
        "for f$0, i in files:\n  session \"{f} #{i}\"\n",
        expect![[r#"
            #- /ws/main.prose
            for doc, i in files:
              session "{doc} #{i}"
        "#]],
    );
    check(
        "total",
        "let r = xs | reduce(acc, x):\n  session \"{a$0cc} + {x}\"\n",
        expect![[r#"
            #- /ws/main.prose
            let r = xs | reduce(total, x):
              session "{total} + {x}"
        "#]],
    );
}

#[test]
fn flat_binding_in_both_arms() {
    check(
        "outcome",
        "if **x**:\n  let result = session \"a\"\nelse:\n  let result = session \"b\"\nsession \"{res$0ult}\"\n",
        expect![[r#"
            #- /ws/main.prose
            if **x**:
              let outcome = session "a"
            else:
              let outcome = session "b"
            session "{outcome}"
        "#]],
    );
}

#[test]
fn import_alias_and_implicit_name() {
    check(
        "study",
        "use \"@alice/research\" as r$0\nlet x = r(topic: 1)\n",
        expect![[r#"
            #- /ws/main.prose
            use "@alice/research" as study
            let x = study(topic: 1)
        "#]],
    );
    check(
        "study",
        "use \"@alice/research\"\nlet x = resea$0rch(topic: 1)\n",
        expect![[r#"
            #- /ws/main.prose
            use "@alice/research" as study
            let x = study(topic: 1)
        "#]],
    );
}

const LIB: &str = r#"#- /ws/lib/research.prose
input topic: "What to research"
output findings = session "Research {topic}"
#- /ws/other.prose
use "./lib/research.prose" as r
let x = r(topic: "b")
session "{x.findings}"
"#;

#[test]
fn program_input_across_files() {
    check(
        "subject",
        &format!(
            "{LIB}#- /ws/main.prose\nuse \"./lib/research.prose\"\nresearch(to$0pic: \"a\")\n"
        ),
        expect![[r#"
            #- /ws/lib/research.prose
            input subject: "What to research"
            output findings = session "Research {subject}"
            #- /ws/other.prose
            use "./lib/research.prose" as r
            let x = r(subject: "b")
            session "{x.findings}"
            #- /ws/main.prose
            use "./lib/research.prose"
            research(subject: "a")
        "#]],
    );
}

#[test]
fn program_output_across_files_with_destructuring() {
    check(
        "results",
        &format!(
            "{LIB}#- /ws/main.prose\nuse \"./lib/research.prose\"\nlet {{ find$0ings }} = research(topic: \"a\")\nsession \"{{findings}}\"\n"
        ),
        expect![[r#"
            #- /ws/lib/research.prose
            input topic: "What to research"
            output results = session "Research {topic}"
            #- /ws/other.prose
            use "./lib/research.prose" as r
            let x = r(topic: "b")
            session "{x.results}"
            #- /ws/main.prose
            use "./lib/research.prose"
            let { results } = research(topic: "a")
            session "{results}"
        "#]],
    );
}

#[test]
fn refuses_collision_in_an_importing_file() {
    check(
        "summary",
        r#"#- /ws/lib/research.prose
output find$0ings = session "Research"
#- /ws/main.prose
use "./lib/research.prose"
let { findings } = research()
let summary = session "Sum up {findings}"
"#,
        expect![[r#"
            error: Cannot rename `findings` to `summary`: it would collide with the let variable `summary` defined on line 3 of `/ws/main.prose`
        "#]],
    );
}

#[test]
fn refuses_invalid_names() {
    let fixture = "let dr$0aft = 1\n";
    check(
        "two words",
        fixture,
        expect![[r#"
        error: `two words` is not a valid name: a name starts with a letter or `_`, goes on with letters, digits and `_`, and may join such words with single `-`
    "#]],
    );
    check(
        "9lives",
        fixture,
        expect![[r#"
        error: `9lives` is not a valid name: a name starts with a letter or `_`, goes on with letters, digits and `_`, and may join such words with single `-`
    "#]],
    );
    check(
        "",
        fixture,
        expect![[r#"
        error: The new name is empty
    "#]],
    );
    check(
        "session",
        fixture,
        expect![[r#"
        error: `session` is a keyword and cannot be used as a name
    "#]],
    );
    check(
        "first-draft",
        fixture,
        expect![[r#"
        #- /ws/main.prose
        let first-draft = 1
    "#]],
    );
}

#[test]
fn refuses_collisions() {
    check(
        "review",
        "agent crit$0ic:\n  model: opus\nblock review:\n  session: critic\n",
        expect![[r#"
            error: Cannot rename `critic` to `review`: it would collide with the block `review` defined on line 3
        "#]],
    );
    check(
        "notes",
        "input notes: \"n\"\nlet dr$0aft = session \"d\"\n",
        expect![[r#"
            error: Cannot rename `draft` to `notes`: it would collide with the input `notes` defined on line 1
        "#]],
    );
    check(
        "f",
        "let dr$0aft = session \"d\"\nfor f in xs:\n  session \"{draft} {f}\"\n",
        expect![[r#"
            error: Cannot rename `draft` to `f`: it would collide with the loop variable `f` defined on line 2
        "#]],
    );
    check(
        "i",
        "for f$0 in xs:\n  for i in f:\n    session \"{i}\"\n",
        expect![[r#"
            error: Cannot rename `f` to `i`: it would collide with the loop variable `i` defined on line 2
        "#]],
    );
    // Names in unrelated scopes and other namespaces are free.
    check(
        "g",
        "for f$0 in xs:\n  session \"{f}\"\nfor g in ys:\n  session \"{g}\"\n",
        expect![[r#"
            #- /ws/main.prose
            for g in xs:
              session "{g}"
            for g in ys:
              session "{g}"
        "#]],
    );
    check(
        "critic",
        "agent critic:\n  model: opus\nlet dr$0aft = 1\n",
        expect![[r#"
            #- /ws/main.prose
            agent critic:
              model: opus
            let critic = 1
        "#]],
    );
}

#[test]
fn refuses_names_without_definition() {
    check(
        "x",
        "let r = xs | map:\n  session \"{it$0em}\"\n",
        expect![[r#"
            error: Cannot rename `item`: it is the implicit variable of a `map`, `filter` or `pmap` body and is declared nowhere in the program
        "#]],
    );
    check(
        "x",
        "session \"{miss$0ing}\"\n",
        expect![[r#"
            error: Cannot rename `missing`: no variable named `missing` is defined, so there is no definition in the workspace to rename
        "#]],
    );
    check(
        "x",
        "use \"@bob/critique\"\ncritique(to$0pic: 1)\n",
        expect![[r#"
            error: Cannot rename `topic`: it names an input of `critique`, whose program is not available locally, so there is no definition in the workspace to rename
        "#]],
    );
    check(
        "x",
        "session \"te$0xt\"\n",
        expect![[r#"
        error: There is no name to rename here
    "#]],
    );
    check(
        "x",
        "$0",
        expect![[r#"
        error: There is no name to rename here
    "#]],
    );
}

#[test]
fn refuses_skills_persistent_agents_and_fetched_programs() {
    check(
        "search",
        "import \"web\" from \"x\"\nagent a:\n  skills: [\"w$0eb\"]\n",
        expect![[r#"
            error: Cannot rename the skill `web`: skills are named by strings that must match the imported skill's own name
        "#]],
    );
    check(
        "chief",
        "agent capt$0ain:\n  persist: project\nresume: captain\n",
        expect![[r#"
            error: Cannot rename `captain`: the agent has `persist: project`, so its memory is kept in `.prose/agents/captain/` under its name; renaming it would lose that memory (move the folder and rename by hand)
        "#]],
    );
    check(
        "chief",
        "agent capt$0ain:\n  persist: true\nresume: captain\n",
        expect![[r#"
            #- /ws/main.prose
            agent chief:
              persist: true
            resume: chief
        "#]],
    );
    let fetched = r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What"
output findings = session "Research {topic}"
#- /ws/main.prose
use "@alice/research"
"#;
    check(
        "subject",
        &format!("{fetched}research(to$0pic: 1)\n"),
        expect![[r#"
            error: Cannot rename `topic`: that would edit `/ws/.prose/imports/alice--research/program.prose`, a fetched copy of an imported program (under `.prose/`)
        "#]],
    );
    check(
        "results",
        &format!("{fetched}let {{ find$0ings }} = research(topic: 1)\n"),
        expect![[r#"
            error: Cannot rename `findings`: it is destructured from the output `findings` of an imported program and must keep that name; renaming the output would edit `/ws/.prose/imports/alice--research/program.prose`, a fetched copy of an imported program (under `.prose/`)
        "#]],
    );
}

#[test]
fn prepare() {
    check_prepare(
        "let draft = 1\nsession \"{dr$0aft.title}\"\n",
        expect![[r#"
            24..29 "draft"
        "#]],
    );
    check_prepare(
        "use \"@alice/rese$0arch\"\n",
        expect![[r#"
            12..20 "research"
        "#]],
    );
    check_prepare(
        "let r = xs | map:\n  session \"{it$0em}\"\n",
        expect![[r#"
            error: Cannot rename `item`: it is the implicit variable of a `map`, `filter` or `pmap` body and is declared nowhere in the program
        "#]],
    );
}

#[test]
fn never_panics_on_broken_input() {
    let inputs = [
        "agent a:\n  model: \nsession: \nresume: a\n  prompt: \"",
        "do b(\nlet r = prog(topic: x, \nblock b(p:\n",
        "let x = xs | \n  | reduce(:\n    session \"{",
        "use \"\" as\nimport from\ninput : \noutput = \n\"\"\"",
        "use \"@a/b\nx = b(y: 1).z\nsession \"{x.z.w}\" ",
    ];
    for text in inputs {
        let mut host = crate::AnalysisHost::new();
        let file = host.set_file_text("/ws/main.prose", text);
        let analysis = host.analysis();
        for offset in 0..=text.len() + 2 {
            let pos = crate::FilePosition {
                file,
                offset: (offset as u32).into(),
            };
            let _ = analysis.prepare_rename(pos).unwrap();
            if let Ok(change) = analysis.rename(pos, "fresh").unwrap() {
                for (_, edits) in change.edits {
                    for e in edits {
                        assert!(usize::from(e.range.end()) <= text.len());
                    }
                }
            }
            let _ = analysis.references(pos, true).unwrap();
            let _ = analysis.highlight_related(pos).unwrap();
        }
    }
}
