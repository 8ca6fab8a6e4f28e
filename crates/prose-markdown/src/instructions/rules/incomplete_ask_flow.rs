//! # K012 `incomplete-ask-flow`
//!
//! **`_ask_` flow without the SGN_PENDING handling the SOP expects.** The
//! SOP of seed 000 pauses a session that is asked a question and picks
//! it up again when it is resumed:
//!
//! - the **ask handler**, `_if_ _instructed_ like "_ask_{*}"` (or with a
//!   fenced `_ask_ "{some question}"` pattern), writes the question and
//!   ends with `_terminate_ "SGN_PENDING"`;
//! - the **resume branch**, `_instructedpreviously_ like "_ask_{*}"`
//!   under `_if_ _resumed_ like "SGN_RESUME"`, replies with the answer,
//!   or with `_terminate_ "SGN_PENDING"` again while there is none.
//!
//! Reported: an ask handler or resume branch whose action never
//! terminates with `SGN_PENDING`, and (in a whole instruction file) an
//! ask handler with no resume branch anywhere.
//!
//! ## Why is this bad?
//! Without `SGN_PENDING` the caller takes the session's reply for a
//! result; without the resume branch, a resumed session does not know it
//! was waiting for an answer.
//!
//! ## Example
//! ```markdown
//! _if_ _instructed_ like "_ask_{*}", _then_ write the question to `question.md`.
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ _instructed_ like "_ask_{*}", _then_ _follow_:
//! 1) Write the question and an empty `A:` line to `$PWD/question.md`.
//! 2) _terminate_ "SGN_PENDING"
//!
//! ## _if_ _resumed_ like "SGN_RESUME", _then_:
//! - _if_ _instructedpreviously_ like "_ask_{*}", _then_:
//!     - _if_ the question file now has an answer ("{answer}"), _then_ _terminate_ "{answer}".
//!     - _else_ _terminate_ "SGN_PENDING".
//! ```
//!
//! ## Severity
//! Warning: the flow works only partly.

use super::prelude::*;
use crate::instructions::{Branch, Pattern, structure::quote_after};

pub(crate) const RULE: Rule = Rule {
    code: "K012",
    name: "incomplete-ask-flow",
    summary: "`_ask_` flow without the SGN_PENDING handling the SOP expects",
    severity: Severity::Warning,
    source: include_str!("incomplete_ask_flow.rs"),
};

/// The branch's `like` pattern whose text starts with `_ask_`, if any.
fn ask_pattern<'a>(ctx: &'a Ctx<'_>, b: &Branch) -> Option<&'a Pattern> {
    let c = b.condition?;
    ctx.ins.patterns_in(c).iter().find(|p| {
        !p.in_example
            && !p.negated
            && slice(ctx.text, p.text_range)
                .trim_start()
                .starts_with("_ask_")
    })
}

fn condition_has(ctx: &Ctx<'_>, b: &Branch, kw: Keyword) -> bool {
    b.condition.is_some_and(|c| {
        ctx.ins
            .keywords_in(c)
            .iter()
            .any(|k| k.role == KeywordRole::Statement && k.keyword == kw)
    })
}

/// Where the `_terminate_ "SGN_PENDING…"` statements are, in order.
fn pending_terminates(ctx: &Ctx<'_>) -> Vec<text_size::TextSize> {
    ctx.ins
        .statements()
        .filter(|k| {
            k.keyword == Keyword::Terminate
                && quote_after(ctx.text, ctx.ins.lexed(), usize::from(k.range.end())).is_some_and(
                    |q| {
                        slice(ctx.text, q.inner)
                            .trim_start()
                            .starts_with("SGN_PENDING")
                    },
                )
        })
        .map(|k| k.range.start())
        .collect()
}

/// Whether the branch's action has one of the `pending` terminates.
fn terminates_pending(pending: &[text_size::TextSize], b: &Branch) -> bool {
    let Some(scope) = b.scope else { return false };
    let i = pending.partition_point(|p| *p < scope.start());
    pending.get(i).is_some_and(|p| *p < scope.end())
}

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let pending = pending_terminates(ctx);
    let mut handlers = Vec::new();
    let mut has_resume_branch = false;
    for b in &ctx.ins.branches {
        let Some(p) = ask_pattern(ctx, b) else {
            continue;
        };
        if condition_has(ctx, b, Keyword::InstructedPreviously) {
            has_resume_branch = true;
            if !terminates_pending(&pending, b) {
                acc.report(
                    p.range,
                    "While the question is unanswered, the SOP ends the resumed session with `_terminate_ \"SGN_PENDING\"` again; this branch never does",
                );
            }
        } else if condition_has(ctx, b, Keyword::Instructed) {
            if !terminates_pending(&pending, b) {
                acc.report(
                    p.range,
                    "After writing the question, an `_ask_` handler ends with `_terminate_ \"SGN_PENDING\"` (SOP), so the caller knows the session waits for an answer",
                );
            }
            handlers.push(p.range);
        }
    }
    if ctx.ins.kind == crate::instructions::FragmentKind::File && !has_resume_branch {
        for r in handlers {
            acc.report(
                r,
                "Nothing picks up a session paused by `_ask_`: the SOP answers it under `_if_ _resumed_ like \"SGN_RESUME\"` with an `_instructedpreviously_ like \"_ask_{*}\"` branch",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::{check_code, check_prompt_code};
    use expect_test::expect;

    #[test]
    fn handler_without_pending_or_resume() {
        check_code(
            "K012",
            r#"_if_ _instructed_ like "_ask_{*}", _then_ write the question down.
"#,
            expect![[r#"
                K012 1:24-1:34 warning: After writing the question, an `_ask_` handler ends with `_terminate_ "SGN_PENDING"` (SOP), so the caller knows the session waits for an answer
                K012 1:24-1:34 warning: Nothing picks up a session paused by `_ask_`: the SOP answers it under `_if_ _resumed_ like "SGN_RESUME"` with an `_instructedpreviously_ like "_ask_{*}"` branch
            "#]],
        );
    }

    #[test]
    fn resume_branch_without_pending() {
        check_code(
            "K012",
            r#"_if_ _instructed_ like "_ask_{*}", _then_ _terminate_ "SGN_PENDING".
_if_ _resumed_ like "SGN_RESUME", _then_:
- _if_ _instructedpreviously_ like "_ask_{*}", _then_ _terminate_ "the answer".
"#,
            expect![[r#"
                K012 3:36-3:46 warning: While the question is unanswered, the SOP ends the resumed session with `_terminate_ "SGN_PENDING"` again; this branch never does
            "#]],
        );
    }

    #[test]
    fn prompts_need_no_resume_branch() {
        check_prompt_code(
            "K012",
            r#"_if_ _instructed_ like "_ask_{*}", _then_ _terminate_ "SGN_PENDING"."#,
            expect![""],
        );
    }
}
