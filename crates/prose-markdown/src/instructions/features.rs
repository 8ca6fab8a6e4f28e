//! Editor features of instruction text as plain data: hover, go to
//! definition, completion after `_` (and `SGN_`), semantic tokens.

use text_size::{TextRange, TextSize};

use super::{
    Instructions, KeywordRole, VariableRole,
    vocabulary::{self, DISCARD_DOCS, KEYWORDS, LIKE_DOCS, SIGNALS},
};
use crate::{
    Completion, Definition, Hover,
    text::{self, line_number, range},
    tokens::{self, SemanticToken, TokenKind},
};

fn covers(r: TextRange, offset: usize) -> bool {
    u32::try_from(offset).is_ok_and(|o| r.contains_inclusive(TextSize::new(o)))
}

/// Hover at `offset`: a keyword's or signal's documentation, a near-miss's
/// intended keyword, a variable's binding, `{*}` and `like`.
pub fn hover(text: &str, ins: &Instructions, offset: usize) -> Option<Hover> {
    if let Some(k) = ins.keywords.iter().find(|k| covers(k.range, offset)) {
        let mut md = k.keyword.docs();
        if k.role == KeywordRole::Mention {
            md.push_str("\n\n*Named here, not used as an instruction.*");
        }
        return Some(Hover {
            range: k.range,
            markdown: md,
        });
    }
    if let Some(n) = ins.near_misses.iter().find(|n| covers(n.range, offset)) {
        return Some(Hover {
            range: n.range,
            markdown: format!(
                "`_{}_` is not a keyword; did you mean `{}`?\n\n{}",
                n.written,
                n.keyword.written(),
                n.keyword.docs()
            ),
        });
    }
    if let Some(s) = ins.signals.iter().find(|s| covers(s.range, offset)) {
        return Some(Hover {
            range: s.range,
            markdown: vocabulary::signal_docs(&s.name),
        });
    }
    if let Some(v) = ins.variables.iter().find(|v| covers(v.range, offset)) {
        let md = if v.discard {
            DISCARD_DOCS.to_string()
        } else {
            variable_docs(text, ins, v)
        };
        return Some(Hover {
            range: v.range,
            markdown: md,
        });
    }
    if let Some(p) = ins.patterns.iter().find(|p| covers(p.like_range, offset)) {
        return Some(Hover {
            range: p.like_range,
            markdown: LIKE_DOCS.to_string(),
        });
    }
    None
}

fn variable_docs(text: &str, ins: &Instructions, v: &super::Variable) -> String {
    let name = text::slice(text, v.range);
    match v.role {
        VariableRole::Binding | VariableRole::Pattern if v.in_pattern => format!(
            "**`{name}`**: matches any text here and binds it to `{}` for the action.",
            v.name
        ),
        VariableRole::Binding => format!("**`{name}`**: bound by this condition for its action."),
        VariableRole::Use => match binding_of(ins, v) {
            Some(b) => format!(
                "**`{name}`**: the text bound on line {}.",
                line_number(text, usize::from(b.start()))
            ),
            None => format!("**`{name}`**: not bound by any enclosing condition."),
        },
        _ => format!("**`{name}`**: a placeholder."),
    }
}

/// Where the variable used at `v` is bound: the first occurrence of its
/// name in the condition of the innermost enclosing branch that binds it.
fn binding_of(ins: &Instructions, v: &super::Variable) -> Option<TextRange> {
    let branch = ins
        .enclosing_branches(v.range)
        .filter(|b| b.bindings.contains(&v.name))
        .last()?;
    let cond = branch.condition?;
    ins.variables
        .iter()
        .find(|o| o.name == v.name && cond.contains_range(o.range))
        .map(|o| o.range)
}

/// Go to definition at `offset`: a `_spawn_` file, or where a variable is
/// bound.
pub fn definition(ins: &Instructions, offset: usize) -> Option<Definition> {
    if let Some(s) = ins
        .spawns
        .iter()
        .find(|s| covers(s.range, offset) && !s.templated && !s.path.is_empty())
    {
        return Some(Definition::File(s.path.clone()));
    }
    let v = ins
        .variables
        .iter()
        .find(|v| covers(v.range, offset) && v.role == VariableRole::Use)?;
    binding_of(ins, v).map(Definition::Range)
}

