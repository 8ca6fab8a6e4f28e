//! # E003 `missing-prompt-and-agent`
//!
//! **Session missing prompt or agent.** A `session` has no inline prompt,
//! no agent (`session: name` / `session x: name`) and no `prompt:`
//! property, so nothing says what the subagent should do.
//!
//! ## Example
//! ```prose
//! session review:
//!   model: opus
//! ```
//!
//! ## Fix
//! Give it a prompt, or an agent whose definition carries one:
//! ```prose
//! session review:
//!   model: opus
//!   prompt: "Review the draft for accuracy"
//! ```
//!
//! The diagnostic covers the session's header line, from the `session`
//! keyword to the end of the line (a trailing comment excluded).
//!
//! A `prompt:` property counts as a prompt even when its value is empty or
//! missing: `session ""` and `prompt: ""` are W001 (empty session prompt),
//! not E003.
//!
//! ## Specification
//! compiler.md, Session Statement: "Missing prompt and agent" (Error,
//! "Session requires a prompt or agent reference"); Validation Rules: E003.
//! Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E003",
    name: "missing-prompt-and-agent",
    summary: "Session missing prompt or agent",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("missing_prompt_and_agent.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for s in nodes::<ast::SessionExpr>(ctx) {
        let has_prompt_modifier = s
            .modifiers()
            .into_iter()
            .flat_map(|m| m.modifiers())
            .any(|m| m.key().as_deref() == Some("prompt"));
        if s.prompt().is_some()
            || s.agent().is_some()
            || s.property("prompt").is_some()
            || has_prompt_modifier
        {
            continue;
        }
        acc.report(
            header_range(s.syntax()),
            "Session requires a prompt or agent reference",
        );
    }
}

/// From the first token to the last non-trivia token before the end of the
/// header line (the newline or the property block).
fn header_range(node: &SyntaxNode) -> TextRange {
    let start = node.text_range().start();
    let mut end = start;
    for e in node.children_with_tokens() {
        match &e {
            prose_syntax::NodeOrToken::Token(t) if t.kind() == SyntaxKind::NEWLINE => break,
            prose_syntax::NodeOrToken::Token(t) if t.kind().is_trivia() => {}
            prose_syntax::NodeOrToken::Node(n) if n.kind() == SyntaxKind::PROPERTY_BLOCK => break,
            _ => end = e.text_range().end(),
        }
    }
    TextRange::new(start, end)
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn header_without_prompt_or_agent() {
        check_code(
            "E003",
            "session review: # note\n  model: opus\nsession:\nlet x = session\n",
            expect![[r#"
                E003 1:1-1:16 error: Session requires a prompt or agent reference
                E003 3:1-3:9 error: Session requires a prompt or agent reference
                E003 4:9-4:16 error: Session requires a prompt or agent reference
            "#]],
        );
    }

    #[test]
    fn prompt_or_agent_present() {
        check_no(
            "E003",
            "agent a:\n  model: opus\nsession \"x\"\nsession: a\nsession s: a\nsession t:\n  prompt: \"do it\"\nsession \"\"\n",
        );
    }
}
