//! The layout pass: decides which newlines end a logical line and inserts
//! the virtual `INDENT` / `DEDENT` tokens the parser works with.
//!
//! - A newline is significant only when the logical line so far holds a
//!   token and no bracket is open; other newlines become trivia
//!   (`WHITESPACE`), so blank lines, comment lines and newlines inside
//!   `(...)`, `[...]` and `{...}` never matter.
//! - Strings and discretions are single tokens (or a run of string pieces)
//!   from the lexer, so layout is suspended inside them automatically.
//! - Indentation is measured in columns: a space is 1, a tab advances to the
//!   next multiple of 4, a form feed resets to 0, a BOM counts 0.
//! - A line indented less than its block but more than the enclosing one
//!   (an *inconsistent dedent*) is an E005 error; it is then treated as part
//!   of the enclosing block so that parsing continues sensibly.
//! - Recovery for unclosed brackets: when a line inside an open bracket
//!   starts with a statement keyword at or left of the indentation of the
//!   line that opened the bracket, the bracket is abandoned (the parser reports E005 at the
//!   bracket) and layout resumes, so one typo does not swallow the file.

use text_size::TextRange;

use crate::{
    SyntaxError, SyntaxErrorCode, SyntaxKind, SyntaxKind::*, interrupt::Interrupt, lexer::Lexed,
};

/// What the parser sees: non-trivia tokens plus virtual layout tokens.
#[derive(Debug, Default)]
pub struct ParserInput {
    pub kinds: Vec<SyntaxKind>,
    pub ranges: Vec<TextRange>,
}

pub struct Layout {
    /// The raw token kinds with insignificant newlines turned into `WHITESPACE`.
    pub raw_kinds: Vec<SyntaxKind>,
    pub input: ParserInput,
    pub errors: Vec<SyntaxError>,
}

/// The indentation width of `ws` (the whitespace at the start of a line).
pub fn indent_width(ws: &str) -> u32 {
    let mut w = 0u32;
    for c in ws.chars() {
        match c {
            ' ' => w += 1,
            '\t' => w = (w / 4 + 1) * 4,
            '\x0C' => w = 0,
            _ => {}
        }
    }
    w
}

fn is_statement_keyword(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        USE_KW
            | IMPORT_KW
            | INPUT_KW
            | OUTPUT_KW
            | AGENT_KW
            | SESSION_KW
            | RESUME_KW
            | LET_KW
            | CONST_KW
            | BLOCK_KW
            | PARALLEL_KW
            | FOR_KW
            | REPEAT_KW
            | LOOP_KW
            | TRY_KW
            | CATCH_KW
            | FINALLY_KW
            | THROW_KW
            | CHOICE_KW
            | OPTION_KW
            | IF_KW
            | ELIF_KW
            | ELSE_KW
            | DO_KW
    )
}

/// Runs the layout pass over lexed tokens. `text` must be the lexed text.
pub fn layout(lexed: &Lexed, text: &str) -> Layout {
    let mut raw_kinds = lexed.kinds.clone();
    let n = raw_kinds.len();
    let mut input = ParserInput {
        kinds: Vec::with_capacity(n + 16),
        ranges: Vec::with_capacity(n + 16),
    };
    let never = &crate::interrupt::never;
    let errors = run(
        &mut raw_kinds,
        &lexed.starts,
        text,
        &mut input,
        &Interrupt::new(never),
    );
    Layout {
        raw_kinds,
        input,
        errors,
    }
}

/// The parser's input as [`parse`](crate::parse) uses it: like
/// [`ParserInput`], but each token refers to a raw token instead of
/// carrying its range.
pub(crate) struct LayoutTokens {
    pub(crate) kinds: Vec<SyntaxKind>,
    /// For a real token, its index among the raw tokens; for a virtual one
    /// (`INDENT`, `DEDENT`, `EOF`), the index of the raw token it sits
    /// before (the number of raw tokens at the end of the text).
    raw: Vec<u32>,
}

impl LayoutTokens {
    /// The range of token `i`; `starts` are the raw tokens' starts
    /// ([`Lexed::starts`]).
    pub(crate) fn range(&self, i: usize, starts: &[u32]) -> TextRange {
        match (self.kinds.get(i), self.raw.get(i)) {
            (Some(&kind), Some(&raw)) => token_range(kind, raw as usize, starts),
            _ => TextRange::default(),
        }
    }
}

/// The range of a layout token of `kind` at raw token `raw`: virtual tokens
/// are empty.
fn token_range(kind: SyntaxKind, raw: usize, starts: &[u32]) -> TextRange {
    let start = starts.get(raw).copied().unwrap_or_default();
    let end = match kind {
        INDENT | DEDENT | EOF => start,
        _ => starts.get(raw + 1).copied().unwrap_or(start),
    };
    TextRange::new(start.into(), end.into())
}

/// Where the layout pass puts the tokens it produces.
trait Output {
    /// Adds a token of `kind` at raw token `raw` (see [`LayoutTokens::raw`]).
    fn push(&mut self, kind: SyntaxKind, raw: usize, starts: &[u32]);
}

