//! Find references: every place the name under the cursor stands for the
//! same thing, and the occurrence model that document highlight and rename
//! build on.
//!
//! What counts as the same thing:
//!
//! - a definition and every reference name resolution resolved to it
//!   (interpolations `{x}` and `{x.y}`, `context:`, `session: agent`,
//!   `do block`, `prog(...)`, assignment targets);
//! - for a variable of the flat, program-wide namespace (`let`, `const`,
//!   `output`, assignments, `session name:`, destructured names), every
//!   binding of that name in the same frame (the program, or one `block`
//!   body): they write the same `bindings/{name}.md`, e.g. a `let result` in
//!   each arm of an `if`;
//! - for a skill, the `import` and each matching `skills:` entry;
//! - for an `input` or `output` of a program, also its uses in every
//!   workspace file that imports the program (`use` resolving to it): named
//!   arguments `prog(topic: ...)`, property reads `r.findings` and
//!   `{r.findings}` on a variable bound to a call, and names destructured
//!   from a call `let { findings } = prog(...)`;
//! - for a name that resolves to nothing, the other unresolved references
//!   to the same name.
//!
//! Not covered: property reads through a variable that was assigned a
//! program's result indirectly (`let a = r` then `a.findings`), files that
//! the host has not loaded, and named arguments or properties of a program
//! that is not available locally (such a name finds only itself).

use prose_syntax::{AstNode, SyntaxKind, SyntaxNode, TextRange, ast};

use crate::{
    FileRange,
    db::SourceFile,
    features::navigation::{Hit, Nav, What, bound_program, classify, implicit_name_range, node_at},
    semantics::{Def, DefId, DefKind, FileSemantics, RefKind, RefSite},
};

/// How an occurrence relates to the symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A defining name.
    Decl,
    /// The implicit name of a `use` without `as` (inside its path string);
    /// renaming adds an alias instead of replacing it.
    ImplicitDecl,
    /// A use that sets the value: an assignment target, a named argument.
    Write,
    Read,
    /// Not a use of the symbol, but renamed with it: the uses of a variable
    /// destructured from a renamed output, which must keep its name.
    Follow,
}

impl Role {
    pub(crate) fn is_decl(self) -> bool {
        matches!(self, Role::Decl | Role::ImplicitDecl)
    }
}

/// One place a symbol's name is written.
#[derive(Debug, Clone)]
pub(crate) struct Occurrence {
    pub(crate) file: SourceFile,
    pub(crate) range: TextRange,
    pub(crate) role: Role,
    /// The definition this occurrence makes in its file, if any (so that a
    /// rename can check that file's names).
    pub(crate) def: Option<DefId>,
}

pub(crate) fn references(
    nav: &Nav<'_>,
    file: SourceFile,
    offset: prose_syntax::TextSize,
    include_declaration: bool,
) -> Vec<FileRange> {
    let Some(hit) = classify(nav, file, offset) else {
        return Vec::new();
    };
    occurrences_of_hit(nav, file, &hit, None)
        .into_iter()
        .filter(|o| o.role != Role::Follow && (include_declaration || !o.role.is_decl()))
        .filter_map(|o| {
            Some(FileRange {
                file: nav.file_id(o.file)?,
                range: o.range,
            })
        })
        .collect()
}

/// The occurrences of what a classified name stands for.
/// With `only`, just the occurrences in that file (without looking
/// through the other files of the workspace).
pub(crate) fn occurrences_of_hit(
    nav: &Nav<'_>,
    file: SourceFile,
    hit: &Hit,
    only: Option<SourceFile>,
) -> Vec<Occurrence> {
    match &hit.what {
        What::Def { file: f, def } => occurrences_in(nav, *f, *def, only),
        What::UsePath {
            program: Some(def), ..
        } => occurrences_in(nav, file, *def, only),
        What::UsePath { program: None, .. } => Vec::new(),
        What::Unresolved {
            name,
            kind: Some(kind),
            ..
        } => unresolved_occurrences(nav, file, name, *kind),
        What::Unresolved { kind: None, .. } => vec![Occurrence {
            file,
            range: hit.range,
            role: Role::Read,
            def: None,
        }],
    }
}

