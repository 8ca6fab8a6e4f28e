//! One action from its tokens: the chain split at `->`, each link's verb
//! resolved, its permission marker taken off the end, its arguments parsed
//! by the verb's signature (the seed's intent-resolution flow, steps 2–8).

use std::borrow::Cow;

use crate::{
    Span,
    action::ParsedAction,
    args::{self, Cx},
    diagnostics,
    lexer::{Kind, Token},
    marker::PermissionMarker,
    reference::{self, At},
    resolve::{self, VerbMatch, Word},
    semantic::SemanticKind,
};

/// The most links a chain may have; the rest is reported (D016) and
/// dropped, so that nested values stay shallow.
pub(crate) const MAX_CHAIN: usize = 64;

/// Parses an action whose first token is its verb. `None` when the first
/// verb cannot be resolved (the diagnostics say why).
pub(crate) fn parse_action(cx: &mut Cx<'_>, tokens: &[Token]) -> Option<ParsedAction> {
    token_problems(cx, tokens);
    let tokens = drop_dangling_arrow(cx, tokens);
    parse_chain(cx, tokens, false)
}

/// What follows a batch's closing `}`: a marker, and a chain.
pub(crate) fn parse_tail(
    cx: &mut Cx<'_>,
    tokens: &[Token],
) -> (Option<PermissionMarker>, Option<Box<ParsedAction>>) {
    token_problems(cx, tokens);
    let tokens = drop_dangling_arrow(cx, tokens);
    // Before the chain's arrow (a verb follows an arrow), or everything.
    let (before, verb) = match tokens.iter().position(|t| t.kind == Kind::Verb) {
        Some(v) => (&tokens[..v.saturating_sub(1)], v),
        None => (tokens, tokens.len()),
    };
    let (marker, rest) = take_marker(cx, before);
    cx.unexpected(&rest, "after the batch's `}`");
    let chain = parse_chain(cx, &tokens[verb..], true).map(Box::new);
    (marker, chain)
}

/// The links of `tokens` (each starting at a verb), parsed into one chain.
fn parse_chain(cx: &mut Cx<'_>, tokens: &[Token], in_chain: bool) -> Option<ParsedAction> {
    let verbs = tokens.iter().filter(|t| t.kind == Kind::Verb).count();
    let mut end = tokens.len();
    if verbs > MAX_CHAIN {
        let cut = tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| t.kind == Kind::Verb)
            .nth(MAX_CHAIN)
            .map_or(end, |(i, _)| i);
        let span = Span::new(tokens[cut].span.start - 1, tokens[end - 1].span.end);
        cx.report(
            &diagnostics::NESTING_LIMIT,
            span,
            format!("This chain has {verbs} actions; I follow at most {MAX_CHAIN} - split it up"),
        );
        end = cut.saturating_sub(1);
    }
    let mut next: Option<Box<ParsedAction>> = None;
    while let Some(start) = tokens[..end].iter().rposition(|t| t.kind == Kind::Verb) {
        let action = parse_link(cx, &tokens[start..end], in_chain || start > 0);
        if start == 0 {
            return action.map(|mut a| {
                a.chain = next;
                a
            });
        }
        next = action.map(|mut a| {
            a.chain = next.take();
            Box::new(a)
        });
        // The arrow before this link.
        end = start.saturating_sub(1);
    }
    next.map(|b| *b)
}

/// Unclosed strings, blocks and `@[`; marks of arrows and references.
fn token_problems(cx: &mut Cx<'_>, tokens: &[Token]) {
    for t in tokens {
        match t.kind {
            Kind::Arrow => cx.mark(t.span, SemanticKind::Operator),
            Kind::Ref => {
                let kind = match reference::classify_at(cx.src(t), t.closed) {
                    At::Name(_) => SemanticKind::Target,
                    _ => SemanticKind::Reference,
                };
                cx.mark(t.span, kind);
                if !t.closed {
                    cx.report(
                        &diagnostics::INVALID_REFERENCE,
                        t.span,
                        format!("`{}` is missing its closing `]`", args::ellipsis(cx.src(t))),
                    );
                }
            }
            _ if !t.closed => unterminated(cx, t),
            _ => {}
        }
    }
}

