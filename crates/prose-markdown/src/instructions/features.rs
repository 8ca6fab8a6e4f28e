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
            declaration: v.role == VariableRole::Binding && !v.discard,
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
        if let Some(quote) = super::structure::quote_after(text, ins.lexed(), at) {
            outer.push((quote.range, TokenKind::String));
        }
    }
    for (r, kind) in outer {
        let mut pos = r.start();
        let first = inner.partition_point(|t| t.range.start() < r.start());
        let inside = inner[first..]
            .iter()
            .take_while(|t| t.range.start() < r.end())
            .filter(|t| r.contains_range(t.range));
        for t in inside {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        instructions::{FragmentKind, analyze_instructions},
        testing::at,
    };
    use expect_test::expect;

    fn cursor(fixture: &str) -> (String, usize) {
        let at = fixture.find("$0").expect("no $0");
        (fixture.replacen("$0", "", 1), at)
    }

    fn hover_at(fixture: &str) -> String {
        let (text, offset) = cursor(fixture);
        let ins = analyze_instructions(&text, FragmentKind::File);
        match hover(&text, &ins, offset) {
            Some(h) => format!("{}\n{}", at(&text, h.range), h.markdown),
            None => "none".into(),
        }
    }

    #[test]
    fn hover_on_keywords_shows_usage_and_expansion() {
        expect![[r#"
            1:6-1:18
            ```markdown
            _if_ _instructed_ like "PATTERN", _then_ …
            ```
            **_instructed_**: you're instructed

            Tests the instruction you were given, usually against a pattern: `like "_ask_{*}"` matches any instruction starting with `_ask_`."#]]
        .assert_eq(&hover_at("_if_ _instr$0ucted_ like \"go\", _then_ stop."));
        let h = hover_at("_if_ a, _then_ _terminate_$0 \"SGN_DONE\".");
        assert!(h.contains("**_terminate_**: stop immediately"), "{h}");
        let h = hover_at("The _if$0_ and _else_ keywords.");
        assert!(
            h.ends_with("*Named here, not used as an instruction.*"),
            "{h}"
        );
        let h = hover_at("```md\n_sp$0awn_ `a.md`\n```\n");
        assert!(
            h.starts_with("2:1-2:8\n```markdown\n_spawn_ `FILE.md`"),
            "{h}"
        );
    }

    #[test]
    fn hover_on_signals_variables_discards_and_like() {
        let h = hover_at("_terminate_ \"SGN_PEN$0DING\"");
        assert!(
            h.starts_with("1:14-1:25\n**`SGN_PENDING`** (SOP signal)"),
            "{h}"
        );
        let h = hover_at("_terminate_ \"SGN_DO$0NE\"");
        assert!(h.contains("Not one of the SOP's signals"), "{h}");
        let h = hover_at("_if_ _subreplied_ like \"x {id}\", _then_ _run_ `r {i$0d}`.");
        assert_eq!(h, "1:50-1:54\n**`{id}`**: the text bound on line 1.");
        let h = hover_at("_if_ _subreplied_ like \"x {i$0d}\", _then_ stop.");
        assert!(
            h.starts_with("1:27-1:31\n**`{id}`**: matches any text here and binds it to `id`"),
            "{h}"
        );
        let h = hover_at("_if_ _instructed_ like \"_ask_{$0*}\", _then_ stop.");
        assert!(h.starts_with("1:30-1:33\n**`{*}`**: a discard"), "{h}");
        let h = hover_at("_if_ _instructed_ li$0ke \"x\", _then_ stop.");
        assert!(h.starts_with("1:19-1:23\n**`like \"PATTERN\"`**"), "{h}");
        let h = hover_at("_if_ x, _then_ _termi$0ante_ \"y\".");
        assert!(
            h.starts_with("1:16-1:27\n`_termiante_` is not a keyword; did you mean `_terminate_`?"),
            "{h}"
        );
        assert_eq!(hover_at("plain $0text"), "none");
    }

    #[test]
    fn definition_of_variables_and_spawn_files() {
        let (text, offset) = cursor(
            "## _if_ _subreplied_ like \"SGN_PENDING ({identifier})\", _then_:\n- _run_ `resume {ident$0ifier}`\n",
        );
        let ins = analyze_instructions(&text, FragmentKind::File);
        match definition(&ins, offset) {
            Some(Definition::Range(r)) => assert_eq!(at(&text, r), "1:41-1:53"),
            other => panic!("{other:?}"),
        }
        let (text, offset) = cursor("_if_ a, _then_ _spawn_ `$PWD/agents/rev$0iewer.md`.");
        let ins = analyze_instructions(&text, FragmentKind::File);
        assert_eq!(
            definition(&ins, offset),
            Some(Definition::File("agents/reviewer.md".into()))
        );
        let (text, offset) = cursor("_spawn_ `{na$0me}.md`");
        let ins = analyze_instructions(&text, FragmentKind::File);
        assert_eq!(definition(&ins, offset), None);
    }

    fn complete(fixture: &str) -> Vec<String> {
        let (text, offset) = cursor(fixture);
        let ins = analyze_instructions(&text, FragmentKind::File);
        completions(&text, &ins, offset)
            .iter()
            .map(|c| format!("{} {} {:?}", c.label, at(&text, c.replace), c.snippet))
            .collect()
    }

    #[test]
    fn completion_after_underscore() {
        expect![[r#"
            [
                "_terminate_ 1:16-1:20 Some(\"_terminate_ \\\"${1:SGN_DONE}\\\"\")",
            ]
        "#]]
        .assert_debug_eq(&complete("_if_ x, _then_ _ter$0"));
        assert_eq!(complete("_$0").len(), 16);
        // The closing underscore of a word being edited is replaced too.
        expect![[r#"
            [
                "_subreplied_ 1:1-1:8 None",
                "_subrepliedpreviously_ 1:1-1:8 None",
                "_spawn_ 1:1-1:8 Some(\"_spawn_ `${1:agent}.md`\")",
            ]
        "#]]
        .assert_debug_eq(&complete("_s$0pawn_ x"));
        assert!(complete("snake_$0").is_empty());
        assert!(complete("`code _$0`").is_empty());
    }

    #[test]
    fn completion_of_signals() {
        expect![[r#"
            [
                "SGN_PENDING 1:14-1:17 None",
                "SGN_RESUME 1:14-1:17 None",
                "SGN_UNHANDLED 1:14-1:17 None",
                "SGN_DONE 1:14-1:17 None",
            ]
        "#]]
        .assert_debug_eq(&complete("_terminate_ \"SGN$0\" or \"SGN_DONE\""));
    }

    #[test]
    fn tokens_cut_patterns_and_messages_around_what_they_hold() {
        let text = "## _if_ _subreplied_ like \"SGN_PENDING ({id})\" AND not like \"x{*}\", _then_:\n- _terminate_ \"got {id}\"\n- _spawn_ `{id}.md`\n";
        let ins = analyze_instructions(text, FragmentKind::File);
        let toks: Vec<String> = semantic_tokens(text, &ins)
            .iter()
            .map(|t| {
                format!(
                    "{:?}{} {}",
                    t.kind,
                    if t.declaration { "(decl)" } else { "" },
                    &text[crate::text::span(t.range)]
                )
            })
            .collect();
        expect![[r#"
            [
                "Keyword _if_",
                "Condition _subreplied_",
                "Operator like",
                "Pattern \"",
                "Signal SGN_PENDING",
                "Pattern  (",
                "Variable(decl) {id}",
                "Pattern )\"",
                "Operator AND",
                "Operator not like",
                "Pattern \"x",
                "Discard {*}",
                "Pattern \"",
                "Keyword _then_",
                "Action _terminate_",
                "String \"got ",
                "Variable {id}",
                "String \"",
                "Action _spawn_",
                "Variable {id}",
                "Path .md",
            ]
        "#]]
        .assert_debug_eq(&toks);
    }
}
