//! Code lenses: actions shown above a line of a document ("▶ Run
//! program"), as plain data. Each language says where its lenses go and
//! what they do ([`LensCommand`]); the server turns a command into the
//! protocol's command id and arguments in one place
//! (`crates/prose-lsp/src/handlers/code_lens.rs`), so a new lens is one
//! variant here and one arm there.

use prose_syntax::TextRange;

/// A lens: where it stands, its title and what clicking it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeLens {
    /// The range it belongs to (editors show it above its first line).
    pub range: TextRange,
    pub title: String,
    pub command: LensCommand,
}

/// What a lens does when clicked. The document the lens belongs to is
/// implied (the server adds its URI to the arguments).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LensCommand {
    /// Run the program (`prose.run`).
    RunProgram,
    /// Show the program's execution plan (`prose.dryRun`).
    DryRun,
    /// Show the first of the errors that block a run (`prose.revealErrors`).
    RevealErrors,
    /// Show the messages a prompt file turns into, as the model receives
    /// them (`prose.showModelView`).
    ShowModelView,
    /// Nothing: a lens that only informs (e.g. why running is disabled).
    None,
}
