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
mod tests;
