//! # K011 `assumes-resumed-session`
//!
//! **Condition that holds only in a resumed session.**
//! `_instructedpreviously_`, `_repliedpreviously_` and
//! `_subrepliedpreviously_` look at what happened before the session was
//! first terminated, and `_resumed_` at the message it was resumed with:
//! seed 000 notes that each "assumes that your session has been
//! terminated and resumed at least once".
//!
//! A hint on every `_resumed_`, and on the `…previously` conditions that
//! are not already inside a `_resumed_` branch (as the SOP writes them).
//!
//! ## Why is this bad?
//! It is not: the hint reminds that in a session's first run the branch
//! never applies, so the first run needs its own instructions.
//!
//! ## Example
//! ```markdown
//! _if_ _repliedpreviously_ like "{prev}", _then_ _terminate_ "{prev}".
//! ```
//!
//! ## Fix
//! ```markdown
//! - _if_ _instructed_ like "SGN_RESUME", _then_:
//!     - _if_ _repliedpreviously_ like "{prev}", _then_ _terminate_ "{prev}".
//! ```
//!
//! (or put it under `_if_ _resumed_ like "SGN_RESUME", _then_:`, which
//! gets this hint itself).
//!
//! ## Severity
//! Hint.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "K011",
    name: "assumes-resumed-session",
    summary: "Condition that holds only in a resumed session",
    severity: Severity::Hint,
    source: include_str!("assumes_resumed_session.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let ins = ctx.ins;
    // The branches whose condition tests the resume: `_resumed_`, or a
    // pattern naming `SGN_RESUME`.
    let guards = crate::instructions::structure::union(ins.branches.iter().filter_map(|b| {
        let c = b.condition?;
        let resumed = ins
            .keywords_in(c)
            .iter()
            .any(|k| k.role == KeywordRole::Statement && k.keyword == Keyword::Resumed);
        (resumed || slice(ctx.text, c).contains("SGN_RESUME"))
            .then_some(c.cover(b.scope.unwrap_or(c)))
    }));
    for k in ins
        .statements()
        .filter(|k| k.keyword.assumes_resumed_session())
    {
        if k.keyword == Keyword::Resumed {
            acc.report(
                k.range,
                "`_resumed_` holds only when your caller resumed a session you had terminated: in the session's first run this branch is skipped",
            );
            continue;
        }
        if !crate::instructions::structure::within(&guards, k.range) {
            acc.report(
                k.range,
                format!(
                    "`{}` assumes this session was terminated and resumed at least once: in its first run it never holds (test it under `_if_ _resumed_ like \"SGN_RESUME\"`, as the SOP does)",
                    k.keyword.written()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::check_code;
    use expect_test::expect;

    #[test]
    fn unguarded_previously_and_every_resumed() {
        check_code(
            "K011",
            r#"_if_ _repliedpreviously_ like "{p}", _then_ _terminate_ "{p}".
## _if_ _resumed_ like "SGN_RESUME", _then_:
- _if_ _repliedpreviously_ like "{p}", _then_ _terminate_ "{p}".
- _elif_ _instructedpreviously_ like "_ask_{*}", _then_ _terminate_ "SGN_PENDING".
"#,
            expect![[r#"
                K011 1:6-1:25 hint: `_repliedpreviously_` assumes this session was terminated and resumed at least once: in its first run it never holds (test it under `_if_ _resumed_ like "SGN_RESUME"`, as the SOP does)
                K011 2:9-2:18 hint: `_resumed_` holds only when your caller resumed a session you had terminated: in the session's first run this branch is skipped
            "#]],
        );
    }
}
