//! # W001 `empty-session-prompt`
//!
//! **Empty session prompt.** The prompt of a `session` or `resume:` is the
//! empty string: an inline `session ""`, or a `prompt: ""` property.
//!
//! ## Why is this bad?
//! The subagent is spawned with nothing to do; a session's `prompt:`
//! replaces the agent's prompt, so an empty one also discards the agent's
//! instructions.
//!
//! ## Example
//! ```prose
//! session ""
//! ```
//!
//! ## Fix
//! ```prose
//! session "Summarize the findings"
//! ```
//!
//! The diagnostic is on the string literal. A `prompt:` property with no
//! value at all is reported on its key. A whitespace-only prompt is W002,
//! an over-long one W003; exactly one of the three is reported per string.
//! An agent's empty `prompt:` is W004.
//!
//! ## Specification
//! compiler.md, Session Statement: "Empty prompt `\"\"`" (Warning, "Session
//! has empty prompt"), String Literals › Validation ("Empty string as
//! prompt": Warning); Validation Rules: W001. A session's `prompt:`
//! property is that session's prompt (prose.md, Property Precedence), so it
//! is covered here rather than by W004 (spec-rows.md §3.5). `session ""` is
//! W001, not E003. Warning in every profile.

use crate::openprose::rules::prelude::*;

use super::key_range;

pub(crate) const RULE: Rule = Rule {
    code: "W001",
    name: "empty-session-prompt",
    summary: "Empty session prompt",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("empty_session_prompt.rs"),
    check: Check::OpenProse(check),
};

/// A session's or resume's prompt as written.
#[derive(Clone)]
pub(crate) enum SessionPrompt {
    /// A terminated string literal: the inline prompt, a `prompt:` property
    /// or a `(prompt: ...)` modifier, with what the rules ask of its value.
    String(ast::StringLit, PromptValue),
    /// `prompt:` with no value; the range of the key.
    Missing(TextRange),
}

/// What the rules read of a prompt's decoded value (kept instead of the
/// value: a file's prompts are most of its text).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PromptValue {
    /// Its length in characters.
    pub chars: usize,
    /// Only white space (or nothing).
    pub blank: bool,
}

impl PromptValue {
    /// Of `s`'s value, read a piece at a time: a value is blank when every
    /// piece is, and a file's prompts are not copied to be measured.
    fn of(s: &ast::StringLit) -> PromptValue {
        let (mut chars, mut blank) = (0, true);
        s.value_pieces(|piece| {
            chars += piece.chars().count();
            blank = blank && piece.trim().is_empty();
        });
        PromptValue { chars, blank }
    }
}

/// Every session and resume prompt of the file (decoded once for the
/// rules that read them).
pub(crate) fn session_prompts(ctx: &Ctx<'_>) -> std::rc::Rc<Vec<SessionPrompt>> {
    ctx.shared(compute_session_prompts)
}

fn compute_session_prompts(ctx: &Ctx<'_>) -> Vec<SessionPrompt> {
    let mut out = Vec::new();
    let mut string = |e: Option<ast::Expr>| {
        if let Some(ast::Expr::String(s)) = e
            && s.is_terminated()
        {
            let value = PromptValue::of(&s);
            out.push(SessionPrompt::String(s, value));
        }
    };
    let mut props: Vec<ast::Property> = Vec::new();
    for node in
        ctx.nodes_matching(|k| ast::SessionExpr::can_cast(k) || ast::ResumeExpr::can_cast(k))
    {
        if let Some(s) = ast::SessionExpr::cast(node.clone()) {
            string(s.prompt().map(ast::Expr::String));
            for m in s.modifiers().into_iter().flat_map(|l| l.modifiers()) {
                if m.key().as_deref() == Some("prompt") {
                    string(m.value());
                }
            }
            props.extend(s.properties());
        } else if let Some(r) = ast::ResumeExpr::cast(node) {
            props.extend(r.properties());
        }
    }
    let mut missing = Vec::new();
    for p in props.iter().filter(|p| p.key() == "prompt") {
        match p.any_value() {
            None => missing.push(SessionPrompt::Missing(key_range(p))),
            v => string(v),
        }
    }
    out.extend(missing);
    out
}

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for prompt in session_prompts(ctx).iter() {
        match prompt {
            SessionPrompt::String(s, value) if value.chars == 0 => {
                acc.report(s.syntax().text_range(), "Session has empty prompt");
            }
            SessionPrompt::String(..) => {}
            SessionPrompt::Missing(range) => {
                acc.report(*range, "Session has empty prompt: `prompt:` has no value");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn empty_prompts() {
        check_code(
            "W001",
            "agent a:\n  persist: true\nsession \"\"\nsession: a\n  prompt: \"\"\"\"\"\"\nresume: a\n  prompt:\nsession \"x\" (prompt: \"\")\n",
            expect![[r#"
                W001 3:9-3:11 warning: Session has empty prompt
                W001 5:11-5:17 warning: Session has empty prompt
                W001 7:3-7:9 warning: Session has empty prompt: `prompt:` has no value
                W001 8:22-8:24 warning: Session has empty prompt
            "#]],
        );
    }

    /// A prompt's length and blankness read piece by piece are those of
    /// its whole value, for every string of the sample programs and of
    /// texts of blank pieces, escapes and interpolations.
    #[test]
    fn prompt_values_are_those_of_the_whole_value() {
        use super::{PromptValue, ast};
        use prose_syntax::AstNode;
        let mut texts: Vec<String> = crate::openprose::rule_tests::sample_texts();
        texts.extend(
            [
                "session \"\"",
                "session \"  \\n \\t \"",
                "session \" {x} \"",
                "session \"\\{\"",
                "session \"\"\"\n   \n\t\n\"\"\"",
                "session \"é {a.b}\\n\u{3000}\"",
                "session \"\u{3000}\\t\u{a0}\"",
            ]
            .map(String::from),
        );
        let mut strings = 0;
        for text in &texts {
            let root = prose_syntax::parse(text).syntax_node();
            for s in root.descendants().filter_map(ast::StringLit::cast) {
                strings += 1;
                let value = s.value();
                let whole = PromptValue {
                    chars: value.chars().count(),
                    blank: value.trim().is_empty(),
                };
                assert_eq!(PromptValue::of(&s), whole, "{value:?} in {text:?}");
            }
        }
        assert!(strings > 100, "only {strings} strings");
    }

    #[test]
    fn non_empty_and_agent_prompts() {
        check_no(
            "W001",
            "agent a:\n  prompt: \"\"\nsession \" \"\nsession: a\n  prompt: \"go\"\n",
        );
    }
}