fn unterminated(cx: &mut Cx<'_>, t: &Token) {
    let src = cx.src(t);
    match t.kind {
        Kind::Str | Kind::SmartStr => {
            let close = if t.kind == Kind::Str { "\"" } else { "”" };
            cx.diagnostics.push(
                diagnostics::Diagnostic::new(
                    &diagnostics::UNTERMINATED_CONTENT,
                    t.span,
                    format!(
                        "This string has no closing `{close}` on its line - close it, or use \"\"\" for text over several lines"
                    ),
                )
                .with_fix_at(Span::empty(t.span.end), format!("Close the string with {close}"), close),
            );
        }
        _ => {
            let opener = if t.kind == Kind::Triple {
                "\"\"\""
            } else {
                let c = src.as_bytes()[0];
                &src[..src.bytes().take_while(|&b| b == c).count()]
            };
            let span = Span::new(t.span.start, t.span.start + opener.len());
            cx.report(
                &diagnostics::UNTERMINATED_CONTENT,
                span,
                format!(
                    "This {opener} block is never closed, so it takes the rest of the text - end it with {opener} on a line of its own"
                ),
            );
        }
    }
}

/// Reports and drops a final `->` with no action after it.
fn drop_dangling_arrow<'t>(cx: &mut Cx<'_>, tokens: &'t [Token]) -> &'t [Token] {
    match tokens.split_last() {
        Some((last, rest)) if last.kind == Kind::Arrow => {
            cx.report(
                &diagnostics::DANGLING_CHAIN,
                last.span,
                "`->` leads nowhere - put the next action after it, like -> /tell @entropy, or remove it",
            );
            rest
        }
        _ => tokens,
    }
}

/// One link: `tokens[0]` is its verb.
fn parse_link(cx: &mut Cx<'_>, tokens: &[Token], in_chain: bool) -> Option<ParsedAction> {
    let verb_tok = tokens[0];
    let written = cx.src(&verb_tok);
    let sigil = Span::new(verb_tok.span.start - 1, verb_tok.span.end);
    let span = sigil.cover(tokens[tokens.len() - 1].span);
    cx.mark(sigil, SemanticKind::Verb);
    let (word, confidence) = resolve_word(cx, written, verb_tok.span)?;
    let (marker, args) = take_marker(cx, &tokens[1..]);
    // Two-word aliases: `search web`, `look up`.
    let two_words = cx.word(args.first()).is_some_and(|second| {
        (word.text == "search" && second.eq_ignore_ascii_case("web"))
            || (word.text == "look" && second.eq_ignore_ascii_case("up"))
    });
    let (word, args, written_end) = match resolve::exact("web") {
        Some(web) if two_words => {
            cx.mark(args[0].span, SemanticKind::Verb);
            (web, &args[1..], args[0].span.end)
        }
        _ => (word, &args[..], verb_tok.span.end),
    };
    let (verb, arguments) = args::parse(cx, word, args, in_chain, verb_tok.span);
    Some(ParsedAction {
        verb,
        permission_marker: marker,
        intent: arguments.intent(),
        chain: None,
        arguments,
        written: spelled(&cx.text[verb_tok.span.start..written_end], word.text),
        confidence,
        span,
    })
}

