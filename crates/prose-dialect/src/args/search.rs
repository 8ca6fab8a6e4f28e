//! /search: a query, a domain (`in archival`, `in conversations`, `in
//! constellation`, `in all`, `everywhere`; or a domain word followed by
//! `about`/`for`), a time filter (`> 2 weeks`: older than; `< 3 days`:
//! newer than) and a role filter (`role:assistant`). Domain modifiers may
//! stand at the start or the end; filters anywhere.

use std::borrow::Cow;

use super::{Args, Cx};
use crate::{
    Span,
    action::{Name, SearchDomain, SearchQuery, TimeFilter},
    content::Content,
    lexer::{Kind, Token},
    semantic::SemanticKind,
};

fn domain(word: &str) -> Option<SearchDomain> {
    match word.to_ascii_lowercase().as_str() {
        "archival" | "archive" => Some(SearchDomain::Archival),
        "conversations" | "conversation" => Some(SearchDomain::Conversations),
        "constellation" => Some(SearchDomain::Constellation),
        "all" => Some(SearchDomain::All),
        _ => None,
    }
}

pub(super) fn parse(cx: &mut Cx<'_>, a: &Args<'_>) -> SearchQuery {
    let mut toks = a.toks;
    let mut dom = None;
    // At the start: `in DOMAIN`, `everywhere`, `DOMAIN about|for`.
    if let Some((d, n)) = leading_domain(cx, toks) {
        dom = Some(d);
        toks = &toks[n..];
    }
    // At the end: `in DOMAIN`, `everywhere`.
    if dom.is_none()
        && let Some((d, n)) = trailing_domain(cx, toks)
    {
        dom = Some(d);
        toks = &toks[..toks.len() - n];
    }
    let mut time = None;
    let mut role = None;
    let mut query: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if time.is_none()
            && let Some((f, n)) = time_filter(cx, &toks[i..])
        {
            cx.mark(f.span, SemanticKind::Keyword);
            time = Some(f);
            i += n;
            continue;
        }
        if role.is_none()
            && let Some(w) = cx.word(toks.get(i))
            && w.len() > 5
            && w[..5].eq_ignore_ascii_case("role:")
        {
            cx.mark(toks[i].span, SemanticKind::Keyword);
            role = Some(Name {
                text: w[5..].to_ascii_lowercase(),
                span: toks[i].span,
            });
            i += 1;
            continue;
        }
        query.push(toks[i]);
        i += 1;
    }
    let query = query_content(cx, &query).unwrap_or_else(|| {
        cx.missing(
            a.end(),
            "What should I search for? /search project deadlines",
        );
        Content::missing(a.end().end)
    });
    SearchQuery {
        domain: dom.unwrap_or(SearchDomain::All),
        query,
        time,
        role,
    }
}

fn leading_domain(cx: &mut Cx<'_>, toks: &[Token]) -> Option<(SearchDomain, usize)> {
    let w0 = cx.word(toks.first())?;
    if w0.eq_ignore_ascii_case("everywhere") {
        cx.mark(toks[0].span, SemanticKind::Keyword);
        return Some((SearchDomain::All, 1));
    }
    let w1 = cx.word(toks.get(1))?;
    let d = if w0.eq_ignore_ascii_case("in") {
        domain(w1)?
    } else if w1.eq_ignore_ascii_case("about") || w1.eq_ignore_ascii_case("for") {
        domain(w0)?
    } else {
        return None;
    };
    cx.mark(toks[0].span.cover(toks[1].span), SemanticKind::Keyword);
    Some((d, 2))
}

fn trailing_domain(cx: &mut Cx<'_>, toks: &[Token]) -> Option<(SearchDomain, usize)> {
    let n = toks.len();
    let last = cx.word(toks.last())?;
    if last.eq_ignore_ascii_case("everywhere") && n > 1 {
        cx.mark(toks[n - 1].span, SemanticKind::Keyword);
        return Some((SearchDomain::All, 1));
    }
    if n > 2
        && cx
            .word(toks.get(n - 2))
            .is_some_and(|w| w.eq_ignore_ascii_case("in"))
    {
        let d = domain(last)?;
        cx.mark(
            toks[n - 2].span.cover(toks[n - 1].span),
            SemanticKind::Keyword,
        );
        return Some((d, 2));
    }
    None
}

/// `> 2 weeks`, `>2 weeks`, `> 2weeks`, `>2w`: the filter and how many
/// tokens it takes.
fn time_filter(cx: &Cx<'_>, toks: &[Token]) -> Option<(TimeFilter, usize)> {
    let w0 = cx.word(toks.first())?;
    let older = match w0.as_bytes().first()? {
        b'>' => true,
        b'<' => false,
        _ => return None,
    };
    // Up to three tokens: operator, amount, unit, possibly written together.
    let mut parts: Vec<(&str, usize)> = vec![(&w0[1..], 1)];
    for (i, t) in toks.iter().enumerate().skip(1).take(2) {
        if t.kind != Kind::Word {
            break;
        }
        parts.push((cx.src(t), i + 1));
    }
    let mut joined = String::new();
    for (text, used) in parts {
        joined.push_str(text);
        let digits = joined.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            if joined.is_empty() {
                continue;
            }
            return None;
        }
        let Ok(amount) = joined[..digits].parse::<u32>() else {
            return None;
        };
        if let Some(unit) = unit(&joined[digits..]) {
            let span = toks[0].span.cover(toks[used - 1].span);
            return Some((
                TimeFilter {
                    older,
                    amount,
                    unit: Cow::Borrowed(unit),
                    span,
                },
                used,
            ));
        }
    }
    None
}

fn unit(s: &str) -> Option<&'static str> {
    Some(match s.to_ascii_lowercase().as_str() {
        "m" | "min" | "mins" | "minute" | "minutes" => "minutes",
        "h" | "hr" | "hrs" | "hour" | "hours" => "hours",
        "d" | "day" | "days" => "days",
        "w" | "wk" | "wks" | "week" | "weeks" => "weeks",
        "mo" | "month" | "months" => "months",
        "y" | "yr" | "yrs" | "year" | "years" => "years",
        _ => return None,
    })
}

/// The query: one string or block as is, otherwise the words joined by
/// single spaces (filters taken out).
fn query_content(cx: &mut Cx<'_>, toks: &[Token]) -> Option<Content> {
    let first = toks.first()?;
    if toks.len() == 1 || first.is_content() {
        return cx.content(toks);
    }
    let span = first.span.cover(toks[toks.len() - 1].span);
    let contiguous = toks.windows(2).all(|w| {
        cx.text[w[0].span.end..w[1].span.start]
            .bytes()
            .all(|b| b == b' ' || b == b'\t')
    });
    if contiguous {
        return cx.content(toks);
    }
    let mut text = String::new();
    for t in toks {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(cx.src(t));
    }
    Some(Content {
        text,
        span: Span::new(span.start, span.end),
        ..Content::default()
    })
}
