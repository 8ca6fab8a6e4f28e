//! # W003 `long-session-prompt`
//!
//! **Session prompt exceeds 10,000 characters.** The prompt of a `session`
//! or `resume:` is longer than 10,000 characters.
//!
//! ## Why is this bad?
//! A very long prompt usually bundles several tasks; smaller sessions are
//! easier to follow, retry and review.
//!
//! ## Example
//! A prompt of 10,007 characters (shown on one line):
//! ```prose
//! session "Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this. Do this."
//! ```
//!
//! ## Fix
//! Split the work into several sessions, each with its own focused prompt:
//! ```prose
//! let part1 = session "Do the first part of the task"
//! session "Do the second part of the task"
//!   context: part1
//! ```
//!
//! The diagnostic is on the opening quote(s) only, so that a very long
//! string is not underlined from end to end. Characters are Unicode scalar
//! values counted after escapes are decoded; an interpolation `{x}` counts
//! as written. The places checked are those of W001: an inline prompt, a
//! session's or resume's `prompt:` property, and a `(prompt: ...)`
//! modifier. A long prompt made only of whitespace is W002 instead.
//!
//! ## Specification
//! compiler.md, Session Statement: "Prompt > 10,000 chars" (Warning,
//! "Consider breaking into smaller tasks"); Validation Rules: W003. Warning
//! in every profile.

use crate::openprose::rules::prelude::*;

use super::empty_session_prompt::{SessionPrompt, session_prompts};

pub(crate) const RULE: Rule = Rule {
    code: "W003",
    name: "long-session-prompt",
    summary: "Session prompt exceeds 10,000 characters",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("long_session_prompt.rs"),
    check: Check::OpenProse(check),
};

/// The longest prompt that is not reported, in characters.
const LIMIT: usize = 10_000;

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for prompt in session_prompts(ctx).iter() {
        let SessionPrompt::String(s, value) = prompt else {
            continue;
        };
        let len = value.chars;
        if len > LIMIT && !value.blank {
            let range = s
                .open_token()
                .map_or_else(|| s.syntax().text_range(), |t| t.text_range());
            acc.report(
                range,
                format!("Consider breaking into smaller tasks: the prompt has {len} characters (more than 10,000)"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn over_the_limit() {
        let text = format!(
            "agent a:\n  persist: true\nsession \"{}\"\nresume: a\n  prompt: \"\"\"\n{}\n\"\"\"\n",
            "x".repeat(10_001),
            "é".repeat(10_000),
        );
        check_code(
            "W003",
            &text,
            expect![[r#"
            W003 3:9-3:10 warning: Consider breaking into smaller tasks: the prompt has 10001 characters (more than 10,000)
            W003 5:11-5:14 warning: Consider breaking into smaller tasks: the prompt has 10002 characters (more than 10,000)
        "#]],
        );
    }

    #[test]
    fn at_the_limit() {
        // 10,000 characters, but 19,998 bytes: the limit counts characters.
        let text = format!(
            "session \"{}\"\nsession \"\"\"\n{}\n\"\"\"\nsession \"{}\"\n",
            "x".repeat(10_000),
            "é".repeat(9_998),
            " ".repeat(20_000)
        );
        check_no("W003", &text);
    }
}
