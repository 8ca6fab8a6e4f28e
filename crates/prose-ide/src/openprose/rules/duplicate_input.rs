//! # E021 `duplicate-input`
//!
//! **Input already declared.** Two `input` declarations use the same name,
//! so the caller's value for it is ambiguous.
//!
//! ## Example
//! ```prose
//! input topic: "The subject to research"
//! input topic: "What to write about"
//! ```
//!
//! ## Fix
//! ```prose
//! input topic: "The subject to research"
//! input angle: "What to write about"
//! ```
//!
//! The diagnostic is on the later name and links to the earlier one.
//!
//! ## Specification
//! compiler.md, Input Declarations › Validation Rules: "Duplicate input
//! name" (Error, "Input already declared"); Validation Rules: E021.
//!
//! ## Profiles
//! `strict` reports every pair. `default` does not report a pair declared
//! in exclusive arms (different arms of one `if`/`elif`/`else`, different
//! `option`s of one `choice`, or a `try` body and its `catch`): prose.md
//! documents mid-program inputs as runtime prompts, and only one arm runs,
//! so the value is asked for once (spec-rows.md §3.1, the same relation as
//! E019). The official programs declare no input twice.

use super::program_shared::redeclarations;
use crate::openprose::rules::{prelude::*, relation::Relation};

pub(crate) const RULE: Rule = Rule {
    code: "E021",
    name: "duplicate-input",
    summary: "Input already declared",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("duplicate_input.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (def, relation, first) in redeclarations(ctx, DefKind::Input) {
        let level = if relation == Relation::Exclusive {
            Level::Off
        } else {
            Level::On(Severity::Error)
        };
        if !acc.shows(level) {
            continue;
        }
        acc.report_calibrated(
            def.name_range,
            format!("Input already declared: `{}`", def.name),
            vec![related(ctx, first.name_range, "first declared here")],
            level,
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    #[test]
    fn repeated_input() {
        check_code(
            "E021",
            "input topic: \"a\"\ninput depth: \"b\"\ninput topic: \"c\"\n",
            expect![[r#"
                E021 3:7-3:12 error: Input already declared: `topic`
                  related 1:7-1:12: first declared here
            "#]],
        );
    }

    #[test]
    fn exclusive_arms_differ_by_profile() {
        let fixture = "if **quick**:\n  input depth: \"a\"\nelse:\n  input depth: \"b\"\n";
        check_code("E021", fixture, expect![[""]]);
        check_code_strict(
            "E021",
            fixture,
            expect![[r#"
            E021 4:9-4:14 error: Input already declared: `depth`
              related 2:9-2:14: first declared here
        "#]],
        );
    }

    #[test]
    fn distinct_inputs() {
        check_no("E021", "input topic: \"a\"\ninput depth: \"b\"\n");
    }
}
