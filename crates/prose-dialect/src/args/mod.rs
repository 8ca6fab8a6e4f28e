//! Arguments by verb signature: one module per verb family, and the
//! helpers they share (names, content, diagnostics, semantic marks).

mod authority;
mod context;
mod data;
mod external;
mod message;
mod recall;
mod search;

use crate::{
    BlockRegistry, Span,
    action::{Arguments, Batch, Name},
    content::Content,
    diagnostics::{self, Code, Diagnostic},
    lexer::{Kind, Token},
    reference::{self, At},
    registry::Memory,
    resolve::Word,
    semantic::{SemanticKind, SemanticToken},
    verbs::Verb,
};

/// What a parse writes to: the text, the registry, the diagnostics and
/// (for documents) the semantic tokens.
pub(crate) struct Cx<'a> {
    pub text: &'a str,
    pub registry: Option<&'a BlockRegistry>,
    pub diagnostics: Vec<Diagnostic>,
    pub tokens: Option<Vec<SemanticToken>>,
    /// Parsing the head of a `/batch {` (its actions follow on their own
    /// lines).
    pub batch_open: bool,
}

impl<'a> Cx<'a> {
    pub fn new(text: &'a str, registry: Option<&'a BlockRegistry>, semantic: bool) -> Self {
        Cx {
            text,
            registry,
            diagnostics: Vec::new(),
            tokens: semantic.then(Vec::new),
            batch_open: false,
        }
    }

    pub fn report(&mut self, code: &Code, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::new(code, span, message));
    }

    pub fn report_fix(
        &mut self,
        code: &Code,
        span: Span,
        message: impl Into<String>,
        title: impl Into<String>,
        replacement: impl Into<String>,
    ) {
        self.diagnostics
            .push(Diagnostic::new(code, span, message).with_fix(title, replacement));
    }

    /// Marks `span` as `kind`; a later mark of the same span (an argument
    /// parser knowing better than the generic pass) replaces the earlier.
    pub fn mark(&mut self, span: Span, kind: SemanticKind) {
        let Some(tokens) = &mut self.tokens else {
            return;
        };
        if span.is_empty() {
            return;
        }
        match tokens.iter_mut().rev().take(8).find(|t| t.span == span) {
            Some(t) => t.kind = kind,
            None => tokens.push(SemanticToken { span, kind }),
        }
    }

    pub fn src(&self, t: &Token) -> &'a str {
        t.span.text(self.text)
    }

    /// The text of `t` when it is a plain word.
    pub fn word(&self, t: Option<&Token>) -> Option<&'a str> {
        t.filter(|t| t.kind == Kind::Word).map(|t| self.src(t))
    }

    /// Which of `words` (any case) the word `t` is; marks it as a keyword.
    pub fn keyword(&mut self, t: Option<&Token>, words: &[&'static str]) -> Option<&'static str> {
        let w = self.word(t)?;
        let found = *words.iter().find(|k| k.eq_ignore_ascii_case(w))?;
        let span = t?.span;
        self.mark(span, SemanticKind::Keyword);
        Some(found)
    }

    /// A name from a word, `@name` or `[id]` token.
    pub fn name(&self, t: &Token) -> Name {
        let raw = self.src(t);
        let text = raw
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .or_else(|| raw.strip_prefix('@'))
            .unwrap_or(raw);
        Name {
            text: text.to_string(),
            span: t.span,
        }
    }

    /// The content given by `toks`: one string or block, one reference, or
    /// the words as written. Anything after a string or block is reported
    /// as unexpected. `None` when `toks` is empty.
    pub fn content(&mut self, toks: &[Token]) -> Option<Content> {
        let first = toks.first()?;
        if first.is_content() {
            self.mark(first.span, SemanticKind::String);
            self.unexpected(&toks[1..], "after the content");
            return Some(Content::from_token(self.text, first));
        }
        if toks.len() == 1 {
            if first.kind == Kind::Ref {
                return Some(self.ref_content(first));
            }
            if let Some(r) = reference::implicit(self.src(first)) {
                self.mark(first.span, SemanticKind::Reference);
                return Some(Content::reference(self.text, first.span, r));
            }
        }
        // Unquoted: up to a multi-line block, which cannot be part of it.
        let end = toks.iter().position(|t| t.multiline).unwrap_or(toks.len());
        self.unexpected(&toks[end..], "after the text");
        let span = first.span.cover(toks[end - 1].span);
        Some(Content::unquoted(self.text, span))
    }

    /// Content from a single `@` token: a reference, or the `@name` text.
    fn ref_content(&mut self, t: &Token) -> Content {
        match self.at(t) {
            At::Reference(r) => Content::reference(self.text, t.span, r),
            At::Name(_) | At::Invalid(_) => Content::unquoted(self.text, t.span),
        }
    }

    /// What the `@` token `t` is; an invalid one is reported (D017), except
    /// an unclosed `@[`, which the lexing step reports.
    pub fn at(&mut self, t: &Token) -> At<'a> {
        let at = reference::classify_at(self.src(t), t.closed);
        if let At::Invalid(message) = &at
            && t.closed
        {
            self.report(&diagnostics::INVALID_REFERENCE, t.span, message.clone());
        }
        at
    }

    /// Reports `toks` (if any) as not understood where they stand (`after`
    /// says where: "after the content").
    pub fn unexpected(&mut self, toks: &[Token], after: &str) {
        if toks.is_empty() {
            return;
        }
        self.unexpected_because(
            toks,
            &format!("{after} - leave it out, or quote it if it belongs to the content"),
        );
    }

    /// Reports `toks` (if any) as not understood, then `why`.
    pub fn unexpected_because(&mut self, toks: &[Token], why: &str) {
        let (Some(first), Some(last)) = (toks.first(), toks.last()) else {
            return;
        };
        let span = first.span.cover(last.span);
        let shown = ellipsis(span.text(self.text));
        self.report(
            &diagnostics::UNEXPECTED_ARGUMENT,
            span,
            format!("I didn't understand `{shown}` {why}"),
        );
    }

    /// Reports a missing argument at the end of `at`.
    pub fn missing(&mut self, at: Span, message: impl Into<String>) {
        self.report(&diagnostics::MISSING_ARGUMENT, Span::empty(at.end), message);
    }

    /// Looks `name` up in the registry (when there is one): the registered
    /// spelling, or D012 with suggestions in the seed's words.
    pub fn check_block(&mut self, verb: &str, name: &mut Name) -> Option<Memory> {
        self.mark(name.span, SemanticKind::Block);
        let registry = self.registry?;
        if let Some((spelled, memory)) = registry.get(&name.text) {
            name.text = spelled.to_string();
            return Some(memory);
        }
        let similar = registry.similar(&name.text, 3);
        let message = match similar.as_slice() {
            [] => format!("'{verb}' found no block named '{}'", name.text),
            [one] => format!(
                "'{verb}' found no block named '{}' - did you mean {one}?",
                name.text
            ),
            [init @ .., last] => format!(
                "'{verb}' found multiple blocks matching '{}' - did you mean {} or {last}?",
                name.text,
                init.join(", ")
            ),
        };
        match similar.as_slice() {
            [one] => self.report_fix(
                &diagnostics::UNKNOWN_BLOCK,
                name.span,
                message,
                format!("Use {one}"),
                *one,
            ),
            _ => self.report(&diagnostics::UNKNOWN_BLOCK, name.span, message),
        }
        None
    }
}

