//! /fetch (a URL, as markdown or html, or `continue`), /web (a query with
//! optional `site:` filters) and /calc (an expression, kept as written).

use super::{Args, Cx, is_url};
use crate::{
    action::{Calc, FetchRequest, Name, WebQuery},
    content::Content,
    diagnostics,
    lexer::Kind,
    reference::{self, At, Reference},
    semantic::SemanticKind,
};

pub(super) fn fetch(cx: &mut Cx<'_>, a: &Args<'_>) -> FetchRequest {
    let toks = a.toks;
    let Some(first) = toks.first() else {
        cx.missing(
            a.verb_span,
            "What should I fetch? Give a URL: /fetch https://example.com",
        );
        return FetchRequest::Continue;
    };
    if cx.keyword(Some(first), &["continue"]).is_some() {
        cx.unexpected(&toks[1..], "after continue");
        return FetchRequest::Continue;
    }
    let raw = cx.src(first);
    let url = match (first.kind, reference::classify_at(raw, first.closed)) {
        (Kind::Ref, At::Reference(Reference::Uri { uri })) => Name {
            text: uri,
            span: first.span,
        },
        _ => {
            let mut name = cx.name(first);
            if first.is_content() {
                name.text = Content::from_token(cx.text, first).text;
            }
            // An unclosed `@[` is reported as such.
            if !is_url(&name.text) && first.closed {
                cx.report(
                    &diagnostics::INVALID_URL,
                    first.span,
                    format!(
                        "`{}` doesn't look like a URL - give one like https://example.com",
                        super::ellipsis(raw)
                    ),
                );
            }
            name
        }
    };
    cx.mark(first.span, SemanticKind::Url);
    let html = match cx.keyword(toks.get(1), &["html", "markdown", "md"]) {
        Some(f) => {
            cx.unexpected(&toks[2..], "after the format");
            f == "html"
        }
        None => {
            if toks.len() > 1 {
                cx.unexpected_because(
                    &toks[1..],
                    "after the URL - the formats are markdown (the default) and html",
                );
            }
            false
        }
    };
    if html {
        FetchRequest::Html { url }
    } else {
        FetchRequest::Markdown { url }
    }
}

pub(super) fn web(cx: &mut Cx<'_>, a: &Args<'_>) -> WebQuery {
    let mut sites = Vec::new();
    for t in a.toks {
        if let Some(w) = cx.word(Some(t))
            && w.len() > 5
            && w[..5].eq_ignore_ascii_case("site:")
        {
            cx.mark(t.span, SemanticKind::Keyword);
            sites.push(Name {
                text: w[5..].to_string(),
                span: t.span,
            });
        }
    }
    let query = cx.content(a.toks).unwrap_or_else(|| {
        cx.missing(
            a.verb_span,
            "What should I search the web for? /web rust async patterns",
        );
        Content::missing(a.verb_span.end)
    });
    WebQuery { query, sites }
}

pub(super) fn calc(cx: &mut Cx<'_>, a: &Args<'_>) -> Calc {
    let expression = cx.content(a.toks).unwrap_or_else(|| {
        cx.missing(a.verb_span, "What should I calculate? /calc 20% of 350");
        Content::missing(a.verb_span.end)
    });
    Calc { expression }
}