/// Every occurrence of the definition `def` of file `f`, sorted by file
/// path and position, without duplicates.
pub(crate) fn occurrences(nav: &Nav<'_>, f: SourceFile, def: DefId) -> Vec<Occurrence> {
    occurrences_in(nav, f, def, None)
}

/// [`occurrences`], only in file `only` when given.
fn occurrences_in(
    nav: &Nav<'_>,
    f: SourceFile,
    def: DefId,
    only: Option<SourceFile>,
) -> Vec<Occurrence> {
    let sema = nav.sema(f);
    let d = sema.def(def);
    let mut out = Vec::new();
    if only.is_none_or(|o| o == f) {
        let group = def_group(sema, def);
        local_occurrences(nav, f, sema, &group, None, &mut out);
        match d.kind {
            DefKind::Skill => skill_occurrences(nav, f, &d.name, &mut out),
            DefKind::Param => block_argument_occurrences(nav, f, d, &mut out),
            _ => {}
        }
    }
    if matches!(d.kind, DefKind::Input | DefKind::Output) {
        for (q, program) in nav.importers(f, only) {
            if d.kind == DefKind::Input {
                argument_occurrences(nav, q, program, &d.name, &mut out);
            } else {
                output_occurrences(nav, q, program, &d.name, &mut out);
            }
        }
    }
    out.sort_by(|a, b| {
        (nav.path(a.file), a.range.start(), a.range.end()).cmp(&(
            nav.path(b.file),
            b.range.start(),
            b.range.end(),
        ))
    });
    out.dedup_by(|a, b| a.file == b.file && a.range == b.range);
    out
}

/// The definitions and references of `group` in `f`; with `follow`, all
/// with that role (a destructured name's uses, renamed with an output).
fn local_occurrences(
    nav: &Nav<'_>,
    f: SourceFile,
    sema: &FileSemantics,
    group: &[DefId],
    follow: Option<Role>,
    out: &mut Vec<Occurrence>,
) {
    let text = nav.text(f);
    for &g in group {
        let gd = sema.def(g);
        if gd.kind == DefKind::PipelineItem {
            // Declared by its operator (`map`), not by a name.
            continue;
        }
        let implicit = gd.kind == DefKind::Program
            && text
                .get(usize::from(gd.name_range.start())..)
                .is_some_and(|t| t.starts_with('"'));
        let (range, role) = if implicit {
            let root = nav.root(f);
            let lit = node_at(&root, gd.name_range, |k| k == SyntaxKind::STRING)
                .and_then(ast::StringLit::cast);
            let range = lit.map_or(gd.name_range, |l| implicit_name_range(text, &l));
            (range, Role::ImplicitDecl)
        } else {
            (gd.name_range, Role::Decl)
        };
        out.push(Occurrence {
            file: f,
            range,
            role: follow.unwrap_or(role),
            def: Some(g),
        });
    }
    for r in &sema.refs {
        if !r.target.is_some_and(|t| group.contains(&t)) {
            continue;
        }
        let role = match r.kind {
            RefKind::Variable(RefSite::AssignTarget) => Role::Write,
            _ => Role::Read,
        };
        out.push(Occurrence {
            file: f,
            range: r.range,
            role: follow.unwrap_or(role),
            def: None,
        });
    }
}

/// The definitions that are one symbol with `def`: for a flat binding,
/// every flat binding of its name in the same frame; otherwise itself.
pub(crate) fn def_group(sema: &FileSemantics, def: DefId) -> Vec<DefId> {
    let d = sema.def(def);
    if !d.kind.is_flat_binding() {
        return vec![def];
    }
    let frame = frame_of(sema, d);
    sema.defs
        .iter()
        .enumerate()
        .filter(|(_, o)| o.kind.is_flat_binding() && o.name == d.name && frame_of(sema, o) == frame)
        .map(|(i, _)| DefId(i as u32))
        .collect()
}

