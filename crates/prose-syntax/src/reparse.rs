//! Incremental reparsing: after an edit, parse again only the top-level
//! statements the edit touches and splice their new green nodes into the
//! old tree, sharing every other child of the root.
//!
//! The result is always equal to [`parse`](crate::parse) of the new text
//! (tree and errors); when that cannot be shown cheaply, [`reparse`] parses
//! the whole text. The *window* re-parsed is, in the new text, from the
//! start of `S`, the last top-level node that starts before the edit, to
//! the end of `T`, the first top-level node that starts at or after the
//! edit's end (or to the end of the text when there is none); when the
//! nearest node cannot bound the window, one of the eight before `S` or
//! after `T` may, or the start (the end) of the text when they reach it:
//! a parse starts (ends) there anyway. The window is parsed alone and spliced in place of the
//! old children from `S` to `T` when all of these hold (else [`Fallback`]
//! says which did not):
//!
//! - `S` starts a line (column 0), and what comes before it ends with a
//!   significant `NEWLINE`: the lexer (stateless between tokens) and the
//!   layout pass (no bracket open, indentation back to 0) start there as
//!   they start a file, and the parser is at the top level;
//! - the edit starts after the first two tokens of `S`: the statements
//!   before `S` look at most that far ahead (`else`, `->` on the next line,
//!   `option "..."`), so they parse as before;
//! - `T` too starts a line after a significant `NEWLINE` in the old tree,
//!   and the window's last child is a node equal to it, preceded by a
//!   significant `NEWLINE` at a line end, with the same errors: the
//!   statements after `T` then start from the state they started from
//!   before, and are kept as they were. Whatever `S` looked ahead at
//!   (whether `T` continues it) was inside the window;
//! - no error starts at a boundary of the window or spans one (a statement
//!   reports an error once per position, and may report it just past its
//!   end), and the parser did not give up on the rest of a file;
//! - no fence (```` ``` ````) comes before the window's end (see
//!   [`Fallback::Fence`]).
//!
//! The window is parsed as starting after a line end (the parser's "last
//! token" is a `NEWLINE`), as it is in the file, except at offset 0.
//!
//! Before that, a faster path for typing in a prompt: an edit strictly
//! inside a string's text, that deletes and inserts only characters that
//! cannot change how the string is lexed, between two such characters, in a
//! text without quotes, backslashes or braces, in a string without a fence
//! and with no fence before it, touching no error, only changes that token:
//! it is replaced in place (rowan copies the nodes above it), whatever the
//! statement's size.
//!
//! `tests/reparse.rs` compares the result with a full parse over thousands
//! of random edits of the corpus programs.

use std::ops::Range;

use rowan::{GreenNodeData, NodeOrToken};
use text_size::{TextRange, TextSize};

use crate::{Parse, SyntaxError, SyntaxKind, parse_window};

/// A change of a text: the range `delete` of the old text replaced by
/// `insert`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edit<'a> {
    pub delete: TextRange,
    pub insert: &'a str,
}

impl<'a> Edit<'a> {
    /// The smallest edit that turns `old` into `new`: what lies between
    /// their common prefix and their common suffix (whole characters).
    pub fn between(old: &str, new: &'a str) -> Edit<'a> {
        let prefix = common_prefix(old.as_bytes(), new.as_bytes());
        let mut prefix = prefix;
        while !(old.is_char_boundary(prefix) && new.is_char_boundary(prefix)) {
            prefix -= 1;
        }
        let max_suffix = old.len().min(new.len()) - prefix;
        let mut suffix = common_suffix(
            &old.as_bytes()[old.len() - max_suffix..],
            &new.as_bytes()[new.len() - max_suffix..],
        );
        while !(old.is_char_boundary(old.len() - suffix)
            && new.is_char_boundary(new.len() - suffix))
        {
            suffix -= 1;
        }
        Edit {
            delete: TextRange::new(offset(prefix), offset(old.len() - suffix)),
            insert: &new[prefix..new.len() - suffix],
        }
    }
}

/// The steps the common ends are compared by, largest first: a block of
/// 4 KiB is one `memcmp` that compares many bytes an instruction, the
/// smaller steps narrow down the block where the texts differ.
const STEPS: [usize; 3] = [4096, 256, 16];

/// The length of the common prefix of `a` and `b`, compared a block at a
/// time ([`STEPS`]), then a byte at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    for step in STEPS {
        while i + step <= n && a[i..i + step] == b[i..i + step] {
            i += step;
        }
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The length of the common suffix of `a` and `b`, compared a block at a
/// time from their ends ([`STEPS`]), then a byte at a time.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut i = 0;
    for step in STEPS {
        while i + step <= n && a[n - i - step..n - i] == b[n - i - step..n - i] {
            i += step;
        }
    }
    while i < n && a[n - i - 1] == b[n - i - 1] {
        i += 1;
    }
    i
}

