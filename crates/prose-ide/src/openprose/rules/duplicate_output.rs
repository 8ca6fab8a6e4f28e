//! # E024 `duplicate-output`
//!
//! **Output already declared.** Two named `output`s use the same name, so
//! the later one overwrites the value the earlier one returned.
//!
//! ## Example
//! ```prose
//! output summary = session "Summarize the findings"
//! output summary = session "Summarize the sources"
//! ```
//!
//! ## Fix
//! ```prose
//! output summary = session "Summarize the findings"
//! output source-summary = session "Summarize the sources"
//! ```
//!
//! The diagnostic is on the later name and links to the earlier one.
//!
//! ## Specification
//! compiler.md, Output Bindings › Validation Rules: "Duplicate output name"
//! (Error, "Output already declared"); Validation Rules: E024.
//!
//! ## Profiles
//! `strict` reports every pair. `default` decides by where the two sit
//! (spec-rows.md §3.1):
//!
//! | Relation | Default |
//! |---|---|
//! | Same statement list | error |
//! | One nested in the other's body, or in sibling bodies that can both run (two `if`s) | hint: the last value assigned is returned |
//! | Exclusive arms (`if`/`elif`/`else`, `option`s of one `choice`, `try`/`catch`), or different `block` frames | off |
//!
//! The official programs set one output from several exit paths, the same
//! idiom as a `return` in each branch: 35 pairs in 12 programs, for example
//! `examples/29-captains-chair.prose:110` (`output result` in the `if` and
//! the `else` arm: off) and `examples/48-habit-miner.prose:228` (several
//! `if …: output result = {…}` early exits: hint). A value bound inside a
//! `block` is stored per invocation (`{name}__{execution_id}.md`) and cannot
//! collide with a program output. When a name has several earlier outputs,
//! the one it collides with most decides.

use super::program_shared::redeclarations;
use crate::openprose::rules::{prelude::*, relation::Relation};

pub(crate) const RULE: Rule = Rule {
    code: "E024",
    name: "duplicate-output",
    summary: "Output already declared",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("duplicate_output.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (def, relation, first) in redeclarations(ctx, DefKind::Output) {
        let level = relation.default_level(Severity::Hint);
        // Off by default in other frames: no line counted for it then.
        if !acc.shows(level) {
            continue;
        }
        let line = line_of(ctx, first.name_range.start());
        let message = match relation {
            Relation::SameList => format!("Output already declared: `{}`", def.name),
            Relation::Nested | Relation::Sibling => format!(
                "Output already declared: `{}` is also set at line {line}; the last value assigned is returned",
                def.name
            ),
            Relation::Exclusive | Relation::DifferentFrames => format!(
                "Output already declared: `{}` (also set at line {line})",
                def.name
            ),
        };
        acc.report_calibrated(
            def.name_range,
            message,
            vec![related(ctx, first.name_range, "also set here")],
            level,
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const EXITS: &str = r#"output result = session "a"
output result = session "b"
if **done early**:
  output result = session "c"
if **x**:
  output verdict = session "yes"
elif **y**:
  output verdict = session "maybe"
else:
  output verdict = session "no"
block helper():
  output result = session "d"
"#;

    #[test]
    fn default_by_relation() {
        check_code(
            "E024",
            EXITS,
            expect![[r#"
            E024 2:8-2:14 error: Output already declared: `result`
              related 1:8-1:14: also set here
            E024 4:10-4:16 hint: Output already declared: `result` is also set at line 2; the last value assigned is returned
              related 2:8-2:14: also set here
        "#]],
        );
    }

    #[test]
    fn strict_reports_every_pair() {
        check_code_strict(
            "E024",
            EXITS,
            expect![[r#"
            E024 2:8-2:14 error: Output already declared: `result`
              related 1:8-1:14: also set here
            E024 4:10-4:16 error: Output already declared: `result` is also set at line 2; the last value assigned is returned
              related 2:8-2:14: also set here
            E024 8:10-8:17 error: Output already declared: `verdict` (also set at line 6)
              related 6:10-6:17: also set here
            E024 10:10-10:17 error: Output already declared: `verdict` (also set at line 8)
              related 8:10-8:17: also set here
            E024 12:10-12:16 error: Output already declared: `result` (also set at line 4)
              related 4:10-4:16: also set here
        "#]],
        );
    }

    #[test]
    fn distinct_outputs() {
        check_no(
            "E024",
            "output findings = session \"a\"\noutput sources = session \"b\"\noutput session \"bare\"\n",
        );
    }
}
