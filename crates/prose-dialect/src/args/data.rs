//! /data: `list`, `read ID`, `search ID query`, `monitor ID`, `pause ID`.

use super::{Args, Cx};
use crate::{
    Span,
    action::{DataOp, Name},
    content::Content,
    diagnostics,
    lexer::Token,
    resolve,
    semantic::SemanticKind,
};

const SUBCOMMANDS: &[&str] = &["list", "read", "search", "monitor", "pause"];

pub(super) fn parse(cx: &mut Cx<'_>, a: &Args<'_>) -> DataOp {
    let toks = a.toks;
    let rest = toks.get(1..).unwrap_or(&[]);
    let Some(sub) = cx.keyword(toks.first(), SUBCOMMANDS) else {
        match toks.first() {
            None => cx.missing(
                a.verb_span,
                "Which data operation? list, read, search, monitor or pause: /data list",
            ),
            Some(t) => {
                let w = cx.src(t);
                let ops = "list, read, search, monitor and pause";
                let hint = match resolve::closest_of(w, SUBCOMMANDS) {
                    Some(s) => format!("did you mean {s}? The operations are {ops}"),
                    None => format!("the operations are {ops}"),
                };
                cx.report(
                    &diagnostics::UNEXPECTED_ARGUMENT,
                    t.span,
                    format!("I don't know `/data {}` - {hint}", super::ellipsis(w)),
                );
            }
        }
        return DataOp::List;
    };
    if sub == "list" {
        cx.unexpected(rest, "after list");
        return DataOp::List;
    }
    let source = source(cx, a, rest);
    let after = rest.get(1..).unwrap_or(&[]);
    match sub {
        "read" | "monitor" | "pause" => {
            if !after.is_empty() {
                cx.unexpected(after, &format!("after the source to {sub}"));
            }
            match sub {
                "read" => DataOp::Read { source },
                "monitor" => DataOp::Monitor { source },
                _ => DataOp::Pause { source },
            }
        }
        _ => {
            let query = cx.content(after).unwrap_or_else(|| {
                cx.missing(
                    a.end(),
                    "What should I search for in the source? /data search source_id \"query\"",
                );
                Content::missing(a.end().end)
            });
            DataOp::Search { source, query }
        }
    }
}

fn source(cx: &mut Cx<'_>, a: &Args<'_>, toks: &[Token]) -> Name {
    match toks.first() {
        Some(t) => {
            cx.mark(t.span, SemanticKind::Block);
            cx.name(t)
        }
        None => {
            cx.missing(
                a.end(),
                "Which source? Name it: /data read source_id (see /data list)",
            );
            Name {
                text: String::new(),
                span: Span::empty(a.end().end),
            }
        }
    }
}