fn offset(n: usize) -> TextSize {
    TextSize::try_from(n).unwrap_or(TextSize::new(u32::MAX))
}

/// How a [`reparse`] went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The root's old children `children` were replaced by the parse of
    /// `window` (a range of the new text).
    Spliced {
        children: Range<usize>,
        window: TextRange,
    },
    /// Only the text of a string changed: its token was replaced; `token`
    /// is its range in the new text.
    Relexed { token: TextRange },
    /// The whole text was parsed, for this reason.
    Full(Fallback),
}

/// Why an edit was not re-parsed in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// The edit does not describe the change from the old to the new text.
    InvalidEdit,
    /// The statement before the edit does not start a line, or what
    /// precedes it does not end with a significant line break.
    NotAtLineStart,
    /// The edit touches the first two tokens of its statement.
    TouchesStatementStart,
    /// Parsed alone, the window does not end with the old next statement
    /// (the edit changed where statements end).
    ShapeChanged,
    /// An error starts at a boundary of the window or spans one, or the
    /// parser gave up on the rest of a file.
    ErrorAtBoundary,
    /// A fence (```` ``` ````) comes before the window's end: where a
    /// `"""` string with a fence ends depends on lines far after it
    /// (see `fence.rs`), so an edit may change how text before it is read.
    Fence,
}

/// The parse of `new_text`, which is `old_text` changed by `edit`, given
/// `old`, the parse of `old_text`. Equal to [`parse`](crate::parse) of
/// `new_text`.
pub fn reparse(old: &Parse, old_text: &str, edit: Edit<'_>, new_text: &str) -> Parse {
    reparse_interruptible(old, old_text, edit, new_text, &crate::interrupt::never).0
}

/// [`reparse`], calling `interrupt` as [`parse_interruptible`](crate::parse_interruptible)
/// does, and saying how it went.
pub fn reparse_interruptible(
    old: &Parse,
    old_text: &str,
    edit: Edit<'_>,
    new_text: &str,
    interrupt: &dyn Fn(),
) -> (Parse, Outcome) {
    if !consistent(old, old_text, edit, new_text) {
        return (
            parse_window(new_text, interrupt, false),
            Outcome::Full(Fallback::InvalidEdit),
        );
    }
    if let Some((parse, token)) = relex_string_text(old, old_text, edit, new_text) {
        return (parse, Outcome::Relexed { token });
    }
    match splice(old, old_text, edit, new_text, interrupt, Fences::All) {
        Ok((parse, children, window)) => (parse, Outcome::Spliced { children, window }),
        Err(why) => (parse_window(new_text, interrupt, false), Outcome::Full(why)),
    }
}

/// The parse of `text` from `joined`, its two halves parsed apart and
/// joined at `seam` (`halves.rs`): the statements around the seam parsed
/// again, as for an empty edit there, and the rest kept under the same
/// conditions, but for fences. A fence in the window is refused as for an
/// edit. One before the window was lexed in the first half with all the
/// text up to the seam, and its look-ahead for its closing line
/// (`fence.rs`) differs only if it reads past the seam. That of an
/// indented fence stops at the first non-blank line indented less, at the
/// latest at the window's first line (a top-level statement at column 0,
/// before the seam); that of a fence at column 0 stops only after
/// `LOOKAHEAD_LINES` lines. So only a fence at column 0 within that reach
/// of the seam is refused. Else the whole text is parsed, on this thread.
pub(crate) fn join_at_seam(
    joined: &Parse,
    text: &str,
    seam: TextSize,
    interrupt: &dyn Fn(),
) -> (Parse, Outcome) {
    let edit = Edit {
        delete: TextRange::empty(seam),
        insert: "",
    };
    if !consistent(joined, text, edit, text) {
        return (
            parse_window(text, interrupt, false),
            Outcome::Full(Fallback::InvalidEdit),
        );
    }
    match splice(joined, text, edit, text, interrupt, Fences::Near) {
        Ok((parse, children, window)) => (parse, Outcome::Spliced { children, window }),
        Err(why) => (parse_window(text, interrupt, false), Outcome::Full(why)),
    }
}

