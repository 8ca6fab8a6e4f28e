//! # P704 `loop-variable-shadows-outer`
//!
//! **Loop variable shadows outer variable.** A loop introduces a variable
//! (`for x`, the index of `for x, i`, `repeat N as i`, `loop … as i`) with
//! the name of a variable that is already visible where the loop starts.
//!
//! ## Why is this bad?
//! Inside the body the name means the loop variable, so the outer value
//! cannot be reached there; after the loop it means the outer variable
//! again. Readers (and the model running the program) easily confuse the
//! two.
//!
//! ## Example
//! ```prose
//! let item = session "Pick the featured product"
//! for item in ["a", "b", "c"]:
//!   session "Describe {item}"
//! ```
//!
//! ## Fix
//! Rename the loop variable:
//! ```prose
//! let item = session "Pick the featured product"
//! for product in ["a", "b", "c"]:
//!   session "Describe {product}"
//! ```
//!
//! The diagnostic is on the loop variable and links to the outer
//! declaration.
//!
//! ## What counts as outer
//! A declaration (`input`, `let`, `const`, named `output`, an assignment,
//! a destructured name, `session name:`) earlier in the same statement list
//! as the loop or in a list enclosing it, or a variable of an enclosing
//! loop, block, `catch` or pipeline. A declaration inside an earlier
//! statement's body, a later declaration, or the variable of a sibling loop
//! does not count: two consecutive `for item in …` loops are fine.
//!
//! ## Specification
//! compiler.md, Fixed Loops, Validation Rules: "Loop variable shadows
//! outer" (Warning, "Loop variable shadows outer variable"); Unbounded
//! Loops, Validation Rules: the same row. Fixed Loops › Variable Scoping
//! shows the outer name visible again after the loop. A warning in every
//! profile (spec-rows.md §2.4).

use super::control_shared::report_shadowing;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P704",
    name: "loop-variable-shadows-outer",
    summary: "Loop variable shadows outer variable",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("loop_variable_shadows_outer.rs"),
    check: Check::OpenProse(check),
};

/// Reports each variable of a `for`, `repeat` or `loop` (item and index)
/// named like an outer variable; a `for`'s names are read in one walk,
/// without collecting them.
fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for node in ctx.nodes_matching(|k| {
        ast::ForExpr::can_cast(k) || ast::RepeatExpr::can_cast(k) || ast::LoopExpr::can_cast(k)
    }) {
        let (first, second) = if let Some(f) = ast::ForExpr::cast(node.clone()) {
            let mut names = f.variables();
            (names.next(), names.next())
        } else if let Some(r) = ast::RepeatExpr::cast(node.clone()) {
            (r.index(), None)
        } else if let Some(l) = ast::LoopExpr::cast(node.clone()) {
            (l.index(), None)
        } else {
            continue;
        };
        for n in first.into_iter().chain(second) {
            report_shadowing(ctx, acc, &node, &n, "Loop variable");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn loop_variables_shadowing_outer_names() {
        check_code(
            "P704",
            r#"input topic: "t"
let item = session "a"
for item, topic in xs:
  repeat 2 as item:
    session "b"
block b(n):
  loop until **done** (max: 3) as n:
    session "c"
"#,
            expect![[r#"
                P704 3:5-3:9 warning: Loop variable shadows outer variable: `item`
                  related 2:5-2:9: outer variable defined here
                P704 3:11-3:16 warning: Loop variable shadows outer variable: `topic`
                  related 1:7-1:12: outer variable defined here
                P704 4:15-4:19 warning: Loop variable shadows outer variable: `item`
                  related 3:5-3:9: outer variable defined here
                P704 7:35-7:36 warning: Loop variable shadows outer variable: `n`
                  related 6:9-6:10: outer variable defined here
            "#]],
        );
    }

    #[test]
    fn siblings_nested_and_later_declarations_do_not_count() {
        check_no(
            "P704",
            r#"for item in xs:
  session "{item}"
for item in ys:
  session "{item}"
if **x**:
  let i = session "a"
repeat 3 as i:
  session "b"
let later = session "c"
for later2 in xs:
  session "d"
"#,
        );
    }
}
