//! # P605 `count-exceeds-branches`
//!
//! **Count exceeds branches.** `parallel ("any", count: N)` waits for more
//! successes than the block has branches, so it can never complete
//! successfully.
//!
//! ## Example
//! ```prose
//! parallel ("any", count: 3):
//!   session "Attempt 1"
//!   session "Attempt 2"
//! ```
//!
//! ## Fix
//! ```prose
//! parallel ("any", count: 2):
//!   session "Attempt 1"
//!   session "Attempt 2"
//! ```
//!
//! The branches are the statements directly in the `parallel` body. A
//! `parallel for` takes no modifiers; its branch count (the collection's
//! length) is known only at run time.
//!
//! ## Specification
//! compiler.md, Parallel Blocks: "Count exceeds branches" (Warning, "Count
//! exceeds number of parallel branches"). Same severity in every profile.

use super::variables_shared::{count_value, parallels};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P605",
    name: "count-exceeds-branches",
    summary: "Count exceeds branches",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("count_exceeds_branches.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in parallels(ctx) {
        let branches = p.branches;
        for (_, value) in &p.counts {
            let Some(v) = value else { continue };
            let Ok(n) = count_value(v) else { continue };
            if n >= 1 && n as usize > branches {
                acc.report_related(
                    v.syntax().text_range(),
                    format!("Count exceeds number of parallel branches ({n} > {branches})"),
                    vec![related(
                        ctx,
                        p.keyword,
                        &format!(
                            "this block has {branches} branch{}",
                            if branches == 1 { "" } else { "es" }
                        ),
                    )],
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn more_than_the_branches() {
        check_code(
            "P605",
            "parallel (\"any\", count: 3):\n  a = session \"a\"\n  # a comment is not a branch\n  session \"b\"\n",
            expect![[r#"
                P605 1:25-1:26 warning: Count exceeds number of parallel branches (3 > 2)
                  related 1:1-1:9: this block has 2 branches
            "#]],
        );
    }

    #[test]
    fn within_the_branches_is_fine() {
        check_no(
            "P605",
            "parallel (\"any\", count: 2):\n  session \"a\"\n  session \"b\"\n",
        );
    }
}
