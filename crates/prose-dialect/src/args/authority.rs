//! Authority and emergency: /approve and /deny (`[request-id]`, `always`,
//! /deny's reason), /escalate, /cancel, /halt (a reason is required) and
//! /uncertain.
//!
//! A request id is written bare (`req-42`) or in brackets (`[req-42]`). For
//! /approve, /deny and /cancel any first word that is not `always` is the
//! id; for /escalate, whose reason may be unquoted, only a bracketed word or
//! one with a digit is.

use super::{Args, Cx};
use crate::{
    action::{Cancellation, Decision, Escalation, Halt, Name, Uncertain},
    content::Content,
    diagnostics,
    lexer::{Kind, Token},
    semantic::SemanticKind,
    verbs::Verb,
};

pub(super) fn decision(cx: &mut Cx<'_>, a: &Args<'_>, verb: Verb) -> Decision {
    let mut toks = a.toks;
    let mut always = false;
    if cx.keyword(toks.last(), &["always"]).is_some() {
        always = true;
        toks = &toks[..toks.len() - 1];
    }
    let request = match toks.first() {
        Some(t) if t.kind == Kind::Word && cx.src(t) != "always" => Some(id(cx, t)),
        _ => None,
    };
    let rest = &toks[usize::from(request.is_some())..];
    let reason = if verb == Verb::Deny {
        cx.content(rest)
    } else {
        cx.unexpected_because(
            rest,
            "- /approve takes a request id and `always`, nothing else",
        );
        None
    };
    Decision {
        request,
        always,
        reason,
    }
}

pub(super) fn escalate(cx: &mut Cx<'_>, a: &Args<'_>) -> Escalation {
    let toks = a.toks;
    let request = toks
        .first()
        .filter(|t| {
            let w = cx.src(t);
            t.kind == Kind::Word
                && (w.starts_with('[') && w.ends_with(']') || w.bytes().any(|b| b.is_ascii_digit()))
        })
        .map(|t| id(cx, t));
    let reason = cx.content(&toks[usize::from(request.is_some())..]);
    Escalation { request, reason }
}

pub(super) fn cancel(cx: &mut Cx<'_>, a: &Args<'_>) -> Cancellation {
    let request = a
        .toks
        .first()
        .filter(|t| t.kind == Kind::Word)
        .map(|t| id(cx, t));
    cx.unexpected_because(
        &a.toks[usize::from(request.is_some())..],
        "- /cancel takes at most a request id",
    );
    Cancellation { request }
}

pub(super) fn halt(cx: &mut Cx<'_>, a: &Args<'_>) -> Halt {
    let reason = cx.content(a.toks).unwrap_or_else(|| {
        cx.report(
            &diagnostics::HALT_WITHOUT_REASON,
            a.verb_span,
            "/halt needs a reason - say why everything must stop: /halt \"reason for emergency stop\" !",
        );
        Content::missing(a.verb_span.end)
    });
    Halt { reason }
}

pub(super) fn uncertain(cx: &mut Cx<'_>, a: &Args<'_>) -> Uncertain {
    let note = cx.content(a.toks).unwrap_or_else(|| {
        cx.missing(
            a.verb_span,
            "What are you unsure about? /uncertain \"this looks like sarcasm but I can't tell\"",
        );
        Content::missing(a.verb_span.end)
    });
    Uncertain { note }
}

fn id(cx: &mut Cx<'_>, t: &Token) -> Name {
    cx.mark(t.span, SemanticKind::Block);
    cx.name(t)
}
