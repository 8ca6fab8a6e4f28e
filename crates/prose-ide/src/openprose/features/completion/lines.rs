//! Logical lines and the cursor's place among them: the tokens before the
//! cursor on its line, the enclosing header lines by indentation, and
//! which construct a header line opens.

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxToken, TextRange, TextSize,
    ast::{self},
};

use super::Cx;

use SyntaxKind::*;

// ---- lines ------------------------------------------------------------------

/// A logical line: its first and last non-trivia tokens (indices into the
/// token list) and the column of the first.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line {
    first: usize,
    last: usize,
    col: u32,
}

pub(super) fn logical_lines(text: &str, tokens: &[SyntaxToken]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut cur: Option<(usize, usize)> = None;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind() {
            NEWLINE => {
                if let Some((first, last)) = cur.take() {
                    lines.push(line(text, tokens, first, last));
                }
            }
            k if k.is_trivia() => {}
            _ => {
                cur = Some(cur.map_or((i, i), |(first, _)| (first, i)));
            }
        }
    }
    if let Some((first, last)) = cur {
        lines.push(line(text, tokens, first, last));
    }
    lines
}

fn line(text: &str, tokens: &[SyntaxToken], first: usize, last: usize) -> Line {
    let col = column(text, tokens[first].text_range().start().into());
    Line { first, last, col }
}

/// The indentation column of byte offset `at` (a tab advances to the next
/// multiple of 4, as in the layout pass).
pub(super) fn column(text: &str, at: usize) -> u32 {
    let start = prose_syntax::lines::line_start(text, at);
    let mut col = 0;
    for c in text[start..at].chars() {
        match c {
            '\t' => col = (col / 4 + 1) * 4,
            '\x0C' => col = 0,
            _ => col += 1,
        }
    }
    col
}

pub(super) fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// What the line above the cursor opens (or is, for a sibling).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Construct {
    Agent,
    Session,
    Permissions,
    /// A property whose value goes on the following lines (`context:`).
    PropertyValue(String),
    Body(SyntaxKind),
    Unknown,
}

/// The construct kinds a line can open.
const CONSTRUCTS: &[SyntaxKind] = &[
    AGENT_DEF,
    SESSION_EXPR,
    RESUME_EXPR,
    PROPERTY,
    BLOCK_DEF,
    IF_STMT,
    ELIF_CLAUSE,
    ELSE_CLAUSE,
    TRY_STMT,
    CATCH_CLAUSE,
    FINALLY_CLAUSE,
    CHOICE_STMT,
    OPTION_CLAUSE,
    PARALLEL_EXPR,
    FOR_EXPR,
    REPEAT_EXPR,
    LOOP_EXPR,
    PIPE_OP,
    DO_EXPR,
    ASSERT_STMT,
];

