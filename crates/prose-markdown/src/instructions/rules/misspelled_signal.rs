//! # K013 `misspelled-signal`
//!
//! **Misspelled SOP signal.** An `SGN_*` name one or two letters away
//! from a signal of the SOP (`SGN_PENDING`, `SGN_RESUME`,
//! `SGN_UNHANDLED`). Signals of your own (`SGN_DONE`) are fine, and so
//! are names that extend an SOP signal (`SGN_RESUMED`).
//!
//! ## Why is this bad?
//! Signals are matched exactly: a caller waiting for `SGN_PENDING` does
//! not recognise `SGN_PENDNG`.
//!
//! ## Example
//! ```markdown
//! _if_ the question is unanswered, _then_ _terminate_ "SGN_PENDNG".
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ the question is unanswered, _then_ _terminate_ "SGN_PENDING".
//! ```
//!
//! A quick fix replaces the name.
//!
//! ## Severity
//! Warning.

use super::prelude::*;
use crate::instructions::SIGNALS;

pub(crate) const RULE: Rule = Rule {
    code: "K013",
    name: "misspelled-signal",
    summary: "Misspelled SOP signal",
    severity: Severity::Warning,
    source: include_str!("misspelled_signal.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for s in ctx.ins.signals.iter().filter(|s| !s.in_code) {
        let Some(tail) = s.name.strip_prefix("SGN_") else {
            continue;
        };
        let mut best: Option<(usize, &str)> = None;
        for known in SIGNALS.map(|k| k.name) {
            let ktail = &known[4..];
            if tail == ktail || tail.starts_with(ktail) || ktail.starts_with(tail) {
                best = None;
                if tail == ktail {
                    break;
                }
                continue;
            }
            let bound = if ktail.len() >= 8 { 2 } else { 1 };
            let d = crate::text::edit_distance(tail, ktail);
            if d <= bound && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, known));
            }
        }
        if let Some((_, known)) = best {
            acc.report(
                s.range,
                format!(
                    "`{}` is not a signal of the SOP: did you mean `{known}`?",
                    s.name
                ),
            )
            .fix(format!("Change to `{known}`"), s.range, known);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::check_code;
    use expect_test::expect;

    #[test]
    fn near_sop_signals() {
        check_code(
            "K013",
            "_terminate_ \"SGN_PENDNG\". SGN_RESUEM, SGN_UNHANDELD, SGN_DONE, SGN_RESUMED, SGN_PENDING (x), `SGN_PENDNG`.\n",
            expect![[r#"
                K013 1:14-1:24 warning: `SGN_PENDNG` is not a signal of the SOP: did you mean `SGN_PENDING`?
                K013 1:27-1:37 warning: `SGN_RESUEM` is not a signal of the SOP: did you mean `SGN_RESUME`?
                K013 1:39-1:52 warning: `SGN_UNHANDELD` is not a signal of the SOP: did you mean `SGN_UNHANDLED`?
            "#]],
        );
    }
}
