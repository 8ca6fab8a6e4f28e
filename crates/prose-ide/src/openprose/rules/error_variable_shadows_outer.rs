//! # P805 `error-variable-shadows-outer`
//!
//! **Error variable shadows outer variable.** `catch as NAME`, where NAME
//! is a variable already visible at the `catch`.
//!
//! ## Why is this bad?
//! Inside the `catch` body the name means the error, so the outer value
//! cannot be reached there; after the body it means the outer variable
//! again.
//!
//! ## Example
//! ```prose
//! let err = session "Collect the known issues"
//! try:
//!   session "Deploy to staging"
//! catch as err:
//!   session "Explain the failure: {err}"
//! ```
//!
//! ## Fix
//! ```prose
//! let known_issues = session "Collect the known issues"
//! try:
//!   session "Deploy to staging"
//! catch as err:
//!   session "Explain the failure: {err}"
//! ```
//!
//! The diagnostic is on NAME and links to the outer declaration. What
//! counts as outer is described under [P704](P704.md).
//!
//! ## Specification
//! compiler.md, Error Handling, Validation Rules: "Error variable shadows
//! outer" (Warning, "Error variable shadows outer variable"). A warning in
//! every profile (spec-rows.md §2.4).

use super::control_shared::report_shadowing;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P805",
    name: "error-variable-shadows-outer",
    summary: "Error variable shadows outer variable",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("error_variable_shadows_outer.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for c in nodes::<ast::CatchClause>(ctx) {
        if let Some(n) = c.error_name() {
            report_shadowing(ctx, acc, c.syntax(), &n, "Error variable");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn catch_variable_shadowing() {
        check_code(
            "P805",
            r#"let err = session "a"
try:
  session "b"
catch as err:
  session "{err}"
for e in xs:
  try:
    session "c"
  catch as e:
    session "{e}"
"#,
            expect![[r#"
                P805 4:10-4:13 warning: Error variable shadows outer variable: `err`
                  related 1:5-1:8: outer variable defined here
                P805 9:12-9:13 warning: Error variable shadows outer variable: `e`
                  related 6:5-6:6: outer variable defined here
            "#]],
        );
    }

    #[test]
    fn fresh_error_names_are_fine() {
        check_no(
            "P805",
            r#"try:
  session "a"
catch as err:
  session "{err}"
try:
  session "b"
catch as err:
  session "{err}"
let err2 = session "c"
"#,
        );
    }
}
