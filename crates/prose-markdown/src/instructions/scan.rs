//! The lexical pass: every `_word_`, quoted string, `{…}`, `SGN_*` signal
//! and `like` of a text, each with where it stands (prose, an example
//! fence, a code span). Code of other kinds is skipped.
//!
//! A `_word_` counts only at word boundaries, so ordinary text never
//! yields one by accident: not inside a word or identifier (`my_if_var`,
//! `__init__`), not in a path or URL (`docs/_if_/x`, `https://…_if_…`),
//! not before a file extension (`_if_.md`), never in code. The same rules
//! decide which near-misses of keywords are looked at.

use text_size::TextRange;

use super::vocabulary::Keyword;
use crate::{
    markdown::{CodeKind, Markdown},
    text::range,
};

/// Where an occurrence stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Place {
    /// Markdown text outside code.
    Prose,
    /// Inside a ```` ```md ````, ```` ```markdown ```` or unlabelled fence:
    /// an example or a block pattern (highlighted, never checked as a
    /// statement).
    Example,
    /// Inside the code span at this index of [`Markdown::code`].
    Span(usize),
}

/// A `_word_` made of ASCII letters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    pub range: TextRange,
    /// The letters between the underscores, as written.
    pub name: String,
    pub keyword: Option<Keyword>,
    pub place: Place,
}

/// A double-quoted string on one line (`"…"` or `“…”`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Quote {
    pub range: TextRange,
    pub inner: TextRange,
    pub place: Place,
}

/// A `{…}` on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Brace {
    pub range: TextRange,
    /// The name: trimmed, blanks collapsed, lowercased.
    pub name: String,
    /// `{*}`.
    pub discard: bool,
    /// Alternatives such as `{some msg|SGN_SOME_SIGNAL}`.
    pub choice: bool,
    /// How many words the name has.
    pub words: usize,
    pub place: Place,
}

/// An `SGN_*` signal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Signal {
    pub range: TextRange,
    pub name: String,
    pub place: Place,
}

/// A `like` or `not like`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Like {
    pub range: TextRange,
    pub negated: bool,
    pub place: Place,
}

/// Everything the lexical pass found, each list in text order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Lexed {
    pub words: Vec<Word>,
    pub quotes: Vec<Quote>,
    pub braces: Vec<Brace>,
    pub signals: Vec<Signal>,
    pub likes: Vec<Like>,
}

impl Lexed {
    /// Nothing found.
    pub(crate) const EMPTY: Lexed = Lexed {
        words: Vec::new(),
        quotes: Vec::new(),
        braces: Vec::new(),
        signals: Vec::new(),
        likes: Vec::new(),
    };
}

/// Whether a fence holds instruction text (an example or a block pattern).
pub(crate) fn is_example_fence(lang: &str) -> bool {
    matches!(lang, "" | "md" | "markdown")
}

pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Scans `text`, whose markdown facts are `md`.
pub(crate) fn scan(text: &str, md: &Markdown) -> Lexed {
    let b = text.as_bytes();
    let mut out = Lexed::default();
    // Each code region is skipped, or scanned as an example or a span.
    let mut regions: Vec<(usize, usize, Option<Place>)> = Vec::new();
    let mut fence_i = 0;
    for (i, c) in md.code.iter().enumerate() {
        let (s, e) = (usize::from(c.range.start()), usize::from(c.range.end()));
        let place = match c.kind {
            CodeKind::Fenced => {
                let f = md.fences[fence_i..].iter().position(|f| f.range == c.range);
                let lang = f.map(|k| {
                    fence_i += k;
                    md.fences[fence_i].lang.as_str()
                });
                if lang.is_some_and(is_example_fence) {
                    // The fence lines are skipped, the content scanned.
                    let (cs, ce) = (usize::from(c.content.start()), usize::from(c.content.end()));
                    regions.push((s, cs, None));
                    regions.push((cs, ce, Some(Place::Example)));
                    regions.push((ce, e, None));
                    continue;
                }
                None
            }
            CodeKind::Span => {
                let (cs, ce) = (usize::from(c.content.start()), usize::from(c.content.end()));
                regions.push((s, cs, None));
                regions.push((cs, ce, Some(Place::Span(i))));
                regions.push((ce, e, None));
                continue;
            }
            _ => None,
        };
        regions.push((s, e, place));
    }
    let mut r = 0;
    let mut i = 0;
    let mut open_quote: Option<(usize, Place, u8)> = None;
    while i < b.len() {
        while r < regions.len() && regions[r].1 <= i {
            r += 1;
        }
        let place = match regions.get(r) {
            Some(&(s, e, p)) if s <= i && i < e => match p {
                Some(p) => p,
                None => {
                    i = e;
                    continue;
                }
            },
            _ => Place::Prose,
        };
        let c = b[i];
        match c {
            b'\n' => open_quote = None,
            b'_' if !matches!(place, Place::Span(_)) => {
                if let Some(w) = word_at(text, i, place) {
                    i = usize::from(w.range.end()) - 1;
                    out.words.push(w);
                }
            }
            b'"' | 0xE2 if !matches!(place, Place::Span(_)) => {
                // `"` or the UTF-8 of “ (E2 80 9C) and ” (E2 80 9D).
                let kind = match (c, b.get(i + 1), b.get(i + 2)) {
                    (b'"', _, _) => Some((b'"', 1)),
                    (0xE2, Some(0x80), Some(0x9C)) => Some((b'(', 3)),
                    (0xE2, Some(0x80), Some(0x9D)) => Some((b')', 3)),
                    _ => None,
                };
                if let Some((k, len)) = kind {
                    match open_quote {
                        Some((start, p, ok))
                            if (ok == b'"' && k == b'"') || (ok == b'(' && k == b')') =>
                        {
                            out.quotes.push(Quote {
                                range: range(start, i + len),
                                inner: range(start + if ok == b'"' { 1 } else { 3 }, i),
                                place: p,
                            });
                            open_quote = None;
                        }
                        None if k != b')' => open_quote = Some((i, place, k)),
                        _ => {}
                    }
                    i += len;
                    continue;
                }
            }
            b'{' => {
                if let Some(br) = brace_at(text, i, place) {
                    i = usize::from(br.range.end());
                    out.braces.push(br);
                    continue;
                }
            }
            b'S' => {
                if let Some(s) = signal_at(text, i, place) {
                    i = usize::from(s.range.end());
                    out.signals.push(s);
                    continue;
                }
            }
            b'l' | b'L' if !matches!(place, Place::Span(_)) => {
                if let Some(l) = like_at(text, i, place) {
                    out.likes.push(l);
                    i += 4;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The whitespace-delimited chunk of text around `i`.
/// At most [`CHUNK_REACH`] bytes each way: a longer run without blanks is
/// no prose word either way.
fn chunk(text: &str, i: usize) -> &[u8] {
    let b = text.as_bytes();
    let lo = i.saturating_sub(CHUNK_REACH);
    let hi = (i + CHUNK_REACH).min(b.len());
    let s = b[lo..i]
        .iter()
        .rposition(|c| c.is_ascii_whitespace())
        .map_or(lo, |k| lo + k + 1);
    let e = b[i..hi]
        .iter()
        .position(|c| c.is_ascii_whitespace())
        .map_or(hi, |k| i + k);
    &b[s..e]
}

/// How far [`chunk`] looks for the blanks around a word.
const CHUNK_REACH: usize = 256;

/// A `_letters_` starting at `i` with the boundaries described in the
/// module docs.
fn word_at(text: &str, i: usize, place: Place) -> Option<Word> {
    let b = text.as_bytes();
    if i > 0 {
        let p = b[i - 1];
        if is_word_byte(p) || b"/\\.-:=@$#~%&+?^|".contains(&p) {
            return None;
        }
    }
    let letters = b[i + 1..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let close = i + 1 + letters;
    if letters == 0 || b.get(close) != Some(&b'_') {
        return None;
    }
    let end = close + 1;
    if let Some(&n) = b.get(end) {
        let next_alnum = b.get(end + 1).is_some_and(|c| c.is_ascii_alphanumeric());
        if is_word_byte(n) || b"/\\-@".contains(&n) || (matches!(n, b'.' | b':') && next_alnum) {
            return None;
        }
    }
    let ch = chunk(text, i);
    if ch.windows(3).any(|w| w == b"://") || ch.starts_with(b"www.") {
        return None;
    }
    let name = &text[i + 1..close];
    Some(Word {
        range: range(i, end),
        name: name.to_string(),
        keyword: Keyword::from_name(name),
        place,
    })
}

/// A `{…}` at `i`: on one line, at most 80 bytes, without quotes,
/// backticks, braces, `:`, `;` or `=` inside (so JSON and code are not
/// taken for variables).
pub(crate) fn brace_at(text: &str, i: usize, place: Place) -> Option<Brace> {
    let b = text.as_bytes();
    let rest = &b[i + 1..];
    let close = rest
        .iter()
        .take(81)
        .position(|&c| matches!(c, b'}' | b'{' | b'\n' | b'"' | b'`' | b':' | b';' | b'='))?;
    if rest[close] != b'}' {
        return None;
    }
    let inner = &text[i + 1..i + 1 + close];
    let trimmed = inner.trim();
    if trimmed.is_empty() {
        return None;
    }
    let name = trimmed
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    Some(Brace {
        range: range(i, i + close + 2),
        discard: trimmed == "*",
        choice: trimmed.contains('|'),
        words: trimmed.split_whitespace().count(),
        name,
        place,
    })
}

/// `SGN_` and more capitals, digits or underscores, not inside a word.
fn signal_at(text: &str, i: usize, place: Place) -> Option<Signal> {
    let b = text.as_bytes();
    if !b[i..].starts_with(b"SGN_") || (i > 0 && is_word_byte(b[i - 1])) {
        return None;
    }
    let mut end = i + 4;
    while end < b.len()
        && (b[end].is_ascii_uppercase() || b[end].is_ascii_digit() || b[end] == b'_')
    {
        end += 1;
    }
    while end > i + 4 && b[end - 1] == b'_' {
        end -= 1;
    }
    if end == i + 4
        || b.get(end)
            .is_some_and(|c| c.is_ascii_lowercase() || *c >= 0x80)
    {
        return None;
    }
    Some(Signal {
        range: range(i, end),
        name: text[i..end].to_string(),
        place,
    })
}

/// The word `like` (any case) at `i`, with a preceding `not`.
fn like_at(text: &str, i: usize, place: Place) -> Option<Like> {
    let b = text.as_bytes();
    let word = b.get(i..i + 4)?;
    if !word.eq_ignore_ascii_case(b"like")
        || (i > 0 && is_word_byte(b[i - 1]))
        || b.get(i + 4).is_some_and(|&c| is_word_byte(c))
    {
        return None;
    }
    let before = text[..i].trim_end_matches([' ', '\t']);
    let bb = before.as_bytes();
    let n = bb.len();
    let negated =
        n >= 3 && bb[n - 3..].eq_ignore_ascii_case(b"not") && !(n > 3 && is_word_byte(bb[n - 4]));
    let start = if negated { before.len() - 3 } else { i };
    Some(Like {
        range: range(start, i + 4),
        negated,
        place,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{markdown::scan as md_scan, text::slice};

    fn words(t: &str) -> Vec<String> {
        let md = md_scan(t);
        scan(t, &md)
            .words
            .iter()
            .map(|w| {
                format!(
                    "{}{}",
                    slice(t, w.range),
                    if w.keyword.is_some() { "" } else { "?" }
                )
            })
            .collect()
    }

    #[test]
    fn keywords_at_boundaries() {
        assert_eq!(
            words("_if_ x, _then_: (_run_) \"_ask_{*}\" *_else_*, _Terminate_ _note_."),
            [
                "_if_",
                "_then_",
                "_run_",
                "_ask_",
                "_else_",
                "_Terminate_?",
                "_note_?"
            ]
        );
    }

    #[test]
    fn not_inside_words_paths_urls_or_code() {
        assert!(
            words(
                "my_if_var __init__ a/_if_/b _if_.md _if_-x https://x.io/_if_ www._if_.com \\_if\\_ `_if_` é_if_\n\n```sh\n_if_\n```\n"
            )
            .is_empty()
        );
    }

    #[test]
    fn example_fences_are_scanned() {
        let t = "```md\n_if_ x\n```\n```sh\n_if_\n```\n";
        let md = md_scan(t);
        let l = scan(t, &md);
        assert_eq!(l.words.len(), 1);
        assert_eq!(l.words[0].place, Place::Example);
    }

    #[test]
    fn quotes_braces_signals_likes() {
        let t = "_if_ x like \"SGN_PENDING ({id})\" AND not like “{*}”, `{code}` {\"a\": 1} {a|B} SGN_ SGN_X_";
        let md = md_scan(t);
        let l = scan(t, &md);
        let q: Vec<_> = l.quotes.iter().map(|q| slice(t, q.inner)).collect();
        assert_eq!(q, ["SGN_PENDING ({id})", "{*}", "a"]);
        let br: Vec<_> = l
            .braces
            .iter()
            .map(|b| {
                (
                    b.name.as_str(),
                    b.discard,
                    b.choice,
                    matches!(b.place, Place::Span(_)),
                )
            })
            .collect();
        assert_eq!(
            br,
            [
                ("id", false, false, false),
                ("*", true, false, false),
                ("code", false, false, true),
                ("a|b", false, true, false)
            ]
        );
        let s: Vec<_> = l.signals.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(s, ["SGN_PENDING", "SGN_X"]);
        let lk: Vec<_> = l
            .likes
            .iter()
            .map(|k| (slice(t, k.range), k.negated))
            .collect();
        assert_eq!(lk, [("like", false), ("not like", true)]);
    }
}