/// The innermost `block` definition holding `d` (`None`: the program).
fn frame_of(sema: &FileSemantics, d: &Def) -> Option<TextRange> {
    sema.defs_of(DefKind::Block)
        .map(|(_, b)| b.range)
        .filter(|r| r.contains_range(d.range) && *r != d.range)
        .min_by_key(|r| r.len())
}

/// `skills: ["name"]` entries naming the skill.
fn skill_occurrences(nav: &Nav<'_>, f: SourceFile, name: &str, out: &mut Vec<Occurrence>) {
    let root = nav.root(f);
    for prop in root.descendants().filter_map(ast::Property::cast) {
        if prop.key() != "skills" || prop.nested().is_some() {
            continue;
        }
        for lit in prop.syntax().descendants().filter_map(ast::StringLit::cast) {
            if lit.value() == name {
                out.push(Occurrence {
                    file: f,
                    range: lit.content_range(),
                    role: Role::Read,
                    def: None,
                });
            }
        }
    }
}

/// The program calls in `q` whose callee resolved to `program`.
fn calls_of(root: &SyntaxNode, sema: &FileSemantics, program: DefId) -> Vec<ast::CallExpr> {
    sema.references_to(program)
        .filter(|r| r.kind == RefKind::Program)
        .filter_map(|r| {
            let call = node_at(root, r.range, |k| k == SyntaxKind::CALL_EXPR)?;
            let call = ast::CallExpr::cast(call)?;
            (call.callee()?.syntax().text_range() == r.range).then_some(call)
        })
        .collect()
}

/// Named arguments `prog(name: ...)` in `q`.
fn argument_occurrences(
    nav: &Nav<'_>,
    q: SourceFile,
    program: DefId,
    name: &str,
    out: &mut Vec<Occurrence>,
) {
    let root = nav.root(q);
    for call in calls_of(&root, nav.sema(q), program) {
        for arg in call.args() {
            if let Some(n) = arg.name().filter(|n| n.text() == name) {
                out.push(Occurrence {
                    file: q,
                    range: n.syntax().text_range(),
                    role: Role::Write,
                    def: None,
                });
            }
        }
    }
}

/// Named arguments `do block(param: ...)` for a block parameter.
fn block_argument_occurrences(
    nav: &Nav<'_>,
    f: SourceFile,
    param: &Def,
    out: &mut Vec<Occurrence>,
) {
    let sema = nav.sema(f);
    let Some((block, _)) = sema
        .defs_of(DefKind::Block)
        .find(|(_, b)| b.range == param.range)
    else {
        return;
    };
    let root = nav.root(f);
    for r in sema
        .references_to(block)
        .filter(|r| r.kind == RefKind::Block)
    {
        let Some(call) =
            node_at(&root, r.range, |k| k == SyntaxKind::DO_CALL).and_then(ast::DoCall::cast)
        else {
            continue;
        };
        for n in call.args().filter_map(|a| a.name()) {
            if n.text() == param.name {
                out.push(Occurrence {
                    file: f,
                    range: n.syntax().text_range(),
                    role: Role::Write,
                    def: None,
                });
            }
        }
    }
}

/// Reads of output `name` in `q`: `r.name`, `{r.name}` on a variable bound
/// to a call, and `let { name } = prog(...)` (whose uses follow a rename).
fn output_occurrences(
    nav: &Nav<'_>,
    q: SourceFile,
    program: DefId,
    name: &str,
    out: &mut Vec<Occurrence>,
) {
    let root = nav.root(q);
    let sema = nav.sema(q);
    for (i, v) in sema.defs.iter().enumerate() {
        let id = DefId(i as u32);
        match v.kind {
            DefKind::Let | DefKind::Const | DefKind::Output | DefKind::Assigned => {}
            DefKind::Destructured if v.name == name => {}
            _ => continue,
        }
        if bound_program(&root, sema, v) != Some(program) {
            continue;
        }
        if v.kind == DefKind::Destructured {
            out.push(Occurrence {
                file: q,
                range: v.name_range,
                role: Role::Read,
                def: Some(id),
            });
            let group: Vec<DefId> = def_group(sema, id)
                .into_iter()
                .filter(|g| *g != id)
                .collect();
            local_occurrences(nav, q, sema, &group, Some(Role::Follow), out);
            local_occurrences(nav, q, sema, &[id], Some(Role::Follow), out);
            continue;
        }
        for r in sema.references_to(id) {
            if let Some((field, at)) = property_read(&root, r.range)
                && field == name
            {
                out.push(Occurrence {
                    file: q,
                    range: at,
                    role: Role::Read,
                    def: None,
                });
            }
        }
    }
}

