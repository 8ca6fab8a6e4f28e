//! # P502 `parameter-shadows-outer`
//!
//! **Parameter shadows outer variable.** A block parameter has the same name
//! as a program-level variable (`input`, `let`, `const`, `output`, …), or
//! as a variable of a construct that encloses the block. Blocks are hoisted,
//! so a program-level declaration anywhere in the file counts.
//!
//! ## Why is this bad?
//! Inside the body the name means the parameter, outside it the variable.
//! When a call passes something else, the body silently reads a different
//! value than the same name means everywhere else.
//!
//! ## Example
//! ```prose
//! let plan = session "Draft the plan"
//! let work_items = session "List the work items"
//!
//! block implement(plan):
//!   session "Implement {plan}"
//!
//! do implement(work_items)
//! ```
//!
//! ## Fix
//! ```prose
//! let plan = session "Draft the plan"
//! let work_items = session "List the work items"
//!
//! block implement(items):
//!   session "Implement {items}"
//!
//! do implement(work_items)
//! ```
//!
//! The diagnostic is on the parameter and links to the outer declaration.
//!
//! ## Specification
//! compiler.md, Composition Blocks › Block Parameters: "Parameter shadows
//! outer" (Warning, "Parameter shadows outer variable"); Parameter Scope:
//! "Parameters shadow outer variables of the same name (with warning)".
//! The Flat Namespace Requirement also lists "Block parameters shadowing
//! outer variables"; spec-rows.md §3.1 reads that as this warning.
//!
//! ## Profiles
//! `strict` warns on every shadowing parameter. `default` reports a **hint**
//! when the block is called and every `do` call passes, in that
//! parameter's position, the outer variable of the same name
//! (`do observe(api_url)` for `block observe(api_url)`): the pass-through
//! idiom, where both names always hold the same value. The official
//! programs use it 12 times in 3 files (for example
//! `examples/44-run-endpoint-ux-test.prose:85`). Two parameters stay
//! warnings there: `implementation_plan` at
//! `examples/29-captains-chair.prose:97` (called with `work_items`) and
//! `fix_result` at `examples/45-run-endpoint-ux-test-with-remediation.prose:436`
//! (called once with `fix_result` and once with an object, at line 506).

use rustc_hash::FxHashMap as HashMap;

use super::{
    super::group_control::control_shared::enclosing_scoped,
    variables_shared::{Decl, declarations_named},
};
use crate::openprose::rules::{places::Class, prelude::*};

pub(crate) const RULE: Rule = Rule {
    code: "P502",
    name: "parameter-shadows-outer",
    summary: "Parameter shadows outer variable",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("parameter_shadows_outer.rs"),
    check: Check::OpenProse(check),
};

