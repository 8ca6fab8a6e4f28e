//! Formatting: rewrites a program in the canonical layout, changing only
//! whitespace.
//!
//! The canonical layout (the style of compiler.md's examples):
//! - each indentation level is two spaces, except that the body of a
//!   pipeline stage written on a line of its own (`  | map:`) sits four
//!   columns past the `|`, one level past the operation's name, as
//!   compiler.md writes chained pipelines;
//! - lines inside brackets line up with the first element after the
//!   innermost open bracket when one follows it on its line
//!   (`read: ["a",` / `       "b"]`); when the bracket ends its line they
//!   are indented one level deeper than the line that opened it; a line
//!   starting with a closing bracket lines up with the line that opened it;
//! - one space around `=`, `->` and `|`, after `:` and `,` (none before
//!   them; a ternary's `:` has a space on both sides), none just inside
//!   `(` `)` `[` `]`; elsewhere a run of blanks becomes one space and
//!   tokens written together stay together;
//! - a trailing comment keeps its run of spaces (aligned comments stay
//!   aligned); no line has trailing whitespace;
//! - at most one blank line in a row, none at the start or end of the file;
//!   the file ends with exactly one newline, `\r\n` if its first line
//!   break is `\r\n`.
//!
//! How indentation is rewritten without ever changing the program: the
//! parser never sees columns, only the INDENT / DEDENT tokens the layout
//! pass derives from them. The formatter replays that pass on the original
//! columns and gives every level of the layout's indentation stack a new
//! column (two past the level below it, four below a `|` stage); the new
//! columns grow with the stack as the old ones did, so the parser receives
//! the very same tokens. A comment-only
//! line takes the deepest level at or left of its column (or the level of
//! the body it introduces), so it stays with the code it was written in.
//!
//! What is never touched: the content of strings (a `"""` string's lines
//! keep their columns, whatever they are), discretion text, comment text.
//! A file with syntax errors is not formatted at all (notes on string text,
//! an unknown escape or a `"""` kept inside a fence, are not errors of the
//! tree and do not stop it). As a safety net, the
//! result is parsed again and must give the same tree (ignoring
//! whitespace); otherwise nothing is formatted.

use prose_syntax::{
    NodeOrToken, Parse, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken, WalkEvent,
    layout::indent_width, lines::has_line_break,
};

/// Spaces per indentation level.
const INDENT: usize = 2;
const BOM: char = '\u{FEFF}';

/// The whole of `text` in the canonical layout (possibly unchanged);
/// `None` when it has syntax errors.
pub fn format_text(text: &str) -> Option<String> {
    format_parse(&prose_syntax::parse(text), text)
}

/// Formats a parsed text; `None` when it has syntax errors (or if the
/// safety net catches a result that would not be the same program).
pub(crate) fn format_parse(parse: &Parse, text: &str) -> Option<String> {
    if parse.broken().next().is_some() {
        return None;
    }
    let root = parse.syntax_node();
    let out = Printer::new(text).print(&root);
    // The safety net: same tree, no errors.
    let again = prose_syntax::parse_interruptible(&out, &crate::check_cancelled);
    (again.broken().next().is_none() && shape(&again.syntax_node()) == shape(&root)).then_some(out)
}

/// The tree without whitespace: node kinds (with their ends) and the
/// tokens other than blanks, line breaks and comments; then the comments
/// (without trailing blanks). Comments are kept apart because the tree
/// places a comment at the very end of the file differently when a line
/// break follows it.
fn shape(root: &SyntaxNode) -> Vec<(SyntaxKind, String)> {
    let mut out = Vec::new();
    let mut comments = Vec::new();
    let mut cancel = crate::CancelCheck::default();
    for event in root.preorder_with_tokens() {
        cancel.tick();
        match event {
            WalkEvent::Enter(NodeOrToken::Node(n)) => out.push((n.kind(), String::new())),
            WalkEvent::Leave(NodeOrToken::Node(_)) => out.push((EOF, String::new())),
            WalkEvent::Enter(NodeOrToken::Token(t)) => match t.kind() {
                // A missing final line break is no NEWLINE token at all.
                WHITESPACE | NEWLINE => {}
                COMMENT => comments.push((COMMENT, t.text().trim_end().to_string())),
                k => out.push((k, t.text().to_string())),
            },
            WalkEvent::Leave(NodeOrToken::Token(_)) => {}
        }
    }
    out.extend(comments);
    out
}

