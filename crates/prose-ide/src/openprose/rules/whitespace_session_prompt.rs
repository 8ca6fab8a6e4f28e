//! # W002 `whitespace-session-prompt`
//!
//! **Whitespace-only session prompt.** The prompt of a `session` or
//! `resume:` is not empty but holds only spaces, tabs and newlines.
//!
//! ## Example
//! ```prose
//! session "   "
//! ```
//!
//! ## Fix
//! ```prose
//! session "Summarize the findings"
//! ```
//!
//! The diagnostic is on the string literal. Escapes are decoded first, so
//! `"\n\t"` is whitespace-only. The places checked are those of W001: an
//! inline prompt, a session's or resume's `prompt:` property, and a
//! `(prompt: ...)` modifier.
//!
//! ## Specification
//! compiler.md, Session Statement: "Whitespace-only prompt" (Warning,
//! "Session prompt contains only whitespace"); Validation Rules: W002.
//! Warning in every profile.

use crate::openprose::rules::prelude::*;

use super::empty_session_prompt::{SessionPrompt, session_prompts};

pub(crate) const RULE: Rule = Rule {
    code: "W002",
    name: "whitespace-session-prompt",
    summary: "Whitespace-only session prompt",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("whitespace_session_prompt.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for prompt in session_prompts(ctx).iter() {
        if let SessionPrompt::String(s, value) = prompt
            && value.chars > 0
            && value.blank
        {
            acc.report(
                s.syntax().text_range(),
                "Session prompt contains only whitespace",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn whitespace_prompts() {
        check_code(
            "W002",
            "agent a:\n  model: opus\nsession \" \\n\\t\"\nsession: a\n  prompt: \"\"\"\n\n  \"\"\"\n",
            expect![[r#"
                W002 3:9-3:16 warning: Session prompt contains only whitespace
                W002 5:11-7:6 warning: Session prompt contains only whitespace
            "#]],
        );
    }

    #[test]
    fn empty_or_text() {
        check_no(
            "W002",
            "session \"\"\nsession \" x \"\nagent a:\n  prompt: \"  \"\n",
        );
    }
}
