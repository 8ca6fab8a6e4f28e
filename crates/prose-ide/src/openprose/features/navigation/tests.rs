//! Go to definition's fixture tests: local names, scoped variables, named
//! arguments, skills, imported programs' inputs, outputs and files, and
//! names that go nowhere.

use expect_test::{Expect, expect};

use super::mark;
use crate::fixture::Fixture;

fn check(fixture: &str, expect: Expect) {
    let (host, pos) = Fixture::parse(fixture).position();
    let analysis = host.analysis();
    let mut out = String::new();
    for t in analysis.goto_definition(pos).unwrap() {
        let path = analysis.file_path(t.file).unwrap();
        let text = analysis.file_text(t.file).unwrap();
        assert!(t.full_range.end() <= crate::TextSize::of(text.as_str()));
        match t.focus_range {
            Some(r) => {
                assert!(t.full_range.contains_range(r), "{t:?}");
                out.push_str(&format!("{:?} {}\n", t.kind, mark(&path, &text, r)));
            }
            None => out.push_str(&format!("{:?} {path} (whole file)\n", t.kind)),
        }
    }
    expect.assert_eq(&out);
}

const RESEARCH: &str = r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
input depth: "How deep"
output findings = session "Research {topic}"
output sources = session "List sources"
"#;

#[test]
fn agents_blocks_and_variables() {
    check(
        "agent writer:\n  model: opus\nsession: wri$0ter\n",
        expect![[r#"
            Agent /ws/main.prose:1 agent <writer>:
        "#]],
    );
    check(
        "do rev$0iew\nblock review:\n  session \"r\"\n",
        expect![[r#"
            Block /ws/main.prose:2 block <review>:
        "#]],
    );
    check(
        "let draft = session \"d\"\nsession \"x\"\n  context: [dr$0aft]\n",
        expect![[r#"
            Variable /ws/main.prose:1 let <draft> = session "d"
        "#]],
    );
    check(
        "const plan = session \"p\"\nsession \"Use {plan$0}\"\n",
        expect![[r#"
            Constant /ws/main.prose:1 const <plan> = session "p"
        "#]],
    );
    check(
        "session review: critic\nagent critic:\n  model: opus\nsession \"{re$0view}\"\n",
        expect![[r#"
            Session /ws/main.prose:1 session <review>: critic
        "#]],
    );
    check(
        "let { a, b } = x\nsession \"{$0b}\"\n",
        expect![[r#"
            Variable /ws/main.prose:1 let { a, <b> } = x
        "#]],
    );
    check(
        "parallel:\n  s = session \"a\"\nsession \"c\"\n  context: { $0s }\n",
        expect![[r#"
            Variable /ws/main.prose:2   <s> = session "a"
        "#]],
    );
}

#[test]
fn scoped_variables() {
    check(
        "block review(topic):\n  session \"{to$0pic}\"\n",
        expect![[r#"
            Parameter /ws/main.prose:1 block review(<topic>):
        "#]],
    );
    check(
        "for f, i in xs:\n  session \"{f} {i$0}\"\n",
        expect![[r#"
            Variable /ws/main.prose:1 for f, <i> in xs:
        "#]],
    );
    check(
        "try:\n  session \"a\"\ncatch as err:\n  session \"b\"\n    context: e$0rr\n",
        expect![[r#"
            Variable /ws/main.prose:3 catch as <err>:
        "#]],
    );
    check(
        "let r = xs | reduce(acc, x):\n  session \"{acc} {$0x}\"\n",
        expect![[r#"
            Variable /ws/main.prose:1 let r = xs | reduce(acc, <x>):
        "#]],
    );
    check(
        "let r = xs | map:\n  session \"{it$0em}\"\n",
        expect![[r#"
            Variable /ws/main.prose:1 let r = xs | <map>:
        "#]],
    );
}

#[test]
fn definition_goes_to_itself() {
    check(
        "agent wri$0ter:\n  model: opus\n",
        expect![[r#"
            Agent /ws/main.prose:1 agent <writer>:
        "#]],
    );
    check(
        "let x$0 = 1\n",
        expect![[r#"
            Variable /ws/main.prose:1 let <x> = 1
        "#]],
    );
}

#[test]
fn block_named_argument_goes_to_parameter() {
    check(
        "block review(topic, depth):\n  session \"{topic}\"\ndo review(de$0pth: 2)\n",
        expect![[r#"
            Parameter /ws/main.prose:1 block review(topic, <depth>):
        "#]],
    );
}

#[test]
fn skill_string_goes_to_import() {
    check(
        "import \"web-search\" from \"github:x/skills\"\nagent a:\n  skills: [\"web-se$0arch\"]\n",
        expect![[r#"
            Skill /ws/main.prose:1 import <"web-search"> from "github:x/skills"
        "#]],
    );
}

#[test]
fn imported_program_input_output_and_file() {
    let main = |body: &str| format!("{RESEARCH}#- /ws/main.prose\n{body}");
    check(
        &main("use \"@alice/research\"\nlet r = research(to$0pic: \"x\")\n"),
        expect![[r#"
            Input /ws/.prose/imports/alice--research/program.prose:1 input <topic>: "What to research"
        "#]],
    );
    check(
        &main("use \"@alice/research\" as r\nlet x = r(topic: \"x\")\nsession \"{x.sour$0ces}\"\n"),
        expect![[r#"
            Output /ws/.prose/imports/alice--research/program.prose:4 output <sources> = session "List sources"
        "#]],
    );
    check(
        &main(
            "use \"@alice/research\" as r\nlet x = r(topic: \"x\")\nsession \"s\"\n  context: x.fin$0dings\n",
        ),
        expect![[r#"
            Output /ws/.prose/imports/alice--research/program.prose:3 output <findings> = session "Research {topic}"
        "#]],
    );
    check(
        &main("use \"@alice/research\"\nlet { fin$0dings } = research(topic: \"x\")\n"),
        expect![[r#"
            Output /ws/.prose/imports/alice--research/program.prose:3 output <findings> = session "Research {topic}"
        "#]],
    );
    check(
        &main("use \"@alice/research\" as r\nlet x = $0r(topic: \"x\")\n"),
        expect![[r#"
            File /ws/.prose/imports/alice--research/program.prose (whole file)
        "#]],
    );
    check(
        &main("use \"@alice/re$0search\"\n"),
        expect![[r#"
            File /ws/.prose/imports/alice--research/program.prose (whole file)
        "#]],
    );
    check(
        &main("use \"@alice/research\" as r$0\n"),
        expect![[r#"
            File /ws/.prose/imports/alice--research/program.prose (whole file)
        "#]],
    );
}

#[test]
fn unavailable_program_goes_to_its_use() {
    check(
        "use \"@bob/critique\" as c\nc$0(topic: 1)\n",
        expect![[r#"
            Program /ws/main.prose:1 use "@bob/critique" as <c>
        "#]],
    );
}

#[test]
fn local_path_import() {
    check(
        "#- /ws/lib/helper.prose\ninput x: \"an x\"\n#- /ws/main.prose\nuse \"./lib/helper.prose\"\nhelper($0x: 1)\n",
        expect![[r#"
            Input /ws/lib/helper.prose:1 input <x>: "an x"
        "#]],
    );
}

#[test]
fn unavailable_and_unresolved_go_nowhere() {
    check("use \"@bob/crit$0ique\"\n", expect![[""]]);
    check(
        "use \"@bob/critique\"\ncritique(to$0pic: 1)\n",
        expect![[""]],
    );
    check("session: nob$0ody\n", expect![[""]]);
    check("session \"{miss$0ing}\"\n", expect![[""]]);
    check(
        &format!(
            "{RESEARCH}#- /ws/main.prose\nuse \"@alice/research\"\nlet x = research(nope$0: 1)\n"
        ),
        expect![[""]],
    );
    check(
        "let s = session \"a\"\nsession \"{s.fie$0ld}\"\n",
        expect![[""]],
    );
}

#[test]
fn off_names_and_broken_input() {
    check("$0", expect![[""]]);
    check("session \"Hel$0lo\"\n", expect![[""]]);
    check("# comm$0ent\n", expect![[""]]);
    check("session \"x\"\n$0", expect![[""]]);
    check("let x = \nsession \"{x$0", expect![""]);
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
            let _ = analysis.goto_definition(pos).unwrap();
        }
    }
}