/// A physical line (more than one when a string or discretion spans lines):
/// the tokens between two line breaks.
struct Line {
    /// The blanks before the first token.
    lead: Vec<SyntaxToken>,
    /// From the first to the last token that is not a blank.
    body: Vec<SyntaxToken>,
}

fn is_line_break(t: &SyntaxToken) -> bool {
    matches!(t.kind(), NEWLINE | WHITESPACE) && has_line_break(t.text())
}

fn lines(root: &SyntaxNode) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut current: Vec<SyntaxToken> = Vec::new();
    let finish = |tokens: &mut Vec<SyntaxToken>, lines: &mut Vec<Line>| {
        let tokens = std::mem::take(tokens);
        let first = tokens
            .iter()
            .position(|t| t.kind() != WHITESPACE)
            .unwrap_or(tokens.len());
        let last = tokens
            .iter()
            .rposition(|t| t.kind() != WHITESPACE)
            .map_or(first, |i| i + 1);
        lines.push(Line {
            lead: tokens[..first].to_vec(),
            body: tokens[first..last.max(first)].to_vec(),
        });
    };
    let mut cancel = crate::CancelCheck::default();
    for t in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        cancel.tick();
        if is_line_break(&t) {
            // A run of blank lines is one token: one line per break.
            for _ in 0..prose_syntax::lines::count_breaks(t.text()) {
                finish(&mut current, &mut lines);
            }
        } else {
            current.push(t);
        }
    }
    finish(&mut current, &mut lines);
    lines
}

/// The column the layout pass measures for a line: the width of its
/// leading blanks when they are a single token (as the layout pass sees
/// them), else 0.
fn layout_width(line: &Line) -> u32 {
    match line.lead.as_slice() {
        [ws] => indent_width(ws.text()),
        _ => 0,
    }
}

struct Printer {
    out: String,
    newline: &'static str,
    bom: bool,
}

/// One level of the layout's indentation stack.
#[derive(Clone, Copy)]
struct Level {
    /// The column the layout pass measured in the original text.
    width: u32,
    /// The column it gets in the output.
    indent: usize,
}

/// An open bracket.
struct Open {
    /// The new indentation of the line that opened it.
    indent: usize,
    /// The new column of the first token after it on its line, if any:
    /// the lines inside it line up with that token.
    align: Option<usize>,
}

impl Printer {
    fn new(text: &str) -> Self {
        // The line break of the file's first line: `\n`, `\r\n` or `\r`.
        let newline = match text.bytes().position(prose_syntax::lines::is_line_break) {
            Some(i) if text[i..].starts_with("\r\n") => "\r\n",
            Some(i) if text.as_bytes()[i] == b'\r' => "\r",
            _ => "\n",
        };
        Printer {
            out: String::with_capacity(text.len() + text.len() / 8),
            newline,
            bom: text.starts_with(BOM),
        }
    }

    fn print(mut self, root: &SyntaxNode) -> String {
        if self.bom {
            self.out.push(BOM);
        }
        let lines = lines(root);
        // The layout pass's indentation stack.
        let mut stack = vec![Level {
            width: 0,
            indent: 0,
        }];
        let mut brackets: Vec<Open> = Vec::new();
        // Whether the last line that started a logical line was a `|` stage:
        // a body it opens sits four columns past it.
        let mut after_stage = false;
        let mut blank_pending = false;
        let mut printed_any = false;
        let mut cancel = crate::CancelCheck::default();
        for (i, line) in lines.iter().enumerate() {
            cancel.tick();
            let Some(first) = line.body.first() else {
                blank_pending |= printed_any;
                continue;
            };
            let indent = if let Some(open) = brackets.last() {
                match open.align {
                    _ if is_closing(first.kind()) => open.indent,
                    Some(column) => column,
                    None => open.indent + INDENT,
                }
            } else if first.kind() == COMMENT {
                let next = lines[i + 1..]
                    .iter()
                    .find(|l| l.body.first().is_some_and(|t| t.kind() != COMMENT))
                    .map(layout_width);
                comment_indent(layout_width(line), &stack, next, after_stage)
            } else {
                let indent = code_indent(layout_width(line), &mut stack, after_stage);
                after_stage = first.kind() == PIPE;
                indent
            };
            if blank_pending {
                self.out.push_str(self.newline);
                blank_pending = false;
            }
            printed_any = true;
            self.out.extend(std::iter::repeat_n(' ', indent));
            self.body(&line.body, indent, &mut brackets);
            self.out.push_str(self.newline);
        }
        self.out
    }

