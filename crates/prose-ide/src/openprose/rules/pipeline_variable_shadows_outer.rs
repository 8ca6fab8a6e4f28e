//! # P803 `pipeline-variable-shadows-outer`
//!
//! **Pipeline variable shadows outer variable.** In a `map`, `filter` or
//! `pmap` body the implicit variable `item` hides an outer variable called
//! `item`; or a name of `reduce(acc, x)` is the name of an outer variable.
//!
//! ## Why is this bad?
//! Inside the body the name means the pipeline's variable, so the outer
//! value cannot be reached there, and readers easily confuse the two.
//!
//! ## Example
//! ```prose
//! let item = session "Pick the featured product"
//! let notes = ["a", "b"] | map:
//!   session "Compare {item} with the featured product"
//! ```
//!
//! ## Fix
//! Rename the outer variable (the implicit `item` cannot be renamed):
//! ```prose
//! let featured = session "Pick the featured product"
//! let notes = ["a", "b"] | map:
//!   session "Compare {item} with {featured}"
//! ```
//!
//! The diagnostic is on the operator keyword for the implicit `item`
//! (which is not written anywhere), and on the name in the list for
//! `reduce`. It links to the outer declaration. What counts as outer is
//! described under [P704](P704.md): an earlier declaration in an enclosing
//! statement list, or a variable of an enclosing loop, block, `catch` or
//! pipeline. A `map` nested in another `map`'s body therefore shadows the
//! outer `item`.
//!
//! ## Specification
//! compiler.md, Pipeline Operations, Validation Rules: "Pipeline variable
//! shadows outer" (Warning, "Implicit/explicit variable shadows outer
//! variable"). A warning in every profile (spec-rows.md §2.4).

use super::control_shared::{outer_variable, report_shadowing};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P803",
    name: "pipeline-variable-shadows-outer",
    summary: "Pipeline variable shadows outer variable",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("pipeline_variable_shadows_outer.rs"),
    check: Check::OpenProse(check),
};

/// Reports each pipeline variable named like an outer variable: the names
/// of a `reduce(acc, x)`, and the implicit `item` of `map`, `filter` and
/// `pmap` (the operator read as its token's text, without a copy).
fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for op in nodes::<ast::PipeOp>(ctx) {
        let node = op.syntax();
        if let Some(params) = op.params() {
            for n in params.params().filter_map(|p| p.name()) {
                report_shadowing(ctx, acc, node, &n, "Explicit variable");
            }
        } else if let Some(kw) = op.op_token()
            && matches!(kw.text(), "map" | "filter" | "pmap")
            && let Some(outer) = outer_variable(ctx, node, "item")
        {
            acc.report_related(
                kw.text_range(),
                format!(
                    "Implicit variable shadows outer variable: `item` in this `{}` body hides the outer `item`",
                    kw.text()
                ),
                vec![related(ctx, outer, "outer variable defined here")],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn implicit_and_explicit_shadowing() {
        check_code(
            "P803",
            r#"let item = session "a"
let acc = session "b"
let r = xs | map:
  session "{item}"
let s = xs | reduce(acc, x):
  session "{acc}"
for x in xs:
  let t = ys | reduce(a, x):
    session "{a}"
"#,
            expect![[r#"
                P803 3:14-3:17 warning: Implicit variable shadows outer variable: `item` in this `map` body hides the outer `item`
                  related 1:5-1:9: outer variable defined here
                P803 5:21-5:24 warning: Explicit variable shadows outer variable: `acc`
                  related 2:5-2:8: outer variable defined here
                P803 8:26-8:27 warning: Explicit variable shadows outer variable: `x`
                  related 7:5-7:6: outer variable defined here
            "#]],
        );
    }

    #[test]
    fn no_outer_variable() {
        check_no(
            "P803",
            r#"let r = xs | map:
  session "{item}"
let s = xs
  | filter:
      session "{item}"
  | reduce(acc, x):
      session "{acc}"
let item = session "later"
"#,
        );
    }
}
