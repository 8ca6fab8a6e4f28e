//! Prompt files (seed 004): the three phases of slash commands.
//!
//! ```text
//! /read project/design.md             ─┐
//! /push name=prep "Prep task"          │ leading: processed before the model runs
//! /run                                ─┘
//! Implement the feature.              ── content: the user message
//! /push name=tests "Write tests"      ── trailing: processed after the model finishes
//! ```
//!
//! How a text splits into phases (decided where the seed is silent):
//! - a **command line** is a line that starts (after at most three spaces)
//!   with `/` and a name (a letter, then letters, digits, `-`, `_`)
//!   followed by a blank or the end of the line, outside code blocks. So
//!   `/usr/bin/env` and a `/read` inside a fence are content;
//! - the **leading** commands are the command lines from the top, up to
//!   the first line that is neither a command nor blank (blank lines
//!   between them are allowed);
//! - the **trailing** commands are the command lines at the end, back to
//!   the last line that is neither a command nor blank; there are none
//!   when there is no content;
//! - the **content** is everything between, from its first non-blank line
//!   to its last.
//!
//! `/push` prompts that are quoted are parsed as prompts too
//! ([`Push::prompt`], [`PushPrompt::nested`]): the seed's pipeline example
//! queues `"/read project/task-spec.md\nComplete Phase 2"`.

pub mod args;
pub mod commands;
mod features;
mod model_view;
mod outline;
pub(crate) mod rules;

use text_size::TextRange;

use crate::{
    Diagnostic, FileLookup,
    lookup::clean_path,
    markdown::{self, Markdown},
    text::{self, range},
};
pub use args::{Arg, OffsetMap};
pub use commands::{COMMANDS, CommandKind, PUSH_OPTIONS};
pub use features::{
    PromptCompletions, completions, definition, document_links, hover, semantic_tokens,
};
pub use model_view::render_model_view;
pub use outline::{OutlineItem, OutlineKind, outline};

/// Where a command stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Before the content: processed before the model runs.
    Leading,
    /// A command line inside the content: sent to the model as text.
    Content,
    /// After the content: processed after the model finishes.
    Trailing,
}

/// One command line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Command {
    /// The name as written, without the slash (`read`, `Raed`).
    pub name: String,
    pub kind: CommandKind,
    pub phase: Phase,
    /// The line, without its indentation and trailing blanks.
    pub range: TextRange,
    /// The slash and the name (`/read`).
    pub name_range: TextRange,
    /// The words after the name.
    pub args: Vec<Arg>,
    /// For `/read` with a path: the path.
    pub read: Option<ReadTarget>,
    /// For `/push`: its options and prompt.
    pub push: Option<Push>,
}

/// The file a `/read` names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReadTarget {
    /// The path as written, unquoted, without a leading `$PWD/` or `./`:
    /// the key to ask [`FileLookup`] about. Relative paths are relative to
    /// the agent's working directory (the workspace root).
    pub path: String,
    /// The path's range, quotes included.
    pub range: TextRange,
}

/// A `/push` option (`name=research-a`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PushOption {
    /// The key (`name`); empty for `=x`.
    pub key: String,
    pub key_range: TextRange,
    /// The value, unquoted.
    pub value: String,
    /// The value's range (empty right after `=` when there is none).
    pub value_range: TextRange,
    /// The whole option.
    pub range: TextRange,
    /// Whether a quote in the value is never closed.
    pub unterminated: bool,
}

/// A `/push`'s options and prompt.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Push {
    pub options: Vec<PushOption>,
    pub prompt: Option<PushPrompt>,
}

impl Push {
    /// The value of the first `name=` option.
    pub fn name(&self) -> Option<&PushOption> {
        self.options.iter().find(|o| o.key == "name")
    }
}

/// The prompt of a `/push`: one quoted word, or the rest of the line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PushPrompt {
    /// The prompt's text (quotes removed and escapes decoded when quoted).
    pub text: String,
    /// Its range in the source, quotes included.
    pub range: TextRange,
    pub quoted: bool,
    /// A quoted prompt parsed as a prompt of its own, with every range
    /// mapped back to the source text.
    pub nested: Option<Box<PromptFile>>,
}

/// A prompt file split into its phases.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct PromptFile {
    /// Processed before the model runs, in order.
    pub leading: Vec<Command>,
    /// What the model receives as the user message: from the first
    /// non-blank content line to the end of the last; `None` when the
    /// prompt is only commands.
    pub content: Option<TextRange>,
    /// Processed after the model finishes, in order.
    pub trailing: Vec<Command>,
    /// Lines of the content that look like commands (outside code): sent
    /// to the model as text, not processed.
    pub in_content: Vec<Command>,
}

