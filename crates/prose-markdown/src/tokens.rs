//! Semantic tokens of both languages, as plain spans.
//!
//! Tokens never overlap and never span a line break, so a host can encode
//! them for any client. [`TokenKind`] says what a span is; the host maps it
//! to its own token types (the server: `keyword`, `variable`, …).

use text_size::TextRange;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TokenKind {
    /// A control keyword: `_if_ _then_ _elif_ _else_ _follow_`.
    Keyword,
    /// A condition keyword: `_instructed_`, `_resumed_`, `_subreplied_`, ….
    Condition,
    /// An action keyword: `_ask_ _remember_ _run_ _spawn_ _terminate_`.
    Action,
    /// `like`, `not like`, `AND`, `OR` in a condition.
    Operator,
    /// The literal text of a `like "…"` pattern (quotes included).
    Pattern,
    /// A quoted message or question (`_terminate_ "…"`, `_ask_ "…"`).
    String,
    /// A `{name}` variable; bound by a pattern when `declaration` is set.
    Variable,
    /// The `{*}` discard.
    Discard,
    /// An `SGN_*` signal.
    Signal,
    /// A slash command's name (`/read`).
    Command,
    /// A `/push` option name (`name`).
    Option,
    /// A file path (`/read` target, `_spawn_` file).
    Path,
    /// A number (`/run 2`).
    Number,
}

/// One semantic token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: TokenKind,
    /// For variables: this occurrence binds the name (it is in a pattern
    /// or a condition).
    pub declaration: bool,
}

/// Sorts `tokens`, drops empty ones and any that overlap an earlier one,
/// and splits those that cross a line break at the breaks. Callers cut
/// outer tokens (a pattern's text) around the inner ones (its variables)
/// before, so nothing they mean to keep overlaps.
pub(crate) fn finish(text: &str, mut tokens: Vec<SemanticToken>) -> Vec<SemanticToken> {
    tokens.sort_by_key(|t| (t.range.start(), t.range.end()));
    let mut out: Vec<SemanticToken> = Vec::with_capacity(tokens.len());
    for t in tokens {
        if t.range.is_empty() {
            continue;
        }
        if let Some(last) = out.last()
            && t.range.start() < last.range.end()
        {
            continue;
        }
        let base = usize::from(t.range.start());
        let piece = crate::text::slice(text, t.range);
        for l in crate::text::lines(piece) {
            if l.end > l.start {
                out.push(SemanticToken {
                    range: crate::text::range(base + l.start, base + l.end),
                    ..t
                });
            }
        }
    }
    out
}
