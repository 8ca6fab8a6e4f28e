//! # P603 `count-without-any`
//!
//! **Count without "any".** `parallel (…)` has a `count:` but its join
//! strategy is not `"any"`. Without a strategy the block waits for `"all"`
//! branches, so a `count:` there is reported too.
//!
//! ## Example
//! ```prose
//! parallel ("first", count: 2):
//!   session "Attempt 1"
//!   session "Attempt 2"
//!   session "Attempt 3"
//! ```
//!
//! ## Fix
//! ```prose
//! parallel ("any", count: 2):
//!   session "Attempt 1"
//!   session "Attempt 2"
//!   session "Attempt 3"
//! ```
//!
//! The diagnostic spans the `count:` modifier and links to the strategy.
//! An invalid strategy is [P601](P601.md) alone.
//!
//! ## Specification
//! compiler.md, Parallel Blocks: "Count without "any"" (Error, "Count is
//! only valid with "any" strategy"). Same severity in every profile.

use super::variables_shared::{Word, parallels, word};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P603",
    name: "count-without-any",
    summary: "Count without \"any\"",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("count_without_any.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in parallels(ctx) {
        let (detail, related_to) = match p.strategy() {
            None => (String::from("no strategy means \"all\""), Vec::new()),
            Some(s) => match word(s, vocabulary::JOIN_STRATEGIES) {
                Word::Valid(w) | Word::Unquoted(w) if w == "any" => continue,
                Word::Valid(w) | Word::Unquoted(w) => (
                    format!("the strategy is \"{w}\""),
                    vec![related(ctx, s.syntax().text_range(), "join strategy")],
                ),
                Word::Invalid(_) => continue, // P601
            },
        };
        for (m, _) in &p.counts {
            acc.report_related(
                m.syntax().text_range(),
                format!("Count is only valid with \"any\" strategy ({detail})"),
                related_to.clone(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn count_with_other_strategies() {
        check_code(
            "P603",
            "parallel (\"first\", count: 2):\n  session \"a\"\n  session \"b\"\nparallel (count: 1):\n  session \"c\"\nparallel (\"fastest\", count: 1):\n  session \"d\"\n",
            expect![[r#"
                P603 1:20-1:28 error: Count is only valid with "any" strategy (the strategy is "first")
                  related 1:11-1:18: join strategy
                P603 4:11-4:19 error: Count is only valid with "any" strategy (no strategy means "all")
            "#]],
        );
    }

    #[test]
    fn count_with_any_is_fine() {
        check_no(
            "P603",
            "parallel (\"any\", count: 2):\n  session \"a\"\n  session \"b\"\nparallel (any, count: 1):\n  session \"c\"\n",
        );
    }
}