impl PromptFile {
    /// The commands the prompt processor runs: leading, then trailing.
    pub fn processed(&self) -> impl Iterator<Item = &Command> {
        self.leading.iter().chain(&self.trailing)
    }

    /// Every command line of this prompt (not of nested prompts), in text order.
    pub fn all_commands(&self) -> impl Iterator<Item = &Command> {
        self.leading
            .iter()
            .chain(&self.in_content)
            .chain(&self.trailing)
    }

    /// The prompts of the processed `/push`es that were parsed as prompts.
    pub fn nested(&self) -> impl Iterator<Item = &PromptFile> {
        self.processed()
            .filter_map(|c| c.push.as_ref()?.prompt.as_ref()?.nested.as_deref())
    }

    /// Every processed `/read` with a path, of this prompt and of the
    /// prompts it pushes.
    pub fn reads(&self) -> Vec<&ReadTarget> {
        let mut out: Vec<&ReadTarget> = self.processed().filter_map(|c| c.read.as_ref()).collect();
        for n in self.nested() {
            out.extend(n.reads());
        }
        out
    }

    /// Where a "Show what the model receives" lens or command belongs: the
    /// first leading command, or the start of the content.
    pub fn model_view_anchor(&self) -> TextRange {
        match (self.leading.first(), self.content) {
            (Some(c), _) => c.name_range,
            (None, Some(c)) => TextRange::empty(c.start()),
            (None, None) => TextRange::default(),
        }
    }

    /// The paths the host should answer for ([`FileLookup`]) before
    /// [`check`], hover or [`render_model_view`]: every processed `/read`
    /// target, nested ones included, each once.
    pub fn paths_to_check(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in self.reads() {
            if !out.contains(&r.path) {
                out.push(r.path.clone());
            }
        }
        out
    }
}

/// How deep quoted `/push` prompts are parsed as prompts.
const MAX_NESTING: usize = 4;

/// Splits `text` into its phases and parses every command line.
pub fn parse_prompt_file(text: &str) -> PromptFile {
    parse_at_depth(text, 0)
}

fn parse_at_depth(text: &str, depth: usize) -> PromptFile {
    let md = markdown::scan(text);
    let lines = text::lines(text);
    #[derive(Clone, Copy, PartialEq)]
    enum Class {
        Blank,
        Command,
        Text,
    }
    let classes: Vec<Class> = lines
        .iter()
        .map(|l| {
            let s = l.text(text);
            let first = l.start + (s.len() - s.trim_start().len());
            if s.trim().is_empty() {
                Class::Blank
            } else if in_block_code(&md, first) || command_name(s).is_none() {
                Class::Text
            } else {
                Class::Command
            }
        })
        .collect();
    let first_text = classes.iter().position(|c| *c == Class::Text);
    let mut file = PromptFile::default();
    let Some(first_text) = first_text else {
        for (l, _) in lines
            .iter()
            .zip(&classes)
            .filter(|(_, c)| **c == Class::Command)
        {
            file.leading
                .push(parse_command(text, *l, Phase::Leading, depth));
        }
        return file;
    };
    let last_text = classes
        .iter()
        .rposition(|c| *c == Class::Text)
        .unwrap_or(first_text);
    file.content = Some(range(lines[first_text].start, lines[last_text].end));
    for (i, (l, c)) in lines.iter().zip(&classes).enumerate() {
        if *c != Class::Command {
            continue;
        }
        let phase = if i < first_text {
            Phase::Leading
        } else if i > last_text {
            Phase::Trailing
        } else {
            Phase::Content
        };
        let cmd = parse_command(text, *l, phase, depth);
        match phase {
            Phase::Leading => file.leading.push(cmd),
            Phase::Content => file.in_content.push(cmd),
            Phase::Trailing => file.trailing.push(cmd),
        }
    }
    file
}

fn in_block_code(md: &Markdown, offset: usize) -> bool {
    md.code_at(offset).is_some_and(|c| c.is_block())
}

/// For a command line: the offset of the slash and the name's length.
fn command_name(line: &str) -> Option<(usize, usize)> {
    let (col, lead) = text::indent(line);
    if col > 3 {
        return None;
    }
    let rest = &line[lead..];
    let name = rest.strip_prefix('/')?;
    let b = name.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let len = b
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_'))
        .unwrap_or(b.len());
    match b.get(len) {
        None | Some(b' ' | b'\t') => Some((lead, len)),
        _ => None,
    }
}