/// Which fences before a window's end keep it from being spliced.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fences {
    /// Any (an edit).
    All,
    /// Those in the window, and those at column 0 within a look-ahead's
    /// reach before the seam at the edit (two halves joined:
    /// [`join_at_seam`]).
    Near,
}

/// Whether `edit` turns `old_text` into `new_text` (as far as lengths and
/// the inserted text show) and `old` is a parse of `old_text`'s length.
fn consistent(old: &Parse, old_text: &str, edit: Edit<'_>, new_text: &str) -> bool {
    let (start, end) = (
        usize::from(edit.delete.start()),
        usize::from(edit.delete.end()),
    );
    end <= old_text.len()
        && old_text.len() - (end - start) + edit.insert.len() == new_text.len()
        && new_text
            .get(start..start + edit.insert.len())
            .is_some_and(|t| t == edit.insert)
        && old_text.is_char_boundary(start)
        && old_text.is_char_boundary(end)
        && old.green().text_len() == offset(old_text.len())
}

/// A top-level child of the old root: its index and range in the old text.
#[derive(Clone, Copy)]
struct Child {
    index: usize,
    range: TextRange,
}

type Spliced = (Parse, Range<usize>, TextRange);

fn splice(
    old: &Parse,
    old_text: &str,
    edit: Edit<'_>,
    new_text: &str,
    interrupt: &dyn Fn(),
    fences: Fences,
) -> Result<Spliced, Fallback> {
    let (start, end) = (edit.delete.start(), edit.delete.end());
    let root = old.green();
    let mut nodes = Vec::new();
    let mut at = TextSize::new(0);
    for (index, child) in root.children().enumerate() {
        let len = child.text_len();
        if let NodeOrToken::Node(_) = child {
            nodes.push(Child {
                index,
                range: TextRange::at(at, len),
            });
        }
        at += len;
    }
    // `S`: the last node that starts before the edit, or one of the few
    // before it when that one cannot start the window, or the start of the
    // text when they reach back to it (or there is none): the window then
    // starts where a parse starts. `None` is the start of the text.
    let nearest = nodes.iter().rposition(|c| c.range.start() < start);
    let s = match nearest {
        None => None,
        Some(nearest) => {
            let found = (nearest.saturating_sub(STEPS_BACK)..=nearest)
                .rev()
                .find(|&s| can_start_window(old, old_text, nodes[s], start).is_ok());
            match found {
                Some(s) => Some(s),
                None if nearest <= STEPS_BACK => None,
                // Why the nearest could not.
                None => {
                    return Err(can_start_window(old, old_text, nodes[nearest], start)
                        .expect_err("the nearest node was tried"));
                }
            }
        }
    };
    let first = s.map_or(
        Child {
            index: 0,
            range: TextRange::empty(0.into()),
        },
        |s| nodes[s],
    );
    let from_start = s.is_none();
    // `T`: the first node that starts at or after the edit's end, or one
    // of the few after it when it does not start a line after a line end
    // in the old tree (the layout's state there would not be a fresh one).
    let later = &nodes[s.map_or(0, |s| s + 1)..];
    let after = later.iter().position(|c| c.range.start() >= end);
    // When none of the last few nodes does, the window goes to the end.
    let next = match after {
        None => None,
        Some(i) => {
            let rest = &later[i..];
            let found = rest
                .iter()
                .take(STEPS_BACK + 1)
                .find(|t| check_before(root, old_text, **t).is_ok());
            match found {
                Some(t) => Some(*t),
                None if rest.len() <= STEPS_BACK + 1 => None,
                None => return Err(Fallback::NotAtLineStart),
            }
        }
    };
    let delta = |x: TextSize| x - end + start + offset(edit.insert.len());
    let window_end_old = next.map_or(offset(old_text.len()), |t| t.range.end());
    let window = TextRange::new(first.range.start(), delta(window_end_old));
    if old
        .errors()
        .iter()
        .any(|e| gave_up(e) || next.is_some_and(|t| crosses(e, t.range.end())))
    {
        return Err(Fallback::ErrorAtBoundary);
    }

    // The text before the window is the same in both; the new window is
    // the only new text to look at.
    let before = match fences {
        Fences::All => has_fence(old_text, window_end_old),
        Fences::Near => column_zero_fence_reaches(old_text, usize::from(start)),
    };
    if before || has_fence(&new_text[window], window.len()) {
        return Err(Fallback::Fence);
    }
    let part = parse_window(&new_text[window], interrupt, first.range.start() > 0.into());
    let part_root = part.green();
    let new_children: Vec<_> = part_root
        .children()
        .map(|c| match c {
            NodeOrToken::Node(n) => NodeOrToken::Node(n.to_owned()),
            NodeOrToken::Token(t) => NodeOrToken::Token(t.to_owned()),
        })
        .collect();
    let window_len = window.len();
    let part_errors = part.errors();
    if part_errors.iter().any(|e| {
        (!from_start && e.range.start() == 0.into())
            || (next.is_some() && crosses(e, window_len))
            || gave_up(e)
    }) {
        return Err(Fallback::ErrorAtBoundary);
    }
    if let Some(t) = next {
        check_next(old, &part, new_text, window, t, delta)?;
    }
    let replaced = first.index..next.map_or(root.children().len(), |t| t.index + 1);
    let green = root.splice_children(replaced.clone(), new_children);
    let mut errors: Vec<SyntaxError> = old
        .errors()
        .iter()
        .filter(|e| e.range.start() < window.start())
        .cloned()
        .collect();
    errors.extend(part_errors.iter().map(|e| SyntaxError {
        range: e.range + window.start(),
        ..e.clone()
    }));
    if next.is_some() {
        errors.extend(
            old.errors()
                .iter()
                .filter(|e| e.range.start() > window_end_old)
                .map(|e| SyntaxError {
                    range: TextRange::new(delta(e.range.start()), delta(e.range.end())),
                    ..e.clone()
                }),
        );
    }
    debug_assert_eq!(usize::from(green.text_len()), new_text.len());
    Ok((
        Parse {
            green,
            errors: errors.into(),
        },
        replaced,
        window,
    ))
}

