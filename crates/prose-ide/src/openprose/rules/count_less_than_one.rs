//! # P604 `count-less-than-one`
//!
//! **Count less than 1.** The `count:` of `parallel ("any", count: N)` is
//! an integer below 1, or not an integer at all (`2.5`, a string).
//!
//! ## Example
//! ```prose
//! parallel ("any", count: 0):
//!   session "Attempt 1"
//!   session "Attempt 2"
//! ```
//!
//! ## Fix
//! ```prose
//! parallel ("any", count: 1):
//!   session "Attempt 1"
//!   session "Attempt 2"
//! ```
//!
//! `count: N` waits for N successful branches; fewer than one success is
//! not a join condition.
//!
//! ## Specification
//! compiler.md, Parallel Blocks: "Count less than 1" (Error, "Count must be
//! at least 1"). A count that is not an integer gets the same code with the
//! message "Count must be an integer" (spec-rows.md, P604).
//!
//! ## Profiles
//! A name (`count: n`) holds a value known only at run time: `strict`
//! reports it ("Count must be an integer"), `default` accepts it. Whether
//! the name exists is [P402](P402.md).

use super::variables_shared::{count_value, parallels};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P604",
    name: "count-less-than-one",
    summary: "Count less than 1",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("count_less_than_one.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in parallels(ctx) {
        for (m, value) in &p.counts {
            let Some(v) = value else {
                acc.report(
                    m.syntax().text_range(),
                    "Count must be an integer (no value)",
                );
                continue;
            };
            let range = v.syntax().text_range();
            match count_value(v) {
                Ok(n) if n >= 1 => {}
                Ok(n) => acc.report(range, format!("Count must be at least 1 (found {n})")),
                Err(true) => acc.report_calibrated(
                    range,
                    "Count must be an integer (this is a run-time value)",
                    Vec::new(),
                    Level::Off,
                ),
                Err(false) => acc.report(
                    range,
                    format!("Count must be an integer (found `{}`)", v.syntax().text()),
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const TEXT: &str = "parallel (\"any\", count: 0):\n  session \"a\"\nparallel (\"any\", count: -2):\n  session \"b\"\nparallel (\"any\", count: 1.5):\n  session \"c\"\nparallel (\"any\", count: \"2\"):\n  session \"d\"\nlet n = 2\nparallel (\"any\", count: n):\n  session \"e\"\n";

    #[test]
    fn below_one_and_not_integers() {
        check_code(
            "P604",
            TEXT,
            expect![[r#"
            P604 1:25-1:26 error: Count must be at least 1 (found 0)
            P604 3:25-3:27 error: Count must be at least 1 (found -2)
            P604 5:25-5:28 error: Count must be an integer (found `1.5`)
            P604 7:25-7:28 error: Count must be an integer (found `"2"`)
        "#]],
        );
    }

    #[test]
    fn strict_also_rejects_names() {
        check_code_strict(
            "P604",
            TEXT,
            expect![[r#"
            P604 1:25-1:26 error: Count must be at least 1 (found 0)
            P604 3:25-3:27 error: Count must be at least 1 (found -2)
            P604 5:25-5:28 error: Count must be an integer (found `1.5`)
            P604 7:25-7:28 error: Count must be an integer (found `"2"`)
            P604 10:25-10:26 error: Count must be an integer (this is a run-time value)
        "#]],
        );
    }

    #[test]
    fn positive_integers_are_fine() {
        check_no(
            "P604",
            "parallel (\"any\", count: 1):\n  session \"a\"\nparallel (\"any\", count: 2):\n  session \"b\"\n  session \"c\"\n",
        );
    }
}