impl Cx<'_> {
    // ---- positions ----------------------------------------------------------

    /// Indices of the non-trivia tokens of the cursor's logical line that
    /// end at or before `before`.
    pub(super) fn line_tokens_before(&self, before: TextSize) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, t) in self.tokens.iter().enumerate() {
            if t.text_range().end() > before {
                break;
            }
            match t.kind() {
                NEWLINE => out.clear(),
                k if k.is_trivia() => {}
                _ => out.push(i),
            }
        }
        out
    }

    pub(super) fn kind(&self, i: usize) -> SyntaxKind {
        self.tokens[i].kind()
    }

    pub(super) fn tok_text(&self, i: usize) -> &str {
        self.tokens[i].text()
    }

    /// The lines that start before the cursor's line.
    pub(super) fn lines_before(&self, line_start: TextSize) -> &[Line] {
        let n = self
            .lines
            .iter()
            .take_while(|l| self.tokens[l.first].text_range().start() < line_start)
            .count();
        &self.lines[..n]
    }

    /// The start of the cursor's physical line.
    pub(super) fn cursor_line_start(&self) -> TextSize {
        let at = usize::from(self.range.start());
        TextSize::from(prose_syntax::lines::line_start(self.text, at) as u32)
    }

    /// The ranges of the lines being written: the cursor's logical line
    /// and the header lines enclosing it (all of them), and those headers
    /// alone.
    pub(super) fn cursor_lines(&self) -> (Vec<TextRange>, Vec<TextRange>) {
        let line_start = self
            .tokens
            .iter()
            .take_while(|t| t.text_range().end() <= self.offset)
            .filter(|t| t.kind() == NEWLINE)
            .last()
            .map_or(TextSize::from(0), |t| t.text_range().end());
        let range = |l: &Line| {
            TextRange::new(
                self.tokens[l.first].text_range().start(),
                self.tokens[l.last].text_range().end(),
            )
        };
        let own = self.lines.iter().find(|l| {
            let start = self.tokens[l.first].text_range().start();
            start >= line_start && start <= self.offset
        });
        let col = own.map_or_else(|| column(self.text, usize::from(self.offset)), |l| l.col);
        let before = self.lines_before(line_start);
        let headers: Vec<TextRange> = Self::header_chain(before, col)
            .into_iter()
            .map(|h| range(&before[h]))
            .collect();
        let mut writing = headers.clone();
        if let Some(l) = own {
            let r = range(l);
            writing.push(TextRange::new(r.start(), r.end().max(self.offset)));
        }
        (writing, headers)
    }

    /// The header enclosing a line at `col`, and the line just above at
    /// the same column (its previous sibling), among `before`.
    pub(super) fn header_and_sibling(before: &[Line], col: u32) -> (Option<usize>, Option<usize>) {
        let mut sibling = None;
        for (i, l) in before.iter().enumerate().rev() {
            if l.col < col {
                return (Some(i), sibling);
            }
            if l.col == col && sibling.is_none() {
                sibling = Some(i);
            }
        }
        (None, sibling)
    }

    /// What a line opens: the innermost construct on its last token's
    /// ancestors that starts on the line; else a guess from its first word.
    pub(super) fn construct_of(&self, line: &Line) -> Construct {
        let line_start = self.tokens[line.first].text_range().start();
        let last = &self.tokens[line.last];
        for node in last.parent_ancestors() {
            if node.text_range().start() < line_start {
                break;
            }
            if !CONSTRUCTS.contains(&node.kind()) {
                continue;
            }
            let c = match node.kind() {
                AGENT_DEF => Construct::Agent,
                SESSION_EXPR | RESUME_EXPR => Construct::Session,
                PROPERTY => {
                    let key = ast::Property::cast(node.clone()).map(|p| p.key());
                    match key.as_deref() {
                        Some("permissions") => Construct::Permissions,
                        Some(k) => Construct::PropertyValue(k.to_string()),
                        None => Construct::Unknown,
                    }
                }
                k => Construct::Body(k),
            };
            return c;
        }
        match self.tok_text(line.first) {
            "agent" => Construct::Agent,
            "session" | "resume" => Construct::Session,
            "permissions" => Construct::Permissions,
            _ => Construct::Unknown,
        }
    }

    /// The header lines enclosing a line at `col` (indices into
    /// `before`), innermost first.
    pub(super) fn header_chain(before: &[Line], mut col: u32) -> Vec<usize> {
        let mut out = Vec::new();
        let mut upto = before.len();
        while let (Some(h), _) = Self::header_and_sibling(&before[..upto], col) {
            out.push(h);
            col = before[h].col;
            upto = h;
        }
        out
    }

    /// Keys written on the lines at `col` under the header `header` (the
    /// line with index `header` in `self.lines`), except the cursor's line.
    pub(super) fn sibling_keys(&self, header: Option<usize>, col: u32) -> Vec<String> {
        let from = header.map_or(0, |h| h + 1);
        let cursor_line = self.cursor_line_start();
        let mut keys = Vec::new();
        for l in &self.lines[from..] {
            if l.col < col {
                break;
            }
            let start = self.tokens[l.first].text_range().start();
            if l.col != col || (start >= cursor_line && start <= self.range.end()) {
                continue;
            }
            let next = self.tokens[l.first + 1..]
                .iter()
                .find(|t| !t.kind().is_trivia());
            if next.is_some_and(|t| t.kind() == COLON) {
                keys.push(self.tok_text(l.first).to_string());
            }
        }
        keys
    }
}