    /// The column the output's last line has reached (in characters).
    fn out_column(&self) -> usize {
        let line = &self.out[self.out.rfind('\n').map_or(0, |i| i + 1)..];
        line.chars().count()
    }

    /// Prints the tokens of a line with canonical spacing between them,
    /// opening and closing brackets on `brackets` (the line is at `indent`).
    fn body(&mut self, body: &[SyntaxToken], indent: usize, brackets: &mut Vec<Open>) {
        let mut prev: Option<&SyntaxToken> = None;
        let mut gap = String::new();
        for t in body {
            if t.kind() == WHITESPACE {
                gap.push_str(t.text());
                continue;
            }
            if let Some(p) = prev {
                self.out.push_str(spacing(p, t, &gap));
                if matches!(p.kind(), L_PAREN | L_BRACK | L_BRACE)
                    && t.kind() != COMMENT
                    && let Some(open) = brackets.last_mut()
                {
                    open.align = Some(self.out_column());
                }
            }
            gap.clear();
            if t.kind() == COMMENT {
                self.out.push_str(t.text().trim_end());
            } else {
                self.out.push_str(t.text());
            }
            match t.kind() {
                L_PAREN | L_BRACK | L_BRACE => brackets.push(Open {
                    indent,
                    align: None,
                }),
                R_PAREN | R_BRACK | R_BRACE => {
                    brackets.pop();
                }
                _ => {}
            }
            prev = Some(t);
        }
    }
}

fn is_closing(kind: SyntaxKind) -> bool {
    matches!(kind, R_PAREN | R_BRACK | R_BRACE)
}

/// The new indentation of a level opened below `top`: one level deeper,
/// or two below a `|` stage (its body sits four columns past the `|`).
fn deeper(top: Level, after_stage: bool) -> usize {
    top.indent + if after_stage { 2 * INDENT } else { INDENT }
}

/// The indentation of a line that starts a logical line, updating the
/// layout stack as the layout pass does (the file has no indentation
/// errors, so the column is always on the stack after popping).
fn code_indent(width: u32, stack: &mut Vec<Level>, after_stage: bool) -> usize {
    let top = stack.last().copied().unwrap_or(Level {
        width: 0,
        indent: 0,
    });
    if width > top.width {
        stack.push(Level {
            width,
            indent: deeper(top, after_stage),
        });
    } else {
        while stack.len() > 1 && stack.last().is_some_and(|l| l.width > width) {
            stack.pop();
        }
    }
    stack.last().map_or(0, |l| l.indent)
}

/// The indentation of a comment-only line at column `width`: that of the
/// body the next code line opens, if the comment is indented past the
/// current level and that line is; else that of the deepest level at or
/// left of the comment.
fn comment_indent(width: u32, stack: &[Level], next: Option<u32>, after_stage: bool) -> usize {
    let Some(&top) = stack.last() else { return 0 };
    if width > top.width && next.is_some_and(|n| n > top.width) {
        return deeper(top, after_stage);
    }
    stack
        .iter()
        .rev()
        .find(|l| l.width <= width)
        .map_or(0, |l| l.indent)
}

/// Whether the space after `t` is inside a string literal.
fn inside_string(t: &SyntaxToken) -> bool {
    t.kind() != STRING_CLOSE && t.parent_ancestors().any(|n| n.kind() == STRING)
}

/// The blanks to print between two tokens of a line; `gap` is the original.
fn spacing<'a>(prev: &SyntaxToken, next: &SyntaxToken, gap: &'a str) -> &'a str {
    if inside_string(prev) {
        return gap;
    }
    let (p, n) = (prev.kind(), next.kind());
    if n == COMMENT {
        // Keep the author's alignment of trailing comments.
        return if !gap.is_empty() && gap.bytes().all(|b| b == b' ') {
            gap
        } else {
            " "
        };
    }
    if matches!(p, L_PAREN | L_BRACK) || matches!(n, R_PAREN | R_BRACK | COMMA) {
        return "";
    }
    if n == COLON {
        let ternary = next.parent().is_some_and(|n| n.kind() == TERNARY_EXPR);
        return if ternary { " " } else { "" };
    }
    if matches!(p, COMMA | COLON | EQ | ARROW | PIPE) || matches!(n, EQ | ARROW | PIPE) {
        return " ";
    }
    if gap.is_empty() { "" } else { " " }
}

#[cfg(test)]
mod tests;