/// The property read on the variable reference at `range`: `r.field` or
/// `{r.field}`.
fn property_read(root: &SyntaxNode, range: TextRange) -> Option<(String, TextRange)> {
    let name_ref = node_at(root, range, |k| k == SyntaxKind::NAME_REF)?;
    let parent = name_ref.parent()?;
    if let Some(f) = ast::FieldExpr::cast(parent.clone()) {
        if f.receiver()?.syntax() != &name_ref {
            return None;
        }
        let field = f.field()?;
        return Some((field.text(), field.syntax().text_range()));
    }
    let interp = ast::Interpolation::cast(parent)?;
    let field = interp.fields().into_iter().next()?;
    Some((field.text().to_string(), field.text_range()))
}

/// The unresolved references to `name` of the same sort as `kind`.
fn unresolved_occurrences(
    nav: &Nav<'_>,
    f: SourceFile,
    name: &str,
    kind: RefKind,
) -> Vec<Occurrence> {
    let same_sort = |k: RefKind| match (k, kind) {
        (RefKind::Variable(_), RefKind::Variable(_)) => true,
        (a, b) => a == b,
    };
    nav.sema(f)
        .refs
        .iter()
        .filter(|r| r.target.is_none() && r.name == name && same_sort(r.kind))
        .map(|r| Occurrence {
            file: f,
            range: r.range,
            role: Role::Read,
            def: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::{features::navigation::mark, fixture::Fixture};

    fn check_with(fixture: &str, include_declaration: bool, expect: Expect) {
        let (host, pos) = Fixture::parse(fixture).position();
        let analysis = host.analysis();
        let mut out = String::new();
        for r in analysis.references(pos, include_declaration).unwrap() {
            let path = analysis.file_path(r.file).unwrap();
            let text = analysis.file_text(r.file).unwrap();
            out.push_str(&mark(&path, &text, r.range));
            out.push('\n');
        }
        expect.assert_eq(&out);
    }

    fn check(fixture: &str, expect: Expect) {
        check_with(fixture, true, expect);
    }

    #[test]
    fn variable_everywhere_it_is_named() {
        check(
            r#"let draft = session "d"
session "Improve {draft} and {draft.title}"
  context: [draft, other]
dra$0ft = session "again"
  context: { draft }
"#,
            expect![[r#"
                /ws/main.prose:1 let <draft> = session "d"
                /ws/main.prose:2 session "Improve {<draft>} and {draft.title}"
                /ws/main.prose:2 session "Improve {draft} and {<draft>.title}"
                /ws/main.prose:3   context: [<draft>, other]
                /ws/main.prose:4 <draft> = session "again"
                /ws/main.prose:5   context: { <draft> }
            "#]],
        );
    }

    #[test]
    fn without_declaration() {
        check_with(
            "agent a$0:\n  model: opus\nsession: a\nresume: a\n",
            false,
            expect![[r#"
                /ws/main.prose:3 session: <a>
                /ws/main.prose:4 resume: <a>
            "#]],
        );
    }

    #[test]
    fn flat_namespace_binding_in_both_arms() {
        check(
            r#"if **x**:
  let result = session "a"
else:
  let result = session "b"
session "{res$0ult}"
"#,
            expect![[r#"
                /ws/main.prose:2   let <result> = session "a"
                /ws/main.prose:4   let <result> = session "b"
                /ws/main.prose:5 session "{<result>}"
            "#]],
        );
    }

    #[test]
    fn scoped_variables_stay_in_their_scope() {
        check(
            r#"for item in xs:
  session "{it$0em}"
let r = ys | map:
  session "{item}"
"#,
            expect![[r#"
                /ws/main.prose:1 for <item> in xs:
                /ws/main.prose:2   session "{<item>}"
            "#]],
        );
        check(
            "let r = ys | map:\n  session \"{item} {it$0em}\"\n",
            expect![[r#"
                /ws/main.prose:2   session "{<item>} {item}"
                /ws/main.prose:2   session "{item} {<item>}"
            "#]],
        );
    }

    #[test]
    fn blocks_and_parameters() {
        check(
            "block review(topic):\n  session \"{topic}\"\ndo rev$0iew(\"x\")\ndo review(topic: \"y\")\n",
            expect![[r#"
                /ws/main.prose:1 block <review>(topic):
                /ws/main.prose:3 do <review>("x")
                /ws/main.prose:4 do <review>(topic: "y")
            "#]],
        );
        check(
            "block review(topic):\n  session \"{topic}\"\ndo review(\"x\")\ndo review(to$0pic: \"y\")\n",
            expect![[r#"
                /ws/main.prose:1 block review(<topic>):
                /ws/main.prose:2   session "{<topic>}"
                /ws/main.prose:4 do review(<topic>: "y")
            "#]],
        );
    }

    #[test]
    fn skills() {
        check(
            "import \"web\" from \"x\"\nagent a:\n  skills: [\"w$0eb\", \"other\"]\nagent b:\n  skills: [\"web\"]\n",
            expect![[r#"
                /ws/main.prose:1 import <"web"> from "x"
                /ws/main.prose:3   skills: ["<web>", "other"]
                /ws/main.prose:5   skills: ["<web>"]
            "#]],
        );
    }

    #[test]
    fn implicit_import_name() {
        check(
            "use \"@alice/research\"\nlet r = resea$0rch(topic: 1)\n",
            expect![[r#"
                /ws/main.prose:1 use "@alice/<research>"
                /ws/main.prose:2 let r = <research>(topic: 1)
            "#]],
        );
    }

    const PROGRAM: &str = r#"#- /ws/lib/research.prose
input topic: "What to research"
output findings = session "Research {topic}"
#- /ws/other.prose
use "./lib/research.prose" as r
let x = r(topic: "b")
session "{x.findings}"
#- /ws/main.prose
"#;

    #[test]
    fn program_inputs_and_outputs_across_files() {
        check(
            &format!(
                "{PROGRAM}use \"./lib/research.prose\"\nlet r = research(to$0pic: \"a\")\nlet {{ findings }} = research(topic: \"c\")\n"
            ),
            expect![[r#"
                /ws/lib/research.prose:1 input <topic>: "What to research"
                /ws/lib/research.prose:2 output findings = session "Research {<topic>}"
                /ws/main.prose:2 let r = research(<topic>: "a")
                /ws/main.prose:3 let { findings } = research(<topic>: "c")
                /ws/other.prose:2 let x = r(<topic>: "b")
            "#]],
        );
        check(
            &format!(
                "{PROGRAM}use \"./lib/research.prose\"\nlet r = research(topic: \"a\")\nsession \"s\"\n  context: r.fin$0dings\nlet {{ findings }} = research(topic: \"c\")\nsession \"{{findings}}\"\n"
            ),
            expect![[r#"
                /ws/lib/research.prose:2 output <findings> = session "Research {topic}"
                /ws/main.prose:4   context: r.<findings>
                /ws/main.prose:5 let { <findings> } = research(topic: "c")
                /ws/other.prose:3 session "{x.<findings>}"
            "#]],
        );
    }

    #[test]
    fn unresolved_names() {
        check(
            "session \"{nope}\"\nsession \"x\"\n  context: no$0pe\nsession: nope\n",
            expect![[r#"
                /ws/main.prose:1 session "{<nope>}"
                /ws/main.prose:3   context: <nope>
            "#]],
        );
    }

    #[test]
    fn nothing_here() {
        check("$0", expect![[""]]);
        check("session \"te$0xt\"\n", expect![[""]]);
        check("use \"\"$0\n", expect![[""]]);
    }
}
