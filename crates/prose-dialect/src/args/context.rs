//! /context: working memory. The forms, tried in order: a subcommand
//! (`archive X`, `load X`, `swap X Y`, `append X content`), `block +
//! content` (append), `block "old" -> "new"` (replace).

use super::{Args, Cx};
use crate::{
    Span,
    action::{ContextOp, Name},
    content::Content,
    lexer::{Kind, Token},
    semantic::SemanticKind,
};

/// `archived`: the verb word was `archive` (`/archive persona`), so the
/// arguments are those of the `archive` subcommand.
pub(super) fn parse(cx: &mut Cx<'_>, a: &Args<'_>, archived: bool) -> ContextOp {
    let toks = a.toks;
    if archived {
        let block = name(cx, a, toks, 0, "archive");
        cx.unexpected(toks.get(1..).unwrap_or(&[]), "after the block to archive");
        return ContextOp::Archive { block };
    }
    let first = toks.first();
    let rest = toks.get(1..).unwrap_or(&[]);
    match cx.keyword(first, &["archive", "load", "swap", "append"]) {
        Some("archive") => {
            let block = name(cx, a, rest, 0, "archive");
            cx.unexpected(rest.get(1..).unwrap_or(&[]), "after the block to archive");
            return ContextOp::Archive { block };
        }
        Some("load") => {
            let label = name(cx, a, rest, 0, "load");
            cx.unexpected(rest.get(1..).unwrap_or(&[]), "after the block to load");
            return ContextOp::Load { label };
        }
        Some("swap") => {
            let block = name(cx, a, rest, 0, "swap out");
            let label = name(cx, a, rest, 1, "swap in");
            cx.unexpected(rest.get(2..).unwrap_or(&[]), "after the two blocks to swap");
            return ContextOp::Swap { block, label };
        }
        Some(_) => {
            let block = name(cx, a, rest, 0, "append to");
            let skip = 1 + usize::from(cx.keyword(rest.get(1), &["+"]).is_some());
            return append(cx, a, block, rest.get(skip..).unwrap_or(&[]));
        }
        None => {}
    }
    if let Some(t) = first
        && t.is_content()
    {
        cx.missing(
            Span::empty(t.span.start),
            "Which block should this go in? Name it first: /context block_name + \"...\"",
        );
        let content = cx.content(toks).unwrap_or_default();
        return ContextOp::Append {
            block: Name {
                text: String::new(),
                span: Span::empty(t.span.start),
            },
            content,
        };
    }
    if toks.is_empty() {
        cx.missing(
            a.verb_span,
            "Which block, and what should change? /context persona + \"...\" appends, /context persona \"old\" -> \"new\" replaces",
        );
        return ContextOp::Append {
            block: Name::default(),
            content: Content::missing(a.verb_span.end),
        };
    }
    let block = name(cx, a, toks, 0, "change");
    if cx.word(toks.get(1)) == Some("+") {
        cx.mark(toks[1].span, SemanticKind::Keyword);
        return append(cx, a, block, &toks[2..]);
    }
    if let Some(arrow) = toks.iter().position(|t| t.kind == Kind::Arrow) {
        cx.mark(toks[arrow].span, SemanticKind::Operator);
        let old = cx.content(&toks[1..arrow]);
        let new = cx.content(&toks[arrow + 1..]);
        let (old, new) = match (old, new) {
            (Some(o), Some(n)) => (o, n),
            (o, n) => {
                cx.missing(
                    toks[arrow].span,
                    "A replacement needs the old text and the new: /context block \"old\" -> \"new\"",
                );
                let at = toks[arrow].span;
                (
                    o.unwrap_or_else(|| Content::missing(at.start)),
                    n.unwrap_or_else(|| Content::missing(at.end)),
                )
            }
        };
        return ContextOp::Replace { block, old, new };
    }
    if toks.len() > 1 {
        cx.unexpected_because(
            &toks[1..],
            &format!(
                "after {0} - use /context {0} + \"...\" to append, or /context {0} \"old\" -> \"new\" to replace",
                block.text
            ),
        );
    } else if !toks.is_empty() {
        cx.missing(
            a.end(),
            format!(
                "What should I do with {0}? Append with /context {0} + \"...\", or replace with /context {0} \"old\" -> \"new\"",
                block.text
            ),
        );
    }
    ContextOp::Append {
        block,
        content: Content::missing(a.end().end),
    }
}

fn append(cx: &mut Cx<'_>, a: &Args<'_>, block: Name, toks: &[Token]) -> ContextOp {
    let content = cx.content(toks).unwrap_or_else(|| {
        let message = format!(
            "What should I add to {0}? Give the content: /context {0} + \"...\"",
            block.text
        );
        cx.missing(a.end(), message);
        Content::missing(a.end().end)
    });
    ContextOp::Append { block, content }
}

/// The block at `toks[i]`, checked against the registry.
fn name(cx: &mut Cx<'_>, a: &Args<'_>, toks: &[Token], i: usize, what: &str) -> Name {
    let Some(t) = toks.get(i) else {
        cx.missing(a.end(), format!("Which block should I {what}?"));
        return Name {
            text: String::new(),
            span: Span::empty(a.end().end),
        };
    };
    let mut name = cx.name(t);
    cx.check_block("context", &mut name);
    name
}
