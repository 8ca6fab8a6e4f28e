//! # P705 `unbounded-loop`
//!
//! **Unbounded loop without max iterations.** A `loop:` with neither an
//! `until`/`while` condition nor a `(max: N)` modifier.
//!
//! ## Why is this bad?
//! Nothing ends such a loop except a `break` inside it (or the run being
//! stopped): a forgotten exit runs sessions forever.
//!
//! ## Example
//! ```prose
//! loop:
//!   session "Check the build queue"
//! ```
//!
//! ## Fix
//! Bound it (the quick fix adds `(max: N)`), or give it a condition:
//! ```prose
//! loop (max: 10):
//!   session "Check the build queue"
//!
//! loop until **the queue is empty** (max: 50):
//!   session "Process the next job"
//! ```
//!
//! The diagnostic is on the `loop` keyword. A loop that has a condition but
//! no `max` is not reported: it ends when the condition holds.
//!
//! ## Specification
//! compiler.md, Unbounded Loops, Validation Rules: "Loop without max or
//! condition" (Warning, "Unbounded loop without max iterations"); Unbounded
//! Loops › Basic Loop: "Loops without termination conditions or max
//! iterations generate a warning". Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P705",
    name: "unbounded-loop",
    summary: "Unbounded loop without max iterations",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("unbounded_loop.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for l in nodes::<ast::LoopExpr>(ctx) {
        if l.loop_kind() != ast::LoopKind::Plain {
            continue;
        }
        let has_max = l
            .modifiers()
            .into_iter()
            .flat_map(|m| m.modifiers())
            .any(|m| m.key().as_deref() == Some("max"));
        if has_max {
            continue;
        }
        if let Some(kw) = l.keyword() {
            acc.report(kw.text_range(), "Unbounded loop without max iterations");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn plain_loop_without_max() {
        check_code(
            "P705",
            "loop:\n  session \"a\"\nloop as i:\n  session \"b\"\n",
            expect![[r#"
                P705 1:1-1:5 warning: Unbounded loop without max iterations
                P705 3:1-3:5 warning: Unbounded loop without max iterations
            "#]],
        );
    }

    #[test]
    fn bounded_or_conditional_loops_are_fine() {
        check_no(
            "P705",
            "loop (max: 5):\n  session \"a\"\nloop until **done**:\n  session \"b\"\nloop while **more work remains**:\n  session \"c\"\n",
        );
    }
}