fn parse_command(text: &str, line: text::Line, phase: Phase, depth: usize) -> Command {
    let s = line.text(text);
    let (lead, len) = command_name(s).unwrap_or((0, 0));
    let slash = line.start + lead;
    let name_end = slash + 1 + len;
    let name = text.get(slash + 1..name_end).unwrap_or("").to_string();
    let kind = CommandKind::from_name(&name);
    let end = line.start + s.trim_end().len();
    let args = args::split(text, name_end, end.max(name_end));
    let read = (kind == CommandKind::Read)
        .then(|| args.first())
        .flatten()
        .map(|a| ReadTarget {
            path: clean_path(&a.value),
            range: a.range,
        });
    let push = (kind == CommandKind::Push).then(|| parse_push(text, &args, end, depth));
    Command {
        name,
        kind,
        phase,
        range: range(slash, end.max(name_end)),
        name_range: range(slash, name_end),
        args,
        read,
        push,
    }
}

/// Whether `arg` is written as an option: `key=…` with a key made of name
/// characters, or `=…`.
fn is_option(arg: &Arg, text: &str) -> bool {
    if arg.quoted {
        return false;
    }
    let raw = text::slice(text, arg.range);
    let Some(eq) = raw.find('=') else {
        return false;
    };
    let key = &raw[..eq];
    !raw[..eq].contains('"')
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn parse_push(text: &str, args: &[Arg], line_end: usize, depth: usize) -> Push {
    let mut options = Vec::new();
    let mut rest = args;
    while let Some((a, tail)) = rest.split_first() {
        if !is_option(a, text) {
            break;
        }
        let raw = text::slice(text, a.range);
        let eq = raw.find('=').unwrap_or(0);
        let start = usize::from(a.range.start());
        let value_sub = args::split(text, start + eq + 1, usize::from(a.range.end()));
        let (value, value_range, unterminated) = match value_sub.into_iter().next() {
            Some(v) => (v.value, v.range, v.unterminated),
            None => (String::new(), range(start + eq + 1, start + eq + 1), false),
        };
        options.push(PushOption {
            key: raw[..eq].to_string(),
            key_range: range(start, start + eq),
            value,
            value_range,
            range: a.range,
            unterminated,
        });
        rest = tail;
    }
    let prompt = rest.first().map(|first| {
        if first.quoted && rest.len() == 1 {
            let nested = (depth < MAX_NESTING && !first.unterminated).then(|| {
                let mut inner = parse_at_depth(&first.value, depth + 1);
                map_ranges(&mut inner, &first.map);
                Box::new(inner)
            });
            PushPrompt {
                text: first.value.clone(),
                range: first.range,
                quoted: true,
                nested,
            }
        } else {
            let start = usize::from(first.range.start());
            PushPrompt {
                text: text.get(start..line_end).unwrap_or("").to_string(),
                range: range(start, line_end),
                quoted: false,
                nested: None,
            }
        }
    });
    Push { options, prompt }
}

/// Moves every range of `file` (parsed from a decoded value) back to the
/// source through `map`.
fn map_ranges(file: &mut PromptFile, map: &OffsetMap) {
    let m = |r: &mut TextRange| *r = map.source_range(*r);
    if let Some(c) = file.content.as_mut() {
        m(c);
    }
    for cmd in file
        .leading
        .iter_mut()
        .chain(&mut file.in_content)
        .chain(&mut file.trailing)
    {
        m(&mut cmd.range);
        m(&mut cmd.name_range);
        for a in &mut cmd.args {
            m(&mut a.range);
            if let Some(r) = a.after_quote.as_mut() {
                m(r);
            }
            // Values of nested args map to the decoded text, then to the source.
            a.map = OffsetMap::default();
        }
        if let Some(r) = cmd.read.as_mut() {
            m(&mut r.range);
        }
        if let Some(p) = cmd.push.as_mut() {
            for o in &mut p.options {
                m(&mut o.key_range);
                m(&mut o.value_range);
                m(&mut o.range);
            }
            if let Some(pp) = p.prompt.as_mut() {
                m(&mut pp.range);
                if let Some(n) = pp.nested.as_deref_mut() {
                    map_ranges(n, map);
                }
            }
        }
    }
}

/// What a check of a prompt sees.
pub(crate) struct Ctx<'a> {
    pub text: &'a str,
    pub file: &'a PromptFile,
    pub files: &'a dyn FileLookup,
}

/// Every `M` diagnostic of `file` (parsed from `text`), asking `files`
/// about `/read` targets. The prompts of quoted `/push`es are checked too;
/// their diagnostics point into the quoted text.
pub fn check(text: &str, file: &PromptFile, files: &dyn FileLookup) -> Vec<Diagnostic> {
    let mut out = check_one(text, file, files);
    out.sort_by_key(|d| (d.range.start(), d.range.end(), d.code));
    out
}

fn check_one(text: &str, file: &PromptFile, files: &dyn FileLookup) -> Vec<Diagnostic> {
    let ctx = Ctx { text, file, files };
    let mut out = crate::diagnostic::run(rules::RULES, &ctx);
    for n in file.nested() {
        out.extend(check_one(text, n, files));
    }
    out
}

#[cfg(test)]
mod tests;
