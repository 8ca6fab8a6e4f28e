//! /recall: long-term memory, intent inferred from the shape of the
//! arguments (the seed's `interpret_recall`), in this order:
//!
//! 1. a subcommand word: `insert`/`add`/`save`, `append`, `read`/`get`/
//!    `check`/`show`, `delete`/`remove`, `patch`/`edit`; or `+ content`
//!    (insert) or `- block` (delete) first;
//! 2. `-block`: delete;
//! 3. `block + content`: append (the form table is more specific than the
//!    subcommand list, where `+` means append);
//! 4. by the alias used: `forget X` deletes, `store`/`save`/`archive`/
//!    `remember X` insert, `get X` reads;
//! 5. a single word the registry knows: read;
//! 6. anything else: search.
//!
//! With a registry, the block of an explicit read, append, delete or patch
//! must exist (D012); without one nothing is checked, and every bare form
//! is a search.

use super::{Args, Cx};
use crate::{
    Span,
    action::{Name, RecallIntent},
    content::Content,
    lexer::Token,
    semantic::SemanticKind,
};

/// What the verb word itself implies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    Recall,
    Store,
    Delete,
    Read,
}

impl Mode {
    pub(super) fn of(word: &str) -> Mode {
        match word {
            "forget" => Mode::Delete,
            "store" | "save" | "archive" | "remember" => Mode::Store,
            "get" => Mode::Read,
            _ => Mode::Recall,
        }
    }
}

const INSERT: &[&str] = &["insert", "add", "save", "+"];
const APPEND: &[&str] = &["append"];
const READ: &[&str] = &["read", "get", "check", "show"];
const DELETE: &[&str] = &["delete", "remove", "-"];
const PATCH: &[&str] = &["patch", "edit"];

pub(super) fn parse(cx: &mut Cx<'_>, a: &Args<'_>, mode: Mode) -> RecallIntent {
    let toks = a.toks;
    if toks.is_empty() {
        let message = match mode {
            Mode::Delete => "What should I forget? Name the block: /forget block_name",
            Mode::Store => "What should I remember? Give the content: /recall + \"...\"",
            _ => "What should I recall? Give a block name or a query: /recall project deadlines",
        };
        cx.missing(a.verb_span, message);
        return RecallIntent::Search {
            query: Content::missing(a.verb_span.end),
        };
    }
    let first = toks.first();
    let rest = &toks[1..];
    if cx.keyword(first, INSERT).is_some() {
        return insert(cx, a, rest);
    }
    if cx.keyword(first, APPEND).is_some() {
        let skip = usize::from(cx.keyword(rest.get(1), &["+"]).is_some());
        let block = block(cx, a, rest, "append to");
        return append(cx, a, block, &rest[(1 + skip).min(rest.len())..]);
    }
    if cx.keyword(first, READ).is_some() {
        return RecallIntent::Read {
            block: single_block(cx, a, rest, "read"),
        };
    }
    if cx.keyword(first, DELETE).is_some() {
        return RecallIntent::Delete {
            block: single_block(cx, a, rest, "delete"),
        };
    }
    if cx.keyword(first, PATCH).is_some() {
        let block = block(cx, a, rest, "patch");
        let patch = cx.content(rest.get(1..).unwrap_or(&[]));
        let patch = patch.unwrap_or_else(|| {
            cx.missing(
                a.end(),
                "A patch needs the edit: /recall patch block_name ```diff ... ```",
            );
            Content::missing(a.end().end)
        });
        return RecallIntent::Patch { block, patch };
    }
    // `-block`
    if let Some(w) = cx.word(first)
        && let Some(label) = w.strip_prefix('-')
        && !label.is_empty()
    {
        let t = toks[0];
        cx.mark(
            Span::new(t.span.start, t.span.start + 1),
            SemanticKind::Keyword,
        );
        let mut name = Name {
            text: label.to_string(),
            span: Span::new(t.span.start + 1, t.span.end),
        };
        cx.check_block("recall", &mut name);
        cx.unexpected(rest, "after the block to delete");
        return RecallIntent::Delete { block: name };
    }
    // `block + content`
    if toks.len() >= 2 && cx.word(toks.get(1)) == Some("+") && cx.word(first).is_some() {
        cx.mark(toks[1].span, SemanticKind::Keyword);
        let block = block(cx, a, toks, "append to");
        return append(cx, a, block, &toks[2..]);
    }
    match mode {
        Mode::Delete => RecallIntent::Delete {
            block: single_block(cx, a, toks, "delete"),
        },
        Mode::Store => insert(cx, a, toks),
        Mode::Read => RecallIntent::Read {
            block: single_block(cx, a, toks, "read"),
        },
        Mode::Recall => {
            if toks.len() == 1
                && let Some(w) = cx.word(first)
                && let Some((spelled, _)) = cx.registry.and_then(|r| r.get(w))
            {
                cx.mark(toks[0].span, SemanticKind::Block);
                return RecallIntent::Read {
                    block: Name {
                        text: spelled.to_string(),
                        span: toks[0].span,
                    },
                };
            }
            let query = cx.content(toks).unwrap_or_default();
            RecallIntent::Search { query }
        }
    }
}

fn insert(cx: &mut Cx<'_>, a: &Args<'_>, toks: &[Token]) -> RecallIntent {
    // `insert label "content"`: a plain word, then a string or block.
    let label =
        (toks.len() >= 2 && toks[1].is_content() && cx.word(toks.first()).is_some()).then(|| {
            cx.mark(toks[0].span, SemanticKind::Block);
            cx.name(&toks[0])
        });
    let from = usize::from(label.is_some());
    let content = cx.content(&toks[from..]).unwrap_or_else(|| {
        cx.missing(
            a.end(),
            "What should I store? Give the content: /recall + \"...\"",
        );
        Content::missing(a.end().end)
    });
    RecallIntent::Insert { label, content }
}

fn append(cx: &mut Cx<'_>, a: &Args<'_>, block: Name, toks: &[Token]) -> RecallIntent {
    let content = cx.content(toks).unwrap_or_else(|| {
        if block.text.is_empty() {
            // The missing block is reported already.
            return Content::missing(a.end().end);
        }
        let message = format!(
            "What should I append to {}? Give the content: /recall {} + \"...\"",
            block.text, block.text
        );
        cx.missing(a.end(), message);
        Content::missing(a.end().end)
    });
    RecallIntent::Append { block, content }
}

/// The block named by the first token (checked against the registry).
fn block(cx: &mut Cx<'_>, a: &Args<'_>, toks: &[Token], what: &str) -> Name {
    let Some(t) = toks.first() else {
        cx.missing(
            a.end(),
            format!("Which block should I {what}? Name it after the subcommand"),
        );
        return Name {
            text: String::new(),
            span: Span::empty(a.end().end),
        };
    };
    let mut name = if t.is_content() {
        Name {
            text: Content::from_token(cx.text, t).text,
            span: t.span,
        }
    } else {
        cx.name(t)
    };
    cx.check_block("recall", &mut name);
    name
}

/// A block and nothing after it.
fn single_block(cx: &mut Cx<'_>, a: &Args<'_>, toks: &[Token], what: &str) -> Name {
    let name = block(cx, a, toks, what);
    if toks.len() > 1 {
        cx.unexpected(&toks[1..], &format!("after the block to {what}"));
    }
    name
}
