//! Document highlight: the occurrences, in the current file, of the name
//! under the cursor, each marked as a read or a write.
//!
//! The occurrences are those of find references (see
//! [`crate::features::references`]), kept to the current file. Definitions
//! (including the implicit name inside a `use` path), assignment targets
//! and named arguments of program calls are writes; everything else is a
//! read. For an imported program's input or output, the highlight shows the
//! named arguments and property reads in this file.

use prose_syntax::{TextRange, TextSize};

use crate::{
    db::SourceFile,
    features::{
        navigation::{Nav, classify},
        references::{Role, occurrences_of_hit},
    },
};

/// Whether an occurrence reads or sets the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    Read,
    Write,
}

pub(crate) fn highlight_related(
    nav: &Nav<'_>,
    file: SourceFile,
    offset: TextSize,
) -> Vec<(TextRange, Access)> {
    let Some(hit) = classify(nav, file, offset) else {
        return Vec::new();
    };
    let mut out: Vec<(TextRange, Access)> = occurrences_of_hit(nav, file, &hit, Some(file))
        .into_iter()
        .filter(|o| o.file == file)
        .filter_map(|o| {
            let access = match o.role {
                Role::Decl | Role::ImplicitDecl | Role::Write => Access::Write,
                Role::Read => Access::Read,
                Role::Follow => return None,
            };
            Some((o.range, access))
        })
        .collect();
    out.sort_by_key(|(r, _)| (r.start(), r.end()));
    out.dedup_by_key(|(r, _)| *r);
    out
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::Access;
    use crate::{features::navigation::mark, fixture::Fixture};

    fn check(fixture: &str, expect: Expect) {
        let (host, pos) = Fixture::parse(fixture).position();
        let analysis = host.analysis();
        let text = analysis.file_text(pos.file).unwrap();
        let mut out = String::new();
        for (range, access) in analysis.highlight_related(pos).unwrap() {
            let tag = match access {
                Access::Read => "read ",
                Access::Write => "write",
            };
            out.push_str(&format!("{tag} {}\n", mark("", &text, range)));
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn definitions_and_assignments_write_uses_read() {
        check(
            r#"let draft = session "d"
session "Improve {dr$0aft}"
  context: draft
draft = session "again"
  context: { draft }
"#,
            expect![[r#"
                write :1 let <draft> = session "d"
                read  :2 session "Improve {<draft>}"
                read  :3   context: <draft>
                write :4 <draft> = session "again"
                read  :5   context: { <draft> }
            "#]],
        );
    }

    #[test]
    fn agents_sessions_and_blocks() {
        check(
            "agent critic:\n  model: opus\nsession review: cri$0tic\nresume: critic\n",
            expect![[r#"
                write :1 agent <critic>:
                read  :3 session review: <critic>
                read  :4 resume: <critic>
            "#]],
        );
        check(
            "session rev$0iew: critic\nsession \"{review}\"\n",
            expect![[r#"
                write :1 session <review>: critic
                read  :2 session "{<review>}"
            "#]],
        );
    }

    #[test]
    fn imported_program_uses_in_this_file() {
        check(
            r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What"
output findings = session "Research {topic}"
#- /ws/main.prose
use "@alice/research"
let r = research(top$0ic: "a")
let s = research(topic: "b")
session "{r.findings}"
"#,
            expect![[r#"
                write :2 let r = research(<topic>: "a")
                write :3 let s = research(<topic>: "b")
            "#]],
        );
        check(
            r#"#- /ws/.prose/imports/alice--research/program.prose
output findings = session "Research"
#- /ws/main.prose
use "@alice/research"
let r = research()
session "{r.findings} {r.fin$0dings}"
let { findings } = research()
session "{findings}"
"#,
            expect![[r#"
                read  :3 session "{r.<findings>} {r.findings}"
                read  :3 session "{r.findings} {r.<findings>}"
                read  :4 let { <findings> } = research()
            "#]],
        );
        check(
            "use \"@alice/res$0earch\"\nresearch(topic: 1)\n",
            expect![[r#"
                write :1 use "@alice/<research>"
                read  :2 <research>(topic: 1)
            "#]],
        );
    }

    #[test]
    fn parameters_and_unresolved_names() {
        check(
            "block review(topic):\n  session \"{topic}\"\ndo review(to$0pic: \"x\")\n",
            expect![[r#"
                write :1 block review(<topic>):
                read  :2   session "{<topic>}"
                write :3 do review(<topic>: "x")
            "#]],
        );
        check(
            "session \"{nope}\"\nsession \"x\"\n  context: [no$0pe, other]\n",
            expect![[r#"
                read  :1 session "{<nope>}"
                read  :3   context: [<nope>, other]
            "#]],
        );
    }

    #[test]
    fn nothing_here() {
        check("$0", expect![[""]]);
        check("session \"a\"$0\n", expect![[""]]);
        check("let x = 1\n\n$0\n", expect![[""]]);
    }
}
