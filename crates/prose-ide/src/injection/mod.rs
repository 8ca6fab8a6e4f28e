//! Languages inside languages (docs/languages.md, "Languages inside
//! languages"): a host language hands ranges of its text to a guest
//! language, and the guest's diagnostics, hovers, semantic tokens,
//! completions, links and quick fixes are mapped back to the host file.
//!
//! Two registries make it general:
//!
//! - **hosts** ([`injections`]): for each kind of file, the ranges it
//!   hands over, each an [`Injection`] (the guest language, the guest's
//!   text and how it maps onto the host's, see [`OffsetMap`]). OpenProse
//!   gives its prompt strings (`crate::openprose::injections`), markdown
//!   and prompt files their content and fences
//!   (`crate::markdown::injections`), job entries their prompts
//!   (`crate::jobs::injections`);
//! - **guests** ([`guests`], and the features in `features.rs`): for each
//!   guest language, how its text is analysed and how each feature asks it.
//!   The `_keyword_` instructions and Pattern Dialect are analysed on the
//!   guest text itself; an OpenProse fence is analysed as a file of its own,
//!   which the [`crate::AnalysisHost`] makes for it (`materialize.rs`), so
//!   every OpenProse rule and feature works there unchanged.
//!
//! Diagnostics of a guest keep the guest's code; the configuration of the
//! host file's root (profile, `[severity]`, `select`/`ignore`) applies.

pub(crate) mod features;
mod map;
pub(crate) mod materialize;
pub(crate) mod memo;
pub(crate) mod tokens;

use std::sync::Arc;

use prose_markdown::instructions::{FragmentKind, Instructions, Plainness};
use prose_syntax::{TextRange, TextSize};

use crate::{
    db::{Db, SourceFile, Workspace, file_kind},
    kind::FileKind,
};

pub use map::{GuestText, OffsetMap};

/// A language a host can hand text to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GuestLanguage {
    /// The `_keyword_` instruction language (seed 000). A `File` fragment
    /// (a whole markdown file) carries it only when it uses it
    /// (`prose_markdown::instructions::is_instruction_file`) or when
    /// `always` (a `[files] instructions` glob names it); a `Prompt`
    /// fragment is text an agent reads, checked as the front end checks
    /// prompts.
    Instructions {
        fragment: FragmentKind,
        always: bool,
    },
    /// An OpenProse program (a ```` ```prose ```` fence).
    OpenProse,
    /// Pattern Dialect (a ```` ```dialect ```` fence).
    Dialect,
}

/// How the host writes text that a guest's edit inserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Escape {
    /// As it is (markdown content, fences).
    Verbatim,
    /// Inside an OpenProse string: `\`, `{`, `}` and (in a `"`-string)
    /// `"` and line breaks are escaped.
    OpenProseString { triple: bool },
    /// Inside a JSON string (a job entry's prompt): `\`, `"` and control
    /// characters are escaped.
    JsonString,
}

/// One range of a host's text handed to a guest language.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Injection {
    pub language: GuestLanguage,
    /// The guest's text (escapes decoded, container markers left out);
    /// shared by the copies the per-statement memo hands out and by the
    /// guest's memo key.
    pub text: Arc<str>,
    /// From the guest's text to the host's.
    pub map: OffsetMap,
    /// Guest ranges that the host fills in when the text is used (an
    /// OpenProse interpolation `{topic}`): the guest reports nothing and
    /// answers nothing there; the host does.
    pub opaque: Vec<TextRange>,
    pub escape: Escape,
    /// How much of the instruction language's analysis the guest text
    /// needs (`prose_markdown::instructions::plainness`: none when it is
    /// plain, as most of a program's prompts are), found once when the
    /// injection is made: the per-statement memo keeps it with them, and
    /// the analysis of a text that needs one does not scan it again.
    pub(crate) plainness: Plainness,
    /// Whether the guest's diagnostics are reported (a fence whose info
    /// string says `ignore` is an example meant to be wrong: its hover and
    /// highlighting stay).
    pub checked: bool,
}

impl Injection {
    /// Whether the guest text holds nothing the instruction language's
    /// analysis looks for (its analysis is the empty text's).
    pub(crate) fn plain(&self) -> bool {
        self.plainness == Plainness::Plain
    }

    /// A guest text with no opaque ranges, checked.
    pub fn new(language: GuestLanguage, guest: GuestText, escape: Escape) -> Injection {
        // Built piece by piece: the registry keeps one per prompt string of
        // a file, so it gives back what the growth left over.
        let GuestText { text, mut map } = guest;
        map.shrink_to_fit();
        Injection {
            language,
            plainness: prose_markdown::instructions::plainness(&text),
            text: Arc::from(text),
            map,
            opaque: Vec::new(),
            escape,
            checked: true,
        }
    }

