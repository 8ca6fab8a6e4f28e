//! The instruction language's work on each guest text, memoised by the
//! text itself: an edit re-analyses and re-checks only the prompts whose
//! text it changed, wherever the others moved to.
//!
//! A guest text is interned with its fragment kind ([`GuestText`]), and two
//! tracked functions hang off it: its analysis ([`instructions_of`]) and
//! its `K` findings in the guest's own offsets ([`findings_of`]). Neither
//! sees the host's positions, so a prompt keeps its memo when text before
//! it is inserted or deleted. The findings ask the workspace about files
//! (`_spawn_` targets) through salsa, so a file appearing re-checks only
//! the prompts that asked about it.
//!
//! Interned texts no longer used are reclaimed by salsa after a few
//! revisions.

use std::sync::{Arc, OnceLock};

use prose_markdown::instructions::{
    FragmentKind, Instructions, Plainness, analyze_instructions, analyze_instructions_as,
};

use crate::{
    auxiliary::WorkspaceFiles,
    db::{Db, SourceFile, Workspace},
};

/// A guest text of the instruction language, with how it is read.
#[salsa::interned]
pub(crate) struct GuestText<'db> {
    #[returns(ref)]
    pub text: Arc<str>,
    pub fragment: FragmentKind,
    /// `prose_markdown::instructions::plainness` of the text, found when
    /// its injection was made.
    pub plainness: Plainness,
}

/// The analysis of a guest text. Texts that hold nothing of the language
/// (most prompts) share one analysis per fragment kind.
#[salsa::tracked(returns(clone), no_eq)]
pub(crate) fn instructions_of<'db>(db: &'db dyn Db, key: GuestText<'db>) -> Arc<Instructions> {
    let fragment = *key.fragment(db);
    let ins = analyze_instructions_as(key.text(db), fragment, *key.plainness(db));
    if ins.is_empty() {
        return empty(fragment, || ins);
    }
    Arc::new(ins)
}

/// The analysis of `text` read as `fragment`: what [`instructions_of`]
/// answers, without interning the text when it is plain (`plainness`,
/// which must be `prose_markdown::instructions::plainness(text)`, says it
/// holds nothing the analysis looks for), as most prompts are: its
/// analysis is then the empty text's, shared.
pub(crate) fn instructions(
    db: &dyn Db,
    text: &Arc<str>,
    plainness: Plainness,
    fragment: FragmentKind,
) -> Arc<Instructions> {
    debug_assert_eq!(plainness, prose_markdown::instructions::plainness(text));
    if plainness == Plainness::Plain {
        return empty(fragment, || analyze_instructions("", fragment));
    }
    instructions_of(db, GuestText::new(db, text.clone(), fragment, plainness))
}

/// The one analysis of each fragment kind that holds nothing of the
/// language (`fresh` makes such an analysis, kept if none was before).
fn empty(fragment: FragmentKind, fresh: impl FnOnce() -> Instructions) -> Arc<Instructions> {
    static PROMPT: OnceLock<Arc<Instructions>> = OnceLock::new();
    static FILE: OnceLock<Arc<Instructions>> = OnceLock::new();
    let cell = match fragment {
        FragmentKind::Prompt => &PROMPT,
        FragmentKind::File => &FILE,
    };
    cell.get_or_init(|| Arc::new(fresh())).clone()
}

/// The `K` findings of a guest text of `file`, in the guest's offsets
/// (paths in it are looked up from the file's root).
#[salsa::tracked(returns(ref))]
pub(crate) fn findings_of<'db>(
    db: &'db dyn Db,
    key: GuestText<'db>,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> Vec<prose_markdown::Diagnostic> {
    let ins = instructions_of(db, key);
    let files = WorkspaceFiles::of(db, file, workspace);
    prose_markdown::instructions::check(key.text(db), &ins, &files)
}