/// Reports each block parameter named like a variable visible outside the
/// block: an enclosing scoped variable, a program-level declaration, or an
/// earlier declaration of a list enclosing the block.
fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    // Every parameter: its block, position, name and the name's text.
    let mut params = Vec::new();
    for block in nodes::<ast::BlockDef>(ctx) {
        for (i, param) in block.params().enumerate() {
            let Some(name) = param.name() else { continue };
            let name = name.syntax().clone();
            let text = name.text().to_string();
            params.push((block.clone(), i, name, text));
        }
    }
    // By name: a parameter meets only the declarations of its name (the
    // names of no parameter are left out), not every one of the file.
    let wanted: rustc_hash::FxHashSet<&str> = params.iter().map(|p| p.3.as_str()).collect();
    let decls = declarations_named(ctx, &wanted);
    let mut decls_named: HashMap<&str, Vec<&Decl>> = HashMap::default();
    for d in &decls {
        decls_named.entry(d.name.as_str()).or_default().push(d);
    }
    // The calls by block name, made when a first parameter shadows.
    let mut calls_named: Option<HashMap<String, Vec<ast::DoCall>>> = None;
    for (block, i, name, text) in &params {
        let (i, text) = (*i, text.as_str());
        let here = block.syntax().text_range();
        // An enclosing construct's scoped variable (innermost first).
        let scoped =
            enclosing_scoped(ctx, block.syntax(), text).map(|d| (d.name_range, d.kind.describe()));
        // A program-level declaration anywhere, or one earlier in a
        // list that encloses the block.
        let declared = || {
            decls_named
                .get(text)
                .into_iter()
                .flatten()
                .filter(|d| d.reassigns.is_none())
                .find(|d| {
                    // Outside every block, or in a list holding this block
                    // (a node whose range holds the block's is above it:
                    // a block starts with its keyword).
                    d.stmt.class != Class::InFrame
                        || (d.name_range.start() < here.start()
                            && d.stmt.parent.0.contains_range(here))
                })
                .map(|d| (d.name_range, d.kind.describe()))
        };
        let Some((outer, what)) = scoped.or_else(declared) else {
            continue;
        };
        let calls_named = calls_named.get_or_insert_with(|| {
            let mut calls_named: HashMap<String, Vec<ast::DoCall>> = HashMap::default();
            for call in nodes::<ast::DoCall>(ctx) {
                if let Some(n) = call.name_ref() {
                    calls_named.entry(n.text()).or_default().push(call);
                }
            }
            calls_named
        });
        let block_name = block.name().map(|n| n.text());
        let mut own_calls = block_name
            .as_ref()
            .and_then(|n| calls_named.get(n))
            .into_iter()
            .flatten()
            .peekable();
        let pass_through = own_calls.peek().is_some()
            && own_calls.all(|c| {
                matches!(
                    c.args().nth(i).and_then(|a| a.value()),
                    Some(ast::Expr::NameRef(n)) if n.text() == text
                )
            });
        let (message, level) = if pass_through {
            (
                format!(
                    "Parameter shadows outer variable: `{text}` (every call passes `{text}` itself)"
                ),
                Level::On(Severity::Hint),
            )
        } else {
            (
                format!("Parameter shadows outer variable: `{text}`"),
                Level::On(Severity::Warning),
            )
        };
        acc.report_calibrated(
            name.text_range(),
            message,
            vec![related(ctx, outer, &format!("outer {what} defined here"))],
            level,
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const TEXT: &str = r#"input api_url: "the endpoint"
block observe(api_url, plan):
  session "{api_url} {plan}"
do observe(api_url, work)
do observe(api_url, plan)
let plan = session "later, still outer: blocks are hoisted"
let work = session "w"
"#;

    #[test]
    fn pass_through_is_a_hint_by_default() {
        check_code(
            "P502",
            TEXT,
            expect![[r#"
            P502 2:15-2:22 hint: Parameter shadows outer variable: `api_url` (every call passes `api_url` itself)
              related 1:7-1:14: outer input defined here
            P502 2:24-2:28 warning: Parameter shadows outer variable: `plan`
              related 6:5-6:9: outer let variable defined here
        "#]],
        );
    }

    #[test]
    fn strict_warns_on_every_parameter() {
        check_code_strict(
            "P502",
            TEXT,
            expect![[r#"
            P502 2:15-2:22 warning: Parameter shadows outer variable: `api_url` (every call passes `api_url` itself)
              related 1:7-1:14: outer input defined here
            P502 2:24-2:28 warning: Parameter shadows outer variable: `plan`
              related 6:5-6:9: outer let variable defined here
        "#]],
        );
    }

    #[test]
    fn enclosing_loop_variable() {
        check_code(
            "P502",
            "for item in [1]:\n  block inner(item):\n    session \"{item}\"\n",
            expect![[r#"
                P502 2:15-2:19 warning: Parameter shadows outer variable: `item`
                  related 1:5-1:9: outer loop variable defined here
            "#]],
        );
    }

    #[test]
    fn names_only_used_in_other_blocks_are_fine() {
        check_no(
            "P502",
            r#"block a(topic):
  let notes = session "{topic}"
block b(notes):
  session "{notes}"
do a("x")
do b("y")
for topic in [1]:
  session "{topic}"
"#,
        );
    }
}
