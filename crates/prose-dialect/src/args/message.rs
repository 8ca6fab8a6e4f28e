//! Messages: `/send @domain @target content` and its shorthands `/reply
//! content` (the current thread), `/post platform content`, `/dm @user
//! content`, `/tell @agent content`.
//!
//! Targets start with `@`; a bare word where a target belongs is an error
//! with a fix that adds the `@`. The /send domain may be written with or
//! without `@`. In a chain, a message without content sends the output of
//! the previous action (`@last.output`).

use std::borrow::Cow;

use super::{Args, Cx};
use crate::{
    Span,
    action::{Message, Name},
    content::{Content, ContentForm},
    diagnostics,
    lexer::{Kind, Token},
    reference::{self, At, Reference},
    resolve,
    semantic::SemanticKind,
    verbs::{PLATFORMS, SEND_DOMAINS, Verb},
};

pub(super) fn parse(cx: &mut Cx<'_>, a: &Args<'_>, verb: Verb) -> Message {
    let toks = a.toks;
    let reported = cx.diagnostics.len();
    let (domain, target, rest): (Cow<'static, str>, Option<Name>, &[Token]) = match verb {
        Verb::Send => {
            let (domain, n) = send_domain(cx, a);
            let target = match &*domain {
                // Reported already: take what follows as it comes.
                "" => None,
                "user" => toks.get(n).and_then(|t| at_name(cx, t)),
                d => target(cx, a, &toks[n..], Some(d), verb),
            };
            let n = n + usize::from(target.is_some());
            (domain, target, &toks[n..])
        }
        Verb::Reply => (Cow::Borrowed("thread"), None, toks),
        Verb::Post => {
            let (platform, n) = platform(cx, a);
            (platform, None, &toks[n..])
        }
        _ => {
            let domain = if verb == Verb::Dm { "user" } else { "agent" };
            let target = target(cx, a, toks, None, verb);
            let n = usize::from(target.is_some());
            (Cow::Borrowed(domain), target, &toks[n..])
        }
    };
    // One problem at a time: no "what should I say?" after a bad domain,
    // platform or target.
    let quiet = cx.diagnostics.len() > reported;
    message(cx, a, domain, target, rest, quiet)
}

fn message(
    cx: &mut Cx<'_>,
    a: &Args<'_>,
    domain: Cow<'static, str>,
    target: Option<Name>,
    rest: &[Token],
    quiet: bool,
) -> Message {
    let content = match cx.content(rest) {
        Some(c) => c,
        // In a chain: the previous action's output, implicitly.
        None if a.in_chain => Content {
            form: ContentForm::Reference,
            reference: Some(Reference::LastOutput),
            ..Content::missing(a.end().end)
        },
        None if quiet => Content::missing(a.end().end),
        None => {
            cx.missing(
                a.end(),
                "What should I say? Add the message, e.g. \"sounds good\"",
            );
            Content::missing(a.end().end)
        }
    };
    Message {
        domain,
        target,
        content,
    }
}

/// The /send domain and how many tokens it takes; an empty domain after
/// reporting D007 (an unknown domain is still skipped).
fn send_domain(cx: &mut Cx<'_>, a: &Args<'_>) -> (Cow<'static, str>, usize) {
    let names: Vec<&str> = SEND_DOMAINS.iter().map(|(d, _)| *d).collect();
    let list = "@user, @agent, @channel, @bluesky or @discord";
    let Some(t) = a
        .toks
        .first()
        .filter(|t| matches!(t.kind, Kind::Ref | Kind::Word))
    else {
        let at = a.toks.first().map_or(a.verb_span.end, |t| t.span.start);
        cx.report(
            &diagnostics::INVALID_SEND_DOMAIN,
            Span::empty(at),
            format!("/send needs a domain first: {list} - where should this go?"),
        );
        return (Cow::Borrowed(""), 0);
    };
    let raw = cx.src(t);
    let word = raw.strip_prefix('@').unwrap_or(raw);
    if let Some(d) = SEND_DOMAINS
        .iter()
        .map(|(d, _)| *d)
        .find(|d| d.eq_ignore_ascii_case(word))
    {
        cx.mark(t.span, SemanticKind::Target);
        return (Cow::Borrowed(d), 1);
    }
    let suggestion = resolve::closest_of(word, &names);
    let message = match suggestion {
        Some(s) => {
            format!("I don't know the domain `{raw}` - did you mean @{s}? The domains are {list}")
        }
        None => format!("I don't know the domain `{raw}` - the domains are {list}"),
    };
    match suggestion {
        Some(s) => cx.report_fix(
            &diagnostics::INVALID_SEND_DOMAIN,
            t.span,
            message,
            format!("Use @{s}"),
            format!("@{s}"),
        ),
        None => cx.report(&diagnostics::INVALID_SEND_DOMAIN, t.span, message),
    }
    (Cow::Borrowed(""), 1)
}

