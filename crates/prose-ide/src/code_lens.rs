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
    // Job entries (docs/jobs.md).
    /// Show the fully expanded prompt of the task `task` of the document
    /// (`prose.showTaskPrompt`; the text: `Analysis::expanded_prompt`).
    ShowTaskPrompt { task: String },
    /// Run the task `task` of the document (`prose.runTask`).
    RunTask { task: String },
    /// Show the plan of the task `task` (`prose.dryRunTask`).
    DryRunTask { task: String },
}

impl LensCommand {
    /// Whether the command runs something (a program, a task) or leads to
    /// running it: such lenses are disabled in a workspace the editor has
    /// not trusted ([`untrusted`]).
    pub fn runs(&self) -> bool {
        match self {
            // The runner's lenses.
            LensCommand::RunProgram
            | LensCommand::DryRun
            | LensCommand::RevealErrors
            | LensCommand::RunTask { .. }
            | LensCommand::DryRunTask { .. } => true,
            LensCommand::None | LensCommand::ShowTaskPrompt { .. } | LensCommand::ShowModelView => {
                false
            }
        }
    }
}

/// The title of the lens that stands for the run lenses of a file with
/// errors: `3 errors block the run`, `1 error blocks the run`.
pub fn blocked_title(errors: usize) -> String {
    if errors == 1 {
        "1 error blocks the run".to_string()
    } else {
        format!("{errors} errors block the run")
    }
}

/// The title of the lens that replaces the run lenses of a range in a
/// workspace the editor has not trusted.
pub const UNTRUSTED: &str = "Run disabled: workspace not trusted";

/// The lenses of a file in a workspace the editor has not trusted: the
/// lenses that run something ([`LensCommand::runs`]) are replaced, per
/// range, by one [`UNTRUSTED`] lens without a command; the others stay.
pub fn untrusted(lenses: Vec<CodeLens>) -> Vec<CodeLens> {
    let mut out: Vec<CodeLens> = Vec::with_capacity(lenses.len());
    for lens in lenses {
        if !lens.command.runs() {
            out.push(lens);
        } else if !out
            .iter()
            .any(|l| l.range == lens.range && l.title == UNTRUSTED)
        {
            out.push(CodeLens {
                range: lens.range,
                title: UNTRUSTED.to_string(),
                command: LensCommand::None,
            });
        }
    }
    out
}