/// The characters that can change how a string's text is lexed (its end,
/// escapes, interpolations, fences, lines): an edit that deletes, inserts
/// or borders one of them is never relexed in place.
fn is_plain(c: char) -> bool {
    !matches!(c, '"' | '\\' | '{' | '}' | '`' | '\n' | '\r')
}

/// The fast path for typing inside a prompt: an edit strictly inside the
/// text of a string, of plain characters, between plain characters, in a
/// string without a fence and with no fence before it, changes only that
/// token's text. The token is
/// replaced in place (the nodes above it are copied, all else is shared).
fn relex_string_text(
    old: &Parse,
    old_text: &str,
    edit: Edit<'_>,
    new_text: &str,
) -> Option<(Parse, TextRange)> {
    let (start, end) = (edit.delete.start(), edit.delete.end());
    let token = token_right_of(&old.syntax_node(), start)?;
    let range = token.text_range();
    if token.kind() != SyntaxKind::STRING_TEXT || start <= range.start() || end > range.end() {
        return None;
    }
    let at = usize::from(start);
    let after = at + edit.insert.len();
    let plain = old_text[edit.delete].chars().all(is_plain)
        && edit.insert.chars().all(is_plain)
        && token.text().chars().all(is_plain)
        && new_text[..at].chars().next_back().is_some_and(is_plain)
        && new_text[after..].chars().next().is_some_and(is_plain);
    let fenced = token
        .parent()
        .is_some_and(|string| string.text().contains_char('`'));
    if !plain || fenced || has_fence(old_text, start) {
        return None;
    }
    if old
        .errors()
        .iter()
        .any(|e| e.range.end() >= range.start() && e.range.start() <= range.end())
    {
        return None;
    }
    let grown = offset(edit.insert.len()) + range.end() - end;
    let new_range = TextRange::new(range.start(), start + grown);
    let green = token.replace_with(rowan::GreenToken::new(
        SyntaxKind::STRING_TEXT.into(),
        &new_text[new_range],
    ));
    let shift = |x: TextSize| x - end + start + offset(edit.insert.len());
    let errors = old
        .errors()
        .iter()
        .map(|e| match e.range.start() > range.end() {
            true => SyntaxError {
                range: TextRange::new(shift(e.range.start()), shift(e.range.end())),
                ..e.clone()
            },
            false => e.clone(),
        })
        .collect();
    Some((Parse { green, errors }, new_range))
}

