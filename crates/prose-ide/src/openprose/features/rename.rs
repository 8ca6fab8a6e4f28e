//! Rename: change a name at its definition and at every reference, in
//! every file that must change with it.
//!
//! The edits are the occurrences of find references
//! ([`crate::features::references`]): only the identifier is replaced, so
//! `{draft.title}` becomes `{plan.title}`; a `use` without `as` gets an
//! alias (` as NEW`) instead of an edited path; renaming a program's `input`
//! or `output` also renames the named arguments, property reads and
//! destructured names (with the destructured variable's uses) in the files
//! that import it; renaming a name destructured from a program's result
//! renames the program's output.
//!
//! A rename is refused, with a message saying why, when:
//!
//! - the new name is not an identifier or is a keyword;
//! - it collides with a name of the same namespace: agents and blocks
//!   collide with each other (`session:` and `do` must stay unambiguous,
//!   P505), imported programs with imported programs, and variables with
//!   inputs and every program-wide binding, with scoped variables (loop,
//!   parameter, pipeline, ...) whose scope holds an occurrence (the renamed
//!   name would be captured), and, for a scoped variable, with scoped
//!   variables of an enclosing or enclosed scope (shadowing);
//! - the name has no definition in the workspace: an unresolved reference,
//!   the implicit pipeline `item`, a named argument or property of a program
//!   that is not available locally;
//! - a skill (its name is a string that must match the imported skill);
//! - an agent whose memory is stored under its name (`persist: project` or
//!   `user`): the memory would be orphaned;
//! - the edit would change a file outside the workspace or a fetched copy
//!   of an imported program under `.prose/` (unless it is the file being
//!   edited).

use std::collections::BTreeMap;

use prose_syntax::{AstNode, SyntaxKind, SyntaxNode, TextRange, TextSize, ast};

use crate::{
    FileId,
    contract::{Persist, agent_persist},
    db::SourceFile,
    features::{
        navigation::{Nav, What, classify, destructured_output, line_number, node_at},
        references::{Occurrence, Role, occurrences},
    },
    semantics::{Def, DefId, DefKind, FileSemantics},
};

/// Replace `range` with `new_text` (an empty range inserts).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// Edits to several files; each file's edits are sorted and disjoint.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct SourceChange {
    pub edits: Vec<(FileId, Vec<TextEdit>)>,
}

/// Why a rename cannot be done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenameError {
    pub message: String,
    /// There is no name at the position at all (a keyword, a string, a
    /// blank), as opposed to a name that cannot be renamed for a reason.
    /// The server answers `prepareRename` with `null` for these.
    pub nothing_here: bool,
}

impl RenameError {
    /// The answer where the cursor is on nothing that can be renamed.
    pub fn nothing_here() -> RenameError {
        RenameError {
            message: "There is no name to rename here".to_string(),
            nothing_here: true,
        }
    }
}

fn refuse<T>(message: impl Into<String>) -> Result<T, RenameError> {
    Err(RenameError {
        message: message.into(),
        nothing_here: false,
    })
}

/// What a rename at a position would change.
pub(crate) struct Plan {
    /// The name at the cursor.
    pub(crate) range: TextRange,
    /// The file of the definition being renamed, and the definition.
    file: SourceFile,
    def: DefId,
    occurrences: Vec<Occurrence>,
}

pub(crate) fn plan(nav: &Nav<'_>, file: SourceFile, offset: TextSize) -> Result<Plan, RenameError> {
    let Some(hit) = classify(nav, file, offset) else {
        return Err(RenameError::nothing_here());
    };
    let (f, def) = match &hit.what {
        What::Def { file: f, def } => (*f, *def),
        What::UsePath {
            program: Some(d), ..
        } => (file, *d),
        What::UsePath { program: None, .. } => {
            return Err(RenameError {
                message: "This `use` binds no name to rename".into(),
                nothing_here: true,
            });
        }
        What::Unresolved { name, reason, .. } => {
            return refuse(format!(
                "Cannot rename `{name}`: {reason}, so there is no definition in the workspace to rename"
            ));
        }
    };
    let destructured = destructured_output(nav, f, def);
    let (f, def) = destructured.unwrap_or((f, def));
    let d = nav.sema(f).def(def);
    match d.kind {
        DefKind::PipelineItem => {
            return refuse(
                "Cannot rename `item`: it is the implicit variable of a `map`, `filter` or `pmap` body and is declared nowhere in the program",
            );
        }
        DefKind::Skill => {
            return refuse(format!(
                "Cannot rename the skill `{}`: skills are named by strings that must match the imported skill's own name",
                d.name
            ));
        }
        DefKind::Agent => {
            if let Some(message) = persistent_agent(nav, f, d) {
                return refuse(message);
            }
        }
        _ => {}
    }
    let occurrences = occurrences(nav, f, def);
    if let Some((o, reason)) = occurrences
        .iter()
        .filter(|o| o.file != file)
        .find_map(|o| Some((o, nav.foreign_reason(o.file)?)))
    {
        let path = nav.path(o.file);
        let why = if destructured.is_some() {
            format!(
                "it is destructured from the output `{}` of an imported program and must keep that name; renaming the output would edit `{path}`, {reason}",
                d.name
            )
        } else {
            format!("that would edit `{path}`, {reason}")
        };
        return refuse(format!("Cannot rename `{}`: {why}", d.name));
    }
    Ok(Plan {
        range: hit.range,
        file: f,
        def,
        occurrences,
    })
}