/// At most 40 characters of `s`, with `...` when cut.
pub(crate) fn ellipsis(s: &str) -> String {
    let s = s.lines().next().unwrap_or("");
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// Whether `s` looks like a URL: a scheme (`https://`), `www.`, or a
/// domain name with a dot and a path (`example.com/page`).
pub(crate) fn is_url(s: &str) -> bool {
    if let Some(i) = s.find("://") {
        let scheme = &s[..i];
        return i > 0
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            && s.len() > i + 3;
    }
    let host = s.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.split(':').next().unwrap_or("");
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Which memory block `t` names in the registry, if any.
fn registered(cx: &Cx<'_>, t: Option<&Token>) -> Option<Memory> {
    let w = cx.word(t)?;
    cx.registry?.get(w).map(|(_, m)| m)
}

/// Parses the arguments of `word` (a resolved verb or alias); returns the
/// verb they make (a shared word picks its verb here) and the arguments.
pub(crate) fn parse(
    cx: &mut Cx<'_>,
    word: Word,
    args: &[Token],
    in_chain: bool,
    verb_span: Span,
) -> (Verb, Arguments) {
    let verb = disambiguate(cx, word, args);
    // Outside /context, `->` only chains: an arrow with no action after it.
    let args = match args.iter().position(|t| t.kind == Kind::Arrow) {
        Some(i) if verb != Verb::Context => {
            stray_arrow(cx, &args[i..]);
            &args[..i]
        }
        _ => args,
    };
    let a = Args {
        toks: args,
        verb_span,
        in_chain,
    };
    let arguments = match verb {
        Verb::Recall => Arguments::Recall(recall::parse(cx, &a, recall::Mode::of(word.text))),
        Verb::Context => Arguments::Context(context::parse(cx, &a, word.text == "archive")),
        Verb::Search => Arguments::Search(search::parse(cx, &a)),
        Verb::Send | Verb::Reply | Verb::Post | Verb::Dm | Verb::Tell => {
            Arguments::Message(message::parse(cx, &a, verb))
        }
        Verb::Fetch => Arguments::Fetch(external::fetch(cx, &a)),
        Verb::Web => Arguments::Web(external::web(cx, &a)),
        Verb::Calc => Arguments::Calc(external::calc(cx, &a)),
        Verb::Data => Arguments::Data(data::parse(cx, &a)),
        Verb::Approve | Verb::Deny => Arguments::Decision(authority::decision(cx, &a, verb)),
        Verb::Escalate => Arguments::Escalate(authority::escalate(cx, &a)),
        Verb::Cancel => Arguments::Cancel(authority::cancel(cx, &a)),
        Verb::Halt => Arguments::Halt(authority::halt(cx, &a)),
        Verb::Uncertain => Arguments::Uncertain(authority::uncertain(cx, &a)),
        Verb::Batch => {
            match args.first() {
                None if cx.batch_open => {}
                None => cx.missing(verb_span, "A batch needs its actions: end the line with `{`, put one action per line, and close with `}` on its own line"),
                Some(_) => cx.unexpected_because(args, "- put each action of a batch on its own line, between `/batch {` and `}`"),
            }
            Arguments::Batch(Batch {
                actions: Vec::new(),
            })
        }
    };
    (verb, arguments)
}

/// Reports `-> word ...` where an action should follow the arrow; offers
/// `/word` when the word is a verb.
fn stray_arrow(cx: &mut Cx<'_>, toks: &[Token]) {
    let arrow = toks[0];
    let next = toks.get(1).filter(|t| t.kind == Kind::Word);
    match next.map(|t| (t, cx.src(t))) {
        Some((t, w)) if crate::resolve::exact(w).is_some() => {
            let span = arrow.span.cover(t.span);
            cx.report_fix(
                &diagnostics::DANGLING_CHAIN,
                span,
                format!("`->` must be followed by an action - did you mean -> /{w}?"),
                format!("Write -> /{w}"),
                format!("-> /{w}"),
            );
        }
        _ => cx.report(
            &diagnostics::DANGLING_CHAIN,
            arrow.span,
            "`->` must be followed by an action starting with /, like -> /tell @entropy",
        ),
    }
}

/// The verb of a shared word, by the shape of the arguments (see the
/// `aliases` module).
fn disambiguate(cx: &Cx<'_>, word: Word, args: &[Token]) -> Verb {
    let first = cx.word(args.first()).map(str::to_ascii_lowercase);
    match word.text {
        "remember" => {
            let context_form = matches!(first.as_deref(), Some("load" | "swap"))
                || (first.as_deref() == Some("archive") && args.len() >= 2)
                || args.get(2).is_some_and(|t| t.kind == Kind::Arrow)
                || (cx.word(args.get(1)) == Some("+")
                    && registered(cx, args.first()) == Some(Memory::Context));
            if context_form {
                Verb::Context
            } else {
                Verb::Recall
            }
        }
        "archive" if args.len() == 1 && registered(cx, args.first()) == Some(Memory::Context) => {
            Verb::Context
        }
        "get" => {
            let fetch = args.first().is_some_and(|t| {
                let s = cx.src(t);
                s.eq_ignore_ascii_case("continue") || is_url(s)
            });
            if fetch { Verb::Fetch } else { Verb::Recall }
        }
        _ => word.verb,
    }
}

/// The arguments of one action.
pub(crate) struct Args<'t> {
    pub toks: &'t [Token],
    /// The verb as written (for positions of missing arguments).
    pub verb_span: Span,
    /// The action follows `->`: omitted content is the previous output.
    pub in_chain: bool,
}

impl Args<'_> {
    /// Where a missing argument would go: after the last token.
    pub fn end(&self) -> Span {
        self.toks.last().map_or(self.verb_span, |t| t.span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        for u in [
            "https://example.com",
            "http://x.y/a?b#c",
            "HTTPS://EXAMPLE.COM",
            "ftp://files.example.org/x",
            "example.com",
            "docs.rs/tokio/latest",
            "www.example.com",
            "localhost.dev:8080/x",
        ] {
            assert!(is_url(u), "{u}");
        }
        for u in [
            "continue",
            "block_name",
            "https://",
            "://x",
            "a.b",
            "1.5",
            "notes.",
            ".com",
            "x..y",
        ] {
            assert!(!is_url(u), "{u}");
        }
    }

    #[test]
    fn ellipsis_cuts_at_40_chars_and_one_line() {
        assert_eq!(ellipsis("short"), "short");
        assert_eq!(ellipsis("first\nsecond"), "first");
        assert_eq!(ellipsis(&"é".repeat(50)), format!("{}...", "é".repeat(40)));
    }
}
