//! The front end's plain data in the engine's types: diagnostics as
//! findings, token kinds, completions. Ranges go through `map` (the
//! identity for a prompt file's own text, an injection's offset map for a
//! guest).

use prose_markdown::{Completion, TokenKind};
use prose_syntax::TextRange;

use crate::{
    diagnostics::{Finding, Related},
    features::{
        completion::{CompletionItem, CompletionKind},
        semantic_tokens::{SemanticToken, SemanticTokenKind, TokenModifiers},
    },
};

/// A front-end diagnostic as a finding of the file at `path`.
pub(crate) fn finding(
    d: &prose_markdown::Diagnostic,
    path: &str,
    map: &dyn Fn(TextRange) -> TextRange,
) -> Finding {
    Finding {
        code: d.code,
        range: map(d.range),
        message: d.message.clone(),
        related: d
            .related
            .iter()
            .map(|r| Related {
                path: path.to_string(),
                range: map(r.range),
                message: r.message.clone(),
            })
            .collect(),
        tags: Vec::new(),
    }
}

/// The engine's kind of a front-end token.
pub(crate) fn token_kind(kind: TokenKind) -> SemanticTokenKind {
    use SemanticTokenKind as K;
    match kind {
        TokenKind::Keyword | TokenKind::Command => K::Keyword,
        TokenKind::Condition => K::Condition,
        TokenKind::Action => K::Action,
        TokenKind::Operator => K::Operator,
        TokenKind::Pattern | TokenKind::Discard => K::Pattern,
        TokenKind::String | TokenKind::Path => K::String,
        TokenKind::Variable => K::Variable,
        TokenKind::Signal => K::EnumMember,
        TokenKind::Option => K::Property,
        TokenKind::Number => K::Number,
    }
}

/// A front-end token in the engine's terms (its range through `map`).
pub(crate) fn token(
    t: &prose_markdown::SemanticToken,
    map: &dyn Fn(TextRange) -> TextRange,
) -> SemanticToken {
    SemanticToken {
        range: map(t.range),
        kind: token_kind(t.kind),
        modifiers: if t.declaration {
            TokenModifiers::DECLARATION
        } else {
            TokenModifiers::NONE
        },
    }
}

/// A front-end completion; `escape` writes inserted text as the host
/// writes it (plain text and snippets alike).
pub(crate) fn completion(
    c: &Completion,
    kind: CompletionKind,
    replace: TextRange,
    escape: &dyn Fn(&str) -> String,
) -> CompletionItem {
    let (insert, is_snippet) = match &c.snippet {
        Some(s) => (escape_snippet(s, escape), true),
        None => (escape(&c.insert), false),
    };
    CompletionItem {
        label: c.label.clone(),
        kind,
        detail: Some(c.detail.clone()).filter(|d| !d.is_empty()),
        documentation: Some(c.documentation.clone()).filter(|d| !d.is_empty()),
        insert_text: Some(insert),
        is_snippet,
        replace_range: replace,
        sort_text: None,
    }
}

/// `snippet` with its literal text written by `escape` (and escaped again
/// as snippet text), its tab stops and placeholders kept.
fn escape_snippet(snippet: &str, escape: &dyn Fn(&str) -> String) -> String {
    fn literal(run: &mut String, out: &mut String, escape: &dyn Fn(&str) -> String) {
        for c in escape(run).chars() {
            if matches!(c, '\\' | '$' | '}') {
                out.push('\\');
            }
            out.push(c);
        }
        run.clear();
    }
    let chars: Vec<char> = snippet.chars().collect();
    let mut out = String::new();
    let mut run = String::new();
    let mut depth = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let digits = |from: usize| {
            chars[from.min(chars.len())..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count()
        };
        if c == '\\' && i + 1 < chars.len() {
            run.push(chars[i + 1]);
            i += 2;
        } else if c == '$' && digits(i + 1) > 0 {
            literal(&mut run, &mut out, escape);
            let n = digits(i + 1);
            out.extend(&chars[i..i + 1 + n]);
            i += 1 + n;
        } else if c == '$' && chars.get(i + 1) == Some(&'{') && digits(i + 2) > 0 {
            literal(&mut run, &mut out, escape);
            let n = digits(i + 2);
            let end = i + 2 + n;
            // `${1:` (a placeholder's default follows) or `${1}`.
            let take = match chars.get(end) {
                Some(':') => {
                    depth += 1;
                    end + 1
                }
                Some('}') => end + 1,
                _ => end,
            };
            out.extend(&chars[i..take]);
            i = take;
        } else if c == '}' && depth > 0 {
            depth -= 1;
            literal(&mut run, &mut out, escape);
            out.push('}');
            i += 1;
        } else {
            run.push(c);
            i += 1;
        }
    }
    literal(&mut run, &mut out, escape);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::injection::{Escape, GuestLanguage, GuestText, Injection};

    #[test]
    fn snippets_keep_their_tab_stops_and_escape_their_text() {
        let inj = Injection::new(
            GuestLanguage::OpenProse,
            GuestText::at(0.into()),
            Escape::OpenProseString { triple: false },
        );
        let esc = |s: &str| inj.host_text(s);
        assert_eq!(
            escape_snippet("_terminate_ \"${1:SGN_DONE}\"", &esc),
            "_terminate_ \\\\\"${1:SGN_DONE}\\\\\""
        );
        assert_eq!(
            escape_snippet("_follow_:\n1) ${1:first}\n2) ${0:second}", &esc),
            "_follow_:\\\\n1) ${1:first}\\\\n2) ${0:second}"
        );
        assert_eq!(
            escape_snippet("_run_ `$1` {x}", &|s: &str| s.to_string()),
            "_run_ `$1` {x\\}"
        );
    }
}
