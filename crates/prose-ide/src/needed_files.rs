//! Every path a file's diagnostics may depend on, whatever its kind: what
//! [`crate::Analysis::external_paths`] answers, as a salsa query.
//!
//! The answer is asked after every edit (the server loads what is new),
//! and after most edits it is the same: the OpenProse needs
//! (`openprose/external.rs`) and what the injected guests name
//! ([`guest_paths`]) are queries of their own whose unchanged results are
//! backdated, so the list below is only made again, deduplicated and
//! shared, when one of them changed.

use std::{collections::BTreeSet, sync::Arc};

use crate::{
    FileKind,
    auxiliary::WorkspaceFiles,
    db::{self, Db, SourceFile, Workspace},
    injection, markdown,
    openprose::external::{self, ExternalPaths},
};

/// The paths `file` may depend on, each list without repeats.
#[salsa::tracked(returns(clone))]
pub(crate) fn needed_files(db: &dyn Db, file: SourceFile, ws: Workspace) -> Arc<ExternalPaths> {
    let kind = db::file_kind(db, file, Some(ws));
    let mut out = match kind {
        FileKind::OpenProse => external::external_paths(db, file, ws).clone(),
        _ => ExternalPaths::default(),
    };
    let guests = guest_paths(db, file, ws);
    out.memory.extend(guests.memory.iter().cloned());
    out.imports.extend(guests.imports.iter().cloned());
    if kind == FileKind::PromptFile {
        out.aux.extend(markdown::read_paths(db, file, ws));
    }
    out.aux.extend(guests.aux.iter().cloned());
    for list in [&mut out.memory, &mut out.imports, &mut out.aux] {
        let mut seen = BTreeSet::new();
        list.retain(|p| seen.insert(p.clone()));
    }
    Arc::new(out)
}

/// What the guests of `file` need: the memory files and imports of its
/// OpenProse fences, and the `_spawn_` files its instructions name.
#[salsa::tracked(returns(ref))]
fn guest_paths(db: &dyn Db, file: SourceFile, ws: Workspace) -> ExternalPaths {
    let mut out = ExternalPaths::default();
    if db::file_kind(db, file, Some(ws)) == FileKind::OpenProse {
        // A program's guests are its prompts: their `_spawn_` files, kept
        // per statement (no fence, so nothing else).
        let files = WorkspaceFiles::of(db, file, Some(ws));
        out.aux = crate::openprose::injections::statement_prompts(db, file)
            .iter()
            .flat_map(|(_, prompts)| &prompts.spawns)
            .map(|p| files.key(p))
            .collect();
        return out;
    }
    for g in injection::features::guest_files(db, Some(ws), file) {
        let inner = external::external_paths(db, g, ws);
        out.memory.extend(inner.memory.iter().cloned());
        out.imports.extend(inner.imports.iter().cloned());
    }
    out.aux = injection::features::aux_paths(db, Some(ws), file);
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::AnalysisHost;

    const PROGRAM: &str = "agent captain:\n  model: opus\n  persist: project\nresume: captain\n  prompt: \"Continue. _spawn_ `notes.md`\"\nsession \"hello\"\n";

    /// Typing in a prompt that names no file leaves the answer as it was
    /// (the same shared list); naming another file changes it, to what a
    /// fresh analysis answers.
    #[test]
    fn kept_while_its_sources_do_not_change() {
        let mut host = AnalysisHost::new();
        let file = host.set_file_text("/ws/p.prose", PROGRAM);
        let first = host.analysis().needed_files(file).unwrap();
        assert_eq!(first.memory, ["/ws/.prose/agents/captain/memory.md"]);
        assert_eq!(first.aux, ["/ws/notes.md"]);
        host.set_file_text("/ws/p.prose", PROGRAM.replace("hello", "hello there"));
        let second = host.analysis().needed_files(file).unwrap();
        assert!(Arc::ptr_eq(&first, &second));
        let text = PROGRAM.replace("notes.md", "plan.md");
        host.set_file_text("/ws/p.prose", text.clone());
        let third = host.analysis().needed_files(file).unwrap();
        assert_eq!(third.aux, ["/ws/plan.md"]);
        let mut fresh = AnalysisHost::new();
        let id = fresh.set_file_text("/ws/p.prose", text);
        assert_eq!(*third, fresh.analysis().external_paths(id).unwrap());
    }
}