/// The target `@name` at the start of `toks` (D008 when missing);
/// `domain` for /send, `None` for /dm and /tell.
fn target(
    cx: &mut Cx<'_>,
    a: &Args<'_>,
    toks: &[Token],
    domain: Option<&str>,
    verb: Verb,
) -> Option<Name> {
    let who = || match domain {
        Some(d) => format!("Who on @{d} should get this?"),
        None => "Who should get this?".to_string(),
    };
    let example = || match domain {
        Some(d) => format!("/send @{d} @name \"...\""),
        None if verb == Verb::Dm => "/dm @user \"...\"".into(),
        None => "/tell @agent \"...\"".into(),
    };
    let Some(t) = toks.first() else {
        let message = format!("{} Add a target: {}", who(), example());
        cx.report(
            &diagnostics::MISSING_TARGET,
            Span::empty(a.end().end),
            message,
        );
        return None;
    };
    if t.kind == Kind::Ref {
        return at_name(cx, t);
    }
    if t.kind == Kind::Word && reference::implicit(cx.src(t)).is_none() {
        let w = cx.src(t);
        cx.report_fix(
            &diagnostics::MISSING_TARGET,
            t.span,
            format!("{} Targets start with @ - did you mean @{w}?", who()),
            format!("Write @{w}"),
            format!("@{w}"),
        );
        return Some(cx.name(t));
    }
    cx.report(
        &diagnostics::MISSING_TARGET,
        Span::empty(t.span.start),
        format!("{} Put a target before the message: {}", who(), example()),
    );
    None
}

/// A target from an `@` token: a name or a reference (`@parent`).
fn at_name(cx: &mut Cx<'_>, t: &Token) -> Option<Name> {
    if t.kind != Kind::Ref {
        return None;
    }
    match cx.at(t) {
        At::Invalid(_) => None,
        At::Name(_) | At::Reference(_) => Some(cx.name(t)),
    }
}

/// The /post platform (lower case) and how many tokens it takes; an
/// empty platform after reporting.
fn platform(cx: &mut Cx<'_>, a: &Args<'_>) -> (Cow<'static, str>, usize) {
    let none = Cow::Borrowed("");
    let Some(t) = a.toks.first() else {
        cx.missing(
            a.verb_span,
            "Where should I post - bluesky or discord? /post bluesky \"...\"",
        );
        return (none, 0);
    };
    if t.kind == Kind::Ref
        && let At::Reference(Reference::Parent | Reference::Thread | Reference::LastMessage) =
            reference::classify_at(cx.src(t), t.closed)
    {
        cx.report(
            &diagnostics::AMBIGUOUS_ACTION,
            t.span,
            "I couldn't tell if you meant /post or /reply - which one?",
        );
        return (none, 1);
    }
    if t.kind != Kind::Word && t.kind != Kind::Ref {
        cx.missing(
            Span::empty(t.span.start),
            "Where should I post this? Name the platform first: /post bluesky \"...\"",
        );
        return (none, 0);
    }
    let raw = cx.src(t);
    let word = raw.strip_prefix('@').unwrap_or(raw).to_ascii_lowercase();
    cx.mark(t.span, SemanticKind::Target);
    if let Some(p) = PLATFORMS.iter().find(|p| **p == word) {
        return (Cow::Borrowed(p), 1);
    }
    if let Some(s) = resolve::closest_of(&word, PLATFORMS) {
        cx.report_fix(
            &diagnostics::UNKNOWN_PLATFORM,
            t.span,
            format!("I don't know the platform `{raw}` - did you mean {s}?"),
            format!("Use {s}"),
            s,
        );
    }
    (Cow::Owned(word), 1)
}