/// `written` without an allocation when it is the known spelling.
fn spelled(written: &str, known: &'static str) -> Cow<'static, str> {
    if written == known {
        Cow::Borrowed(known)
    } else {
        Cow::Owned(written.to_string())
    }
}

/// The verb word resolved, or `None` after reporting why not.
fn resolve_word(cx: &mut Cx<'_>, written: &str, span: Span) -> Option<(Word, f32)> {
    let m = resolve::match_verb(written);
    if let VerbMatch::Exact(w) = m {
        return Some((w, 1.0));
    }
    let shown = args::ellipsis(written);
    // The fix of every verb diagnostic: write the known word.
    let mut report = |code, message: String, word: &'static str| {
        cx.report_fix(code, span, message, format!("Write /{word}"), word);
    };
    match m {
        VerbMatch::Exact(w) => Some((w, 1.0)),
        VerbMatch::Corrected { word, confidence } => {
            let message = format!("I read /{shown} as /{}", word.text);
            report(&diagnostics::CORRECTED_VERB, message, word.text);
            Some((word, confidence))
        }
        VerbMatch::StrictNearMiss(w) => {
            let what = match w.verb {
                crate::Verb::Halt => "an emergency stop",
                crate::Verb::Recall => "a deletion",
                _ => "a permission decision",
            };
            let message = format!(
                "/{shown} looks like /{0}, but I never guess {what} - write /{0} exactly",
                w.text
            );
            report(&diagnostics::STRICT_VERB_MISSPELLED, message, w.text);
            None
        }
        VerbMatch::Unknown {
            suggestion: Some(s),
        } => {
            let message = format!("I don't know the verb /{shown} - did you mean /{}?", s.text);
            report(&diagnostics::UNKNOWN_VERB, message, s.text);
            None
        }
        VerbMatch::Ambiguous(a, b) => {
            cx.report(
                &diagnostics::AMBIGUOUS_ACTION,
                span,
                format!(
                    "I couldn't tell if you meant /{} or /{} - which one?",
                    a.text, b.text
                ),
            );
            None
        }
        VerbMatch::Unknown { suggestion: None } => {
            cx.report(
                &diagnostics::UNKNOWN_VERB,
                span,
                format!(
                    "I don't know the verb /{shown} - the common ones are /recall, /search, /reply, /post and /tell"
                ),
            );
            None
        }
    }
}

/// Takes the permission marker off the end of `args` (skipping trailing
/// multi-line blocks); returns it and the remaining arguments.
fn take_marker<'t>(
    cx: &mut Cx<'_>,
    args: &'t [Token],
) -> (Option<PermissionMarker>, Cow<'t, [Token]>) {
    let j = args.iter().rposition(|t| !t.multiline).map_or(0, |i| i + 1);
    let Some(t) = j.checked_sub(1).map(|i| args[i]) else {
        return (None, Cow::Borrowed(args));
    };
    let word = cx.src(&t);
    if t.kind != Kind::Word || !PermissionMarker::looks_like(word) {
        return (None, Cow::Borrowed(args));
    }
    let mut cut = j - 1;
    let marker = match PermissionMarker::parse(word) {
        Some(m) => {
            cx.mark(t.span, SemanticKind::Marker);
            if let Some(prev) = cut.checked_sub(1).map(|i| args[i])
                && prev.kind == Kind::Word
                && let Some(first) = PermissionMarker::parse(cx.src(&prev))
            {
                cx.report_fix(
                    &diagnostics::INVALID_MARKER,
                    prev.span.cover(t.span),
                    format!("Two permission markers (`{first}` and `{m}`) - keep the one you mean"),
                    format!("Keep {m}"),
                    m.to_string(),
                );
                cut -= 1;
            }
            Some(m)
        }
        None => {
            invalid_marker(cx, &t, word);
            None
        }
    };
    let rest = if j == args.len() {
        Cow::Borrowed(&args[..cut])
    } else {
        let mut v = args[..cut].to_vec();
        v.extend_from_slice(&args[j..]);
        Cow::Owned(v)
    };
    (marker, rest)
}

fn invalid_marker(cx: &mut Cx<'_>, t: &Token, word: &str) {
    let message = format!(
        "`{}` is not a permission marker - end with . (routine), ? (might need checking), ?ask (confirm with partner), ! (serious) or ?word (a flag like ?public)",
        args::ellipsis(word)
    );
    let fix = if word.bytes().all(|b| b == b'!') {
        Some("!".to_string())
    } else if word.bytes().all(|b| b == b'?') {
        Some("?".to_string())
    } else {
        word.strip_prefix('!')
            .map(|w| format!("?{w}"))
            .filter(|w| PermissionMarker::parse(w).is_some())
    };
    match fix {
        Some(f) => cx.report_fix(
            &diagnostics::INVALID_MARKER,
            t.span,
            message,
            format!("Write {f}"),
            f,
        ),
        None => cx.report(&diagnostics::INVALID_MARKER, t.span, message),
    }
}