    /// The guest offset of host offset `offset`, if the guest answers there.
    pub fn guest_offset(&self, offset: TextSize) -> Option<TextSize> {
        let g = self.map.to_guest(offset)?;
        (!self.opaque.iter().any(|o| o.contains(g))).then_some(g)
    }

    /// Whether a guest range lies in a range the host fills in.
    pub fn in_opaque(&self, range: TextRange) -> bool {
        self.opaque
            .iter()
            .any(|o| o.contains_range(range) || (range.is_empty() && o.contains(range.start())))
    }

    /// `text` as the host writes it at this injection.
    pub fn host_text(&self, text: &str) -> String {
        match self.escape {
            Escape::Verbatim => text.to_string(),
            Escape::OpenProseString { triple } => {
                let mut out = String::with_capacity(text.len());
                for c in text.chars() {
                    match c {
                        '\\' => out.push_str("\\\\"),
                        '{' => out.push_str("\\{"),
                        '}' => out.push_str("\\}"),
                        '"' if !triple => out.push_str("\\\""),
                        '\n' if !triple => out.push_str("\\n"),
                        '\t' if !triple => out.push_str("\\t"),
                        c => out.push(c),
                    }
                }
                out
            }
            Escape::JsonString => {
                let mut out = String::with_capacity(text.len());
                for c in text.chars() {
                    match c {
                        '\\' => out.push_str("\\\\"),
                        '"' => out.push_str("\\\""),
                        '\n' => out.push_str("\\n"),
                        '\t' => out.push_str("\\t"),
                        c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
                        c => out.push(c),
                    }
                }
                out
            }
        }
    }
}

/// Every injection of a file, in text order: the host registry.
#[salsa::tracked(returns(ref))]
pub fn injections(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Vec<Injection> {
    match file_kind(db, file, workspace) {
        FileKind::OpenProse => crate::openprose::injections::prompt_strings(db, file),
        FileKind::PromptFile => crate::markdown::injections::prompt_file(db, file),
        FileKind::Markdown => crate::markdown::injections::markdown_file(db, file, workspace),
        FileKind::JobEntry => crate::jobs::injections::prompt_injections(db, file),
        FileKind::Dialect => Vec::new(),
    }
}

/// A guest's analysis of one injection.
#[derive(Debug, Clone)]
pub(crate) enum Guest {
    /// The instruction language; `None` when the text does not carry it
    /// (a markdown file that does not use it): nothing is reported or
    /// answered there.
    Instructions(Option<Arc<Instructions>>),
    /// The file the host made for an OpenProse fence (`None` until the
    /// host made it).
    OpenProse(Option<SourceFile>),
    Dialect(Arc<prose_dialect::Document>),
}

/// The analysis of every injection of a file, in the order of
/// [`injections`]: the guest registry.
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn guests(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Vec<Guest> {
    let made = workspace
        .and_then(|ws| ws.guests(db).get(file.path(db)))
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut next_file = made.iter();
    injections(db, file, workspace)
        .iter()
        .map(|inj| match inj.language {
            GuestLanguage::Instructions { fragment, always } => {
                let carries = always
                    || fragment == FragmentKind::Prompt
                    || prose_markdown::instructions::is_instruction_file(&inj.text);
                Guest::Instructions(
                    carries.then(|| memo::instructions(db, &inj.text, inj.plainness, fragment)),
                )
            }
            GuestLanguage::OpenProse => Guest::OpenProse(next_file.next().copied()),
            GuestLanguage::Dialect => {
                // The block registry of the host file's root.
                let registry = crate::dialect::registry(db, file, workspace);
                Guest::Dialect(Arc::new(crate::dialect::parse(
                    &inj.text,
                    registry.as_deref(),
                )))
            }
        })
        .collect()
}

/// The injection that holds host offset `offset` (where the guest
/// answers), its guest analysis and the guest offset.
pub(crate) fn at(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    offset: TextSize,
) -> Option<(&Injection, &Guest, TextSize)> {
    let injs = injections(db, file, workspace);
    // The innermost first: a fence inside a file-wide injection wins.
    injs.iter()
        .zip(guests(db, file, workspace))
        .filter_map(|(inj, g)| Some((inj, g, inj.guest_offset(offset)?)))
        .min_by_key(|(inj, _, _)| inj.map.host_span().len())
}

#[cfg(test)]
mod tests;