/// How many top-level nodes before the nearest one the window may start
/// at, when the nearest cannot start it (typing a statement's first word,
/// an error where it starts), and how many after the first one after the
/// edit it may end with.
const STEPS_BACK: usize = 8;

/// Whether `e` starts at `b` or spans it.
fn crosses(e: &SyntaxError, b: TextSize) -> bool {
    e.range.start() == b || (e.range.start() < b && b < e.range.end())
}

/// Whether the window may start at `first`, for an edit starting at
/// `start`: see the module's documentation.
fn can_start_window(
    old: &Parse,
    old_text: &str,
    first: Child,
    start: TextSize,
) -> Result<(), Fallback> {
    let root = old.green();
    check_before(root, old_text, first)?;
    let node = root.children().nth(first.index).and_then(|c| c.into_node());
    let lead = node
        .and_then(|n| nth_token_end(n, 2))
        .unwrap_or(first.range.len());
    if start <= first.range.start() + lead {
        return Err(Fallback::TouchesStatementStart);
    }
    if old
        .errors()
        .iter()
        .any(|e| crosses(e, first.range.start()) || gave_up(e))
    {
        return Err(Fallback::ErrorAtBoundary);
    }
    Ok(())
}

/// `S` starts a line, and what precedes it at the top level ends with a
/// significant `NEWLINE` (or nothing does).
fn check_before(root: &GreenNodeData, old_text: &str, first: Child) -> Result<(), Fallback> {
    let at = usize::from(first.range.start());
    if at > 0 && !matches!(old_text.as_bytes()[at - 1], b'\n' | b'\r') {
        return Err(Fallback::NotAtLineStart);
    }
    // Read from the statement back, not collected first: a long program's
    // top level holds thousands of children.
    match last_real_token(root.children().take(first.index).rev()) {
        None | Some(SyntaxKind::NEWLINE) => Ok(()),
        Some(_) => Err(Fallback::NotAtLineStart),
    }
}

/// The window ends with the old `T`, unchanged, after a significant line
/// break, with the errors it had.
fn check_next(
    old: &Parse,
    part: &Parse,
    new_text: &str,
    window: TextRange,
    t: Child,
    delta: impl Fn(TextSize) -> TextSize,
) -> Result<(), Fallback> {
    let (root, part_root, part_errors) = (old.green(), part.green(), part.errors());
    let old_t = root.children().nth(t.index).and_then(|c| c.into_node());
    let count = part_root.children().len();
    let new_t = part_root.children().last().and_then(|c| c.into_node());
    if count == 0 || old_t.is_none() || old_t != new_t {
        return Err(Fallback::ShapeChanged);
    }
    let t_start = usize::from(delta(t.range.start()));
    if t_start > 0 && !matches!(new_text.as_bytes()[t_start - 1], b'\n' | b'\r') {
        return Err(Fallback::ShapeChanged);
    }
    if !matches!(
        last_real_token(part_root.children().take(count - 1).rev()),
        None | Some(SyntaxKind::NEWLINE)
    ) {
        return Err(Fallback::ShapeChanged);
    }
    // The errors of `T` (from its start on) are what they were.
    let in_t = |e: &&SyntaxError, t: TextRange| t.contains_inclusive(e.range.start());
    let t_new = TextRange::new(delta(t.range.start()), delta(t.range.end())) - window.start();
    let old_errors = old.errors().iter().filter(|e| in_t(e, t.range)).map(|e| {
        let range = TextRange::new(delta(e.range.start()), delta(e.range.end())) - window.start();
        (e.code, e.message.as_str(), range)
    });
    let new_errors = part_errors
        .iter()
        .filter(|e| in_t(e, t_new))
        .map(|e| (e.code, e.message.as_str(), e.range));
    if !old_errors.eq(new_errors) {
        return Err(Fallback::ShapeChanged);
    }
    Ok(())
}