/// Completion at `offset`: keywords after `_` (outside code), signals
/// after `SGN`. Each keyword comes with its expansion and documentation,
/// and a snippet when it takes an argument.
pub fn completions(text: &str, ins: &Instructions, offset: usize) -> Vec<Completion> {
    let Some(before) = text.get(..offset) else {
        return Vec::new();
    };
    if ins
        .md
        .code_at(offset.saturating_sub(1))
        .is_some_and(|c| c.kind != crate::markdown::CodeKind::Fenced)
    {
        return Vec::new();
    }
    let b = before.as_bytes();
    let letters = b
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let word_start = offset - letters;
    // `_` + letters at a word boundary: keywords.
    if word_start > 0
        && b[word_start - 1] == b'_'
        && (word_start < 2
            || !(b[word_start - 2].is_ascii_alphanumeric() || b[word_start - 2] == b'_'))
    {
        let typed = before[word_start..].to_ascii_lowercase();
        let after = &text[offset..];
        let tail = after
            .bytes()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        let closing = usize::from(after.as_bytes().get(tail) == Some(&b'_'));
        let replace = range(word_start - 1, offset + tail + closing);
        return KEYWORDS
            .iter()
            .filter(|k| k.name().starts_with(&typed))
            .map(|k| Completion {
                label: k.written(),
                replace,
                insert: k.written(),
                snippet: k.snippet().map(str::to_string),
                detail: k.expansion().to_string(),
                documentation: k.docs(),
            })
            .collect();
    }
    // `SGN…`: signals of the SOP, and the ones this text uses.
    let sig_len = b
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || **c == b'_')
        .count();
    let sig_start = offset - sig_len;
    let typed = &before[sig_start..];
    if typed.len() < 3 || !typed.starts_with("SGN") {
        return Vec::new();
    }
    let mut names: Vec<&str> = SIGNALS.iter().map(|s| s.name).collect();
    for s in &ins.signals {
        if !names.contains(&s.name.as_str()) && s.range.start() != TextSize::new(sig_start as u32) {
            names.push(&s.name);
        }
    }
    names
        .into_iter()
        .filter(|n| n.starts_with(typed))
        .map(|n| Completion {
            label: n.to_string(),
            replace: range(sig_start, offset),
            insert: n.to_string(),
            snippet: None,
            detail: if SIGNALS.iter().any(|s| s.name == n) {
                "SOP signal".to_string()
            } else {
                "signal used in this text".to_string()
            },
            documentation: vocabulary::signal_docs(n),
        })
        .collect()
}

fn token(range: TextRange, kind: TokenKind) -> SemanticToken {
    SemanticToken {
        range,
        kind,
        declaration: false,
    }
}

/// Semantic tokens: keywords (by category), signals, variables (bindings
/// marked as declarations), discards, `like`/`not like`/`AND`/`OR`,
/// pattern text, quoted messages and `_spawn_` paths. Never overlapping,
/// one line each.
pub fn semantic_tokens(text: &str, ins: &Instructions) -> Vec<SemanticToken> {
    let mut inner: Vec<SemanticToken> = Vec::new();
    for k in &ins.keywords {
        inner.push(token(k.range, k.keyword.token_kind()));
    }
    for s in &ins.signals {
        inner.push(token(s.range, TokenKind::Signal));
    }
    for v in &ins.variables {
        inner.push(SemanticToken {
            range: v.range,
            kind: if v.discard {
                TokenKind::Discard
            } else {
                TokenKind::Variable
            },
            declaration: v.role == VariableRole::Binding,
        });
    }
    for p in &ins.patterns {
        inner.push(token(p.like_range, TokenKind::Operator));
    }
    for b in &ins.branches {
        let Some(c) = b.condition else { continue };
        let s = text::slice(text, c);
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
            if bytes[i].is_ascii_uppercase() && (i == 0 || !word(&bytes[i - 1])) {
                let len = bytes[i..].iter().take_while(|b| word(b)).count();
                if matches!(&s[i..i + len], "AND" | "OR" | "NOT") {
                    let start = usize::from(c.start()) + i;
                    inner.push(token(range(start, start + len), TokenKind::Operator));
                }
                i += len;
            } else {
                i += 1;
            }
        }
    }
    inner.sort_by_key(|t| (t.range.start(), t.range.end()));
    let mut out = Vec::new();
    // Pattern text and quoted messages, cut around the tokens inside them.
    let mut outer: Vec<(TextRange, TokenKind)> = ins
        .patterns
        .iter()
        .filter(|p| !p.block)
        .map(|p| (p.range, TokenKind::Pattern))
        .collect();
    outer.extend(ins.spawns.iter().map(|s| (s.range, TokenKind::Path)));
    for k in ins.statements() {
        if !matches!(k.keyword, super::Keyword::Terminate | super::Keyword::Ask) {
            continue;
        }
        let at = usize::from(k.range.end());
        let rest = &text[at..];
        let q = at + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
        if let Some(quote) = ins
            .lexed
            .quotes
            .iter()
            .find(|qq| usize::from(qq.range.start()) == q)
        {
            outer.push((quote.range, TokenKind::String));
        }
    }
    for (r, kind) in outer {
        let mut pos = r.start();
        for t in inner.iter().filter(|t| r.contains_range(t.range)) {
            if t.range.start() > pos {
                out.push(token(TextRange::new(pos, t.range.start()), kind));
            }
            pos = pos.max(t.range.end());
        }
        if pos < r.end() {
            out.push(token(TextRange::new(pos, r.end()), kind));
        }
    }
    out.extend(inner);
    tokens::finish(text, out)
}