/// Why an agent cannot be renamed: its memory is stored under its name.
fn persistent_agent(nav: &Nav<'_>, f: SourceFile, d: &Def) -> Option<String> {
    let agent = node_at(&nav.root(f), d.range, |k| k == SyntaxKind::AGENT_DEF)
        .and_then(ast::AgentDef::cast)?;
    let (scope, dir) = match agent_persist(&agent)? {
        Persist::Project => ("project", format!(".prose/agents/{}/", d.name)),
        Persist::User => ("user", format!("~/.prose/agents/{}/", d.name)),
        Persist::Execution | Persist::Path(_) => return None,
    };
    Some(format!(
        "Cannot rename `{}`: the agent has `persist: {scope}`, so its memory is kept in `{dir}` under its name; renaming it would lose that memory (move the folder and rename by hand)",
        d.name
    ))
}

/// Why `name` cannot be a name.
fn invalid_name(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("The new name is empty".into());
    }
    if !prose_syntax::lexer::is_ident(name) {
        return Some(format!(
            "`{name}` is not a valid name: a name starts with a letter or `_`, goes on with letters, digits and `_`, and may join such words with single `-`"
        ));
    }
    if SyntaxKind::from_keyword(name).is_some() {
        return Some(format!(
            "`{name}` is a keyword and cannot be used as a name"
        ));
    }
    None
}

pub(crate) fn rename(
    nav: &Nav<'_>,
    file: SourceFile,
    offset: TextSize,
    new_name: &str,
) -> Result<SourceChange, RenameError> {
    let plan = plan(nav, file, offset)?;
    if let Some(message) = invalid_name(new_name) {
        return refuse(message);
    }
    let old = &nav.sema(plan.file).def(plan.def).name;
    if old == new_name {
        return Ok(SourceChange::default());
    }

    let mut by_file: BTreeMap<&str, (SourceFile, Vec<&Occurrence>)> = BTreeMap::new();
    for o in &plan.occurrences {
        by_file
            .entry(nav.path(o.file))
            .or_insert_with(|| (o.file, Vec::new()))
            .1
            .push(o);
    }

    for (path, (f, occs)) in &by_file {
        let renamed: Vec<DefId> = occs.iter().filter_map(|o| o.def).collect();
        if renamed.is_empty() {
            continue;
        }
        let sema = nav.sema(*f);
        let ranges: Vec<TextRange> = occs.iter().map(|o| o.range).collect();
        if let Some(other) = collision(sema, &renamed, &ranges, new_name) {
            let line = line_number(nav.text(*f), other.name_range.start());
            let place = if *f == file {
                format!("line {line}")
            } else {
                format!("line {line} of `{path}`")
            };
            return refuse(format!(
                "Cannot rename `{old}` to `{new_name}`: it would collide with the {} `{new_name}` defined on {place}",
                other.kind.describe()
            ));
        }
    }

    let mut change = SourceChange::default();
    for (f, occs) in by_file.into_values() {
        let Some(id) = nav.file_id(f) else { continue };
        let root = nav.root(f);
        let mut edits: Vec<TextEdit> = occs.iter().map(|o| edit_for(&root, o, new_name)).collect();
        edits.sort_by_key(|e| (e.range.start(), e.range.end()));
        edits.dedup();
        change.edits.push((id, edits));
    }
    change.edits.sort_by_key(|(id, _)| *id);
    Ok(change)
}

fn edit_for(root: &SyntaxNode, o: &Occurrence, new_name: &str) -> TextEdit {
    if o.role == Role::ImplicitDecl
        && let Some(lit) = node_at(root, o.range, |k| k == SyntaxKind::STRING)
    {
        return TextEdit {
            range: TextRange::empty(lit.text_range().end()),
            new_text: format!(" as {new_name}"),
        };
    }
    TextEdit {
        range: o.range,
        new_text: new_name.to_string(),
    }
}

/// A definition named `new` that the definitions `renamed` would collide
/// with once renamed (`ranges`: where the renamed name will be written).
fn collision<'s>(
    sema: &'s FileSemantics,
    renamed: &[DefId],
    ranges: &[TextRange],
    new: &str,
) -> Option<&'s Def> {
    let first = sema.def(*renamed.first()?);
    let is_program_wide = |k: DefKind| k == DefKind::Input || k.is_flat_binding();
    sema.defs
        .iter()
        .enumerate()
        .filter(|(i, d)| d.name == new && !renamed.contains(&DefId(*i as u32)))
        .map(|(_, d)| d)
        .filter(|other| match first.kind {
            DefKind::Agent | DefKind::Block => {
                matches!(other.kind, DefKind::Agent | DefKind::Block)
            }
            DefKind::Program => other.kind == DefKind::Program,
            DefKind::Skill => other.kind == DefKind::Skill,
            _ if !other.kind.is_variable() => false,
            k if is_program_wide(k) => {
                is_program_wide(other.kind)
                    || other
                        .scope
                        .is_some_and(|s| ranges.iter().any(|r| s.contains_range(*r)))
            }
            _ => {
                is_program_wide(other.kind)
                    || match (first.scope, other.scope) {
                        (Some(a), Some(b)) => a.contains_range(b) || b.contains_range(a),
                        _ => false,
                    }
            }
        })
        .min_by_key(|d| d.name_range.start())
}

#[cfg(test)]
mod tests {
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
}
