//! Markdown as a host of injections.
//!
//! - a **prompt file**'s content (what the model receives) is a prompt:
//!   the instruction language as a `Prompt` fragment;
//! - a **markdown file** is an instruction file when it uses the
//!   instruction language or a `[files] instructions` glob names it: the
//!   whole text as a `File` fragment (the guest decides whether it carries
//!   the language, see [`crate::injection::guests`]);
//! - in both, a ```` ```prose ```` (or ```` ```openprose ````) fence holds
//!   an OpenProse program and a ```` ```dialect ```` fence Pattern
//!   Dialect. A fence inside a list item or a quote is handed over without
//!   the container's indentation or `>` markers. A fence whose info string
//!   says `ignore` (```` ```prose ignore ````) is an example meant to be
//!   wrong: it is highlighted and hovered, not checked.

use crate::{
    db::{Db, SourceFile, Workspace, file_root},
    injection::{Escape, GuestLanguage, GuestText, Injection},
    kind::relative_to,
};
use prose_markdown::{
    instructions::FragmentKind,
    markdown::{Fence, Guest},
};

/// A prompt file's content, then its fences.
pub(crate) fn prompt_file(db: &dyn Db, file: SourceFile) -> Vec<Injection> {
    let text = file.text(db);
    let mut out = Vec::new();
    if let Some(content) = super::prompt_file(db, file).content {
        let mut guest = GuestText::at(content.start());
        guest.copy(text, content);
        out.push(Injection::new(
            GuestLanguage::Instructions {
                fragment: FragmentKind::Prompt,
                always: false,
            },
            guest,
            Escape::Verbatim,
        ));
    }
    out.extend(fences(text));
    out
}

/// The whole text as instructions, then the fences.
pub(crate) fn markdown_file(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> Vec<Injection> {
    let text = file.text(db);
    let always = workspace.is_some_and(|ws| {
        let root = file_root(db, file, ws);
        root.is_root
            && relative_to(&root.dir, file.path(db))
                .is_some_and(|rel| root.config.files.is_instructions(rel))
    });
    let mut out = vec![Injection::new(
        GuestLanguage::Instructions {
            fragment: FragmentKind::File,
            always,
        },
        GuestText::whole(text),
        Escape::Verbatim,
    )];
    out.extend(fences(text));
    out
}

/// One injection per fence of a language we know.
fn fences(text: &str) -> Vec<Injection> {
    // Most markdown has no fence of ours: skip the parse.
    if !text.contains("```") && !text.contains("~~~") {
        return Vec::new();
    }
    prose_markdown::markdown::fences(text)
        .iter()
        .filter_map(|f| {
            let language = match f.guest()? {
                Guest::OpenProse => GuestLanguage::OpenProse,
                Guest::Dialect => GuestLanguage::Dialect,
            };
            let mut inj = Injection::new(language, fence_text(text, f), Escape::Verbatim);
            inj.checked = !is_ignored(f);
            Some(inj)
        })
        .collect()
}

/// The fence's content, line by line, without its containers' markers.
fn fence_text(text: &str, f: &Fence) -> GuestText {
    let mut guest = GuestText::at(f.content.start());
    for line in &f.lines {
        guest.copy(text, *line);
    }
    guest
}

/// Whether the info string marks the fence as an example not to check.
fn is_ignored(f: &Fence) -> bool {
    f.info
        .split(|c: char| c.is_whitespace() || c == ',')
        .skip(1)
        .any(|w| w.eq_ignore_ascii_case("ignore"))
}