impl Output for LayoutTokens {
    #[inline]
    fn push(&mut self, kind: SyntaxKind, raw: usize, _starts: &[u32]) {
        self.kinds.push(kind);
        self.raw.push(raw as u32);
    }
}

impl Output for ParserInput {
    #[inline]
    fn push(&mut self, kind: SyntaxKind, raw: usize, starts: &[u32]) {
        self.kinds.push(kind);
        self.ranges.push(token_range(kind, raw, starts));
    }
}

/// The layout pass as [`parse`](crate::parse) runs it. `kinds` are the raw
/// token kinds; insignificant newlines among them are turned into
/// `WHITESPACE` in place.
pub(crate) fn layout_in_place(
    kinds: &mut [SyntaxKind],
    starts: &[u32],
    text: &str,
    interrupt: &Interrupt<'_>,
) -> (LayoutTokens, Vec<SyntaxError>) {
    let n = kinds.len();
    // Every token but trivia, plus an INDENT or a DEDENT here and there:
    // rarely more than the raw tokens (growing these would copy them).
    let mut tokens = LayoutTokens {
        kinds: Vec::with_capacity(n + 16),
        raw: Vec::with_capacity(n + 16),
    };
    let errors = run(kinds, starts, text, &mut tokens, interrupt);
    (tokens, errors)
}

/// The layout pass proper, rewriting the insignificant newlines of `kinds`.
fn run(
    kinds: &mut [SyntaxKind],
    starts: &[u32],
    text: &str,
    input: &mut impl Output,
    interrupt: &Interrupt<'_>,
) -> Vec<SyntaxError> {
    let n = kinds.len();
    let range = |i: usize| TextRange::new(starts[i].into(), starts[i + 1].into());
    let mut errors = Vec::new();

    // (width, whether an INDENT token was emitted for it)
    let mut stack: Vec<(u32, bool)> = vec![(0, true)];
    let mut bracket_depth = 0u32;
    let mut bracket_open: Option<(TextRange, u32)> = None;
    let mut pending_newline: Option<usize> = None;
    let mut line_has_tokens = false;
    let mut phys_line_start = true;
    let mut line_indent = 0u32;
    // The lexer's kinds of the two previous tokens (`kinds` is rewritten
    // as we go).
    let (mut prev, mut prev2) = (None, None);

    for i in 0..n {
        if i.is_multiple_of(64) {
            interrupt.tick_by(64);
        }
        let kind = kinds[i];
        let (before, before2) = (prev, prev2);
        (prev, prev2) = (Some(kind), prev);
        match kind {
            WHITESPACE | COMMENT => continue,
            NEWLINE => {
                if bracket_depth > 0 {
                    kinds[i] = WHITESPACE;
                    pending_newline = Some(i);
                } else if line_has_tokens {
                    input.push(NEWLINE, i, starts);
                    line_has_tokens = false;
                } else {
                    kinds[i] = WHITESPACE;
                }
                phys_line_start = true;
                continue;
            }
            _ => {}
        }
        if phys_line_start {
            let width = if before == Some(WHITESPACE) {
                let starts_line = i == 1 || before2 == Some(NEWLINE);
                if starts_line {
                    indent_width(&text[range(i - 1)])
                } else {
                    0
                }
            } else {
                0
            };
            if bracket_depth > 0
                && is_statement_keyword(kind)
                && bracket_open.is_some_and(|(_, indent)| width <= indent)
            {
                // The parser reports the unclosed bracket when it meets
                // the NEWLINE restored here.
                bracket_open = None;
                bracket_depth = 0;
                if let Some(nl) = pending_newline.take() {
                    kinds[nl] = NEWLINE;
                    input.push(NEWLINE, nl, starts);
                    line_has_tokens = false;
                }
            }
            if bracket_depth == 0 && !line_has_tokens {
                line_indent = width;
                let top = stack.last().map_or(0, |s| s.0);
                if width > top {
                    stack.push((width, true));
                    input.push(INDENT, i, starts);
                } else if width < top {
                    while stack.len() > 1 && stack.last().is_some_and(|s| s.0 > width) {
                        if let Some((_, true)) = stack.pop() {
                            input.push(DEDENT, i, starts);
                        }
                    }
                    if stack.last().map_or(0, |s| s.0) < width {
                        errors.push(SyntaxError::new(
                            SyntaxErrorCode::E005,
                            "Inconsistent indentation: this line lines up with no enclosing block",
                            range(i),
                        ));
                        stack.push((width, false));
                    }
                }
            }
        }
        phys_line_start = false;
        match kind {
            L_PAREN | L_BRACK | L_BRACE => {
                if bracket_depth == 0 {
                    bracket_open = Some((range(i), line_indent));
                }
                bracket_depth += 1;
            }
            R_PAREN | R_BRACK | R_BRACE if bracket_depth > 0 => {
                bracket_depth -= 1;
                if bracket_depth == 0 {
                    bracket_open = None;
                    pending_newline = None;
                }
            }
            _ => {}
        }
        line_has_tokens = true;
        input.push(kind, i, starts);
    }

    while let Some((_, real)) = stack.pop() {
        if stack.is_empty() {
            break;
        }
        if real {
            input.push(DEDENT, n, starts);
        }
    }
    input.push(EOF, n, starts);
    errors
}
