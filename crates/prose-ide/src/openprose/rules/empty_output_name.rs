//! # E023 `empty-output-name`
//!
//! **Output name cannot be empty.** An `output` has no name before `=`, so
//! the caller cannot read the value.
//!
//! ## Example
//! ```prose
//! output = session "Synthesize the research"
//! ```
//!
//! ## Fix
//! ```prose
//! output findings = session "Synthesize the research"
//! ```
//!
//! The diagnostic runs from the `output` keyword through the `=`, if there
//! is one.
//!
//! ## Specification
//! compiler.md, Output Bindings › Validation Rules: "Empty output name"
//! (Error, "Output name cannot be empty"); Validation Rules: E023. The
//! syntax is `output name = expression`, so `strict` reports `output = x`,
//! `output` alone, and the bare form `output <expr>`.
//!
//! ## Profiles
//! `default` reports only `output = x` and `output` alone. The bare form
//! `output <expr>` is how the official programs return a value from a
//! `block` or a program branch (30 uses in 7 programs, for example
//! `examples/38-skill-scan.prose:252`, `output session "…"` as a block's
//! value), and prose.md's algorithm returns "outputs to caller (or final
//! result if no outputs declared)".

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E023",
    name: "empty-output-name",
    summary: "Output name cannot be empty",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("empty_output_name.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for output in nodes::<ast::OutputDecl>(ctx) {
        if output.name().is_some() {
            continue;
        }
        let Some(kw) = output.keyword() else { continue };
        let eq = child_token(output.syntax(), SyntaxKind::EQ);
        let bare = eq.is_none() && output.value().is_some();
        let end = eq.map_or(kw.text_range().end(), |t| t.text_range().end());
        let range = TextRange::new(kw.text_range().start(), end);
        if bare {
            acc.report_calibrated(
                range,
                "Output name cannot be empty: write `output name = …` to name the value",
                Vec::new(),
                Level::Off,
            );
        } else {
            acc.report(range, "Output name cannot be empty");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FORMS: &str = "output = session \"a\"\noutput\nblock b():\n  output session \"c\"\n";

    #[test]
    fn default_reports_missing_names_before_eq() {
        check_code(
            "E023",
            FORMS,
            expect![[r#"
            E023 1:1-1:9 error: Output name cannot be empty
            E023 2:1-2:7 error: Output name cannot be empty
        "#]],
        );
    }

    #[test]
    fn strict_also_reports_the_bare_form() {
        check_code_strict(
            "E023",
            FORMS,
            expect![[r#"
            E023 1:1-1:9 error: Output name cannot be empty
            E023 2:1-2:7 error: Output name cannot be empty
            E023 4:3-4:9 error: Output name cannot be empty: write `output name = …` to name the value
        "#]],
        );
    }

    #[test]
    fn named_output() {
        check_no("E023", "output findings = session \"a\"\n");
    }
}