/// The token `root.token_at_offset(at).right_biased()` gives, found from
/// the top-level child that holds `at` inside it (a binary search among
/// the root's children): rowan's search makes a handle for every child of
/// the root, thousands in a long program. At the edge of a top-level child
/// (or at the end of the text) rowan's search is asked.
fn token_right_of(root: &crate::SyntaxNode, at: TextSize) -> Option<crate::SyntaxToken> {
    let inside = |r: TextRange| r.start() < at && at < r.end();
    match root.child_or_token_at_range(TextRange::empty(at)) {
        Some(NodeOrToken::Node(child)) if inside(child.text_range()) => {
            child.token_at_offset(at).right_biased()
        }
        Some(NodeOrToken::Token(token)) if inside(token.text_range()) => Some(token),
        _ => root.token_at_offset(at).right_biased(),
    }
}

/// Whether a fence's backticks occur in `text` before `end`. Where a `"""`
/// string with a fence ends depends on the lines after the fence, up to
/// hundreds of lines further (`fence.rs`): an edit after a fence may change
/// how the text before the edit is read.
fn has_fence(text: &str, end: TextSize) -> bool {
    memchr::memmem::find(&text.as_bytes()[..usize::from(end)], FENCE.as_bytes()).is_some()
}

/// Whether a fence at column 0 (backticks right after a line break, or
/// at the start of the text) comes within a look-ahead's reach before
/// `at`: `LOOKAHEAD_LINES` and one more `\n`s back (counting only `\n`, a
/// text whose lines end otherwise is looked at further back).
pub(crate) fn column_zero_fence_reaches(text: &str, at: usize) -> bool {
    let bytes = &text.as_bytes()[..at];
    let from = memchr::memrchr_iter(b'\n', bytes)
        .nth(crate::fence::LOOKAHEAD_LINES + 1)
        .unwrap_or(0);
    memchr::memmem::find_iter(&bytes[from..], FENCE.as_bytes())
        .map(|i| from + i)
        .any(|i| i == 0 || matches!(bytes[i - 1], b'\n' | b'\r'))
}

const FENCE: &str = "```";

/// Whether `e` is the parser giving up on the rest of a file.
fn gave_up(e: &SyntaxError) -> bool {
    e.message == crate::parser::GAVE_UP
}

/// The kind of the last token that is not trivia among `elements`, given
/// last first.
fn last_real_token<'a>(
    elements: impl Iterator<Item = NodeOrToken<&'a GreenNodeData, &'a rowan::GreenTokenData>>,
) -> Option<SyntaxKind> {
    for element in elements {
        match element {
            NodeOrToken::Token(t) => {
                let kind = kind_of(t.kind());
                if !kind.is_trivia() {
                    return Some(kind);
                }
            }
            NodeOrToken::Node(n) => {
                if let Some(kind) = last_real_token(n.children().rev()) {
                    return Some(kind);
                }
            }
        }
    }
    None
}

/// The end, relative to the node's start, of its `n`-th token that is not
/// trivia (or of its last one when it has fewer).
fn nth_token_end(node: &GreenNodeData, n: usize) -> Option<TextSize> {
    fn walk(
        node: &GreenNodeData,
        at: &mut TextSize,
        left: &mut usize,
        last: &mut Option<TextSize>,
    ) {
        for child in node.children() {
            if *left == 0 {
                return;
            }
            match child {
                NodeOrToken::Token(t) => {
                    *at += t.text_len();
                    if !kind_of(t.kind()).is_trivia() {
                        *left -= 1;
                        *last = Some(*at);
                    }
                }
                NodeOrToken::Node(inner) => walk(inner, at, left, last),
            }
        }
    }
    let (mut at, mut left, mut last) = (TextSize::new(0), n, None);
    walk(node, &mut at, &mut left, &mut last);
    last
}

fn kind_of(raw: rowan::SyntaxKind) -> SyntaxKind {
    SyntaxKind::from_raw(raw.0).unwrap_or(SyntaxKind::ERROR)
}

#[cfg(test)]
mod tests;
