//! # P203 `output-conflicts-variable`
//!
//! **Output name conflicts with variable.** A named `output` and a variable
//! declaration (`input`, `let`, `const`, a named parallel result, or a
//! destructured name) use the same name. Both are stored as the binding
//! `{name}`, so one overwrites the other.
//!
//! ## Example
//! ```prose
//! let summary = session "Draft a summary"
//! output summary = session "Polish the summary"
//!   context: summary
//! ```
//!
//! ## Fix
//! ```prose
//! let draft = session "Draft a summary"
//! output summary = session "Polish the summary"
//!   context: draft
//! ```
//!
//! The diagnostic is on whichever of the two names comes later and links to
//! the other.
//!
//! ## Specification
//! compiler.md, Output Bindings › Validation Rules: "Output name conflicts"
//! (Error, "Output name conflicts with variable"). compiler.md gives the row
//! no E-code; this project numbers it P203.
//!
//! ## Profiles
//! `strict` reports every pair. `default` decides by where the two sit
//! (spec-rows.md §3.1):
//!
//! | Case | Default |
//! |---|---|
//! | `output x = x` (exports the variable of the same name) | off |
//! | Same statement list, otherwise | error |
//! | One nested in the other's body, or sibling bodies that can both run | warning |
//! | Exclusive arms, or different `block` frames | off |
//!
//! `output x = x` is how programs export an existing variable
//! (`examples/39-architect-by-simulation.prose:277`, `output review =
//! review`). A binding made inside a `block` is stored per invocation as
//! `{name}__{execution_id}.md` and cannot collide with a root binding
//! (`examples/45-run-endpoint-ux-test-with-remediation.prose:561`, an
//! `output diagnosis` in a block body and a top-level `let diagnosis`). The
//! official programs have 8 pairs in 3 files, none reported by `default`.

use super::program_shared::{DeclStmts, defined_again_declared};
use crate::openprose::rules::{prelude::*, relation::Earlier};

pub(crate) const RULE: Rule = Rule {
    code: "P203",
    name: "output-conflicts-variable",
    summary: "Output name conflicts with variable",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("output_conflicts_variable.rs"),
    check: Check::OpenProse(check),
};

fn is_variable_decl(kind: DefKind) -> bool {
    matches!(
        kind,
        DefKind::Input | DefKind::Let | DefKind::Const | DefKind::Assigned | DefKind::Destructured
    )
}

/// `output x = x`: exports the variable of the same name.
fn is_export(stmt: &SyntaxNode, name: &str) -> bool {
    ast::OutputDecl::cast(stmt.clone())
        .and_then(|o| o.value())
        .is_some_and(|v| matches!(v, ast::Expr::NameRef(n) if n.text() == name))
}

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let stmts = DeclStmts::new(ctx);
    // Only a name defined more than once can conflict.
    let mut decls =
        defined_again_declared(ctx, &stmts, |k| k == DefKind::Output || is_variable_decl(k));
    decls.sort_by_key(|(d, _)| d.name_range.start());
    // The earlier outputs, and the earlier variables.
    let output_count = decls
        .iter()
        .filter(|(d, _)| d.kind == DefKind::Output)
        .count();
    let mut outputs = Earlier::with_capacity(ctx, output_count);
    let mut variables = Earlier::with_capacity(ctx, decls.len() - output_count);
    for (def, stmt) in decls {
        let is_output = def.kind == DefKind::Output;
        let (others, own) = if is_output {
            (&variables, &mut outputs)
        } else {
            (&outputs, &mut variables)
        };
        let found = others.strongest(&def.name, &stmt).map(|(r, &o)| (r, o));
        own.insert(&def.name, stmt, def);
        let Some((relation, other)) = found else {
            continue;
        };
        let level = if is_output && is_export(&stmts.node(&stmt), &def.name) {
            Level::Off
        } else {
            relation.default_level(Severity::Warning)
        };
        if !acc.shows(level) {
            continue;
        }
        let message = if is_output {
            format!(
                "Output name conflicts with variable: `{}` is already declared as {}",
                def.name,
                article(other.kind.describe())
            )
        } else {
            format!(
                "Output name conflicts with variable: `{}` is already declared as an output",
                def.name
            )
        };
        acc.report_calibrated(
            def.name_range,
            message,
            vec![related(ctx, other.name_range, "declared here")],
            level,
        );
    }
}

fn article(what: &str) -> String {
    let an = what.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {what}", if an { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const PAIRS: &str = r#"input topic: "t"
let review = session "Review {topic}"
output review = review
output topic = session "Rephrase the topic"
let draft = session "Draft"
loop until **good** (max: 3):
  output draft = session "Improve"
    context: draft
if **a**:
  let verdict = session "yes"
else:
  output verdict = session "no"
block helper():
  output review = session "inner"
"#;

    #[test]
    fn default_by_relation() {
        check_code(
            "P203",
            PAIRS,
            expect![[r#"
            P203 4:8-4:13 error: Output name conflicts with variable: `topic` is already declared as an input
              related 1:7-1:12: declared here
            P203 7:10-7:15 warning: Output name conflicts with variable: `draft` is already declared as a let variable
              related 5:5-5:10: declared here
        "#]],
        );
    }

    #[test]
    fn strict_reports_every_pair() {
        check_code_strict(
            "P203",
            PAIRS,
            expect![[r#"
            P203 3:8-3:14 error: Output name conflicts with variable: `review` is already declared as a let variable
              related 2:5-2:11: declared here
            P203 4:8-4:13 error: Output name conflicts with variable: `topic` is already declared as an input
              related 1:7-1:12: declared here
            P203 7:10-7:15 error: Output name conflicts with variable: `draft` is already declared as a let variable
              related 5:5-5:10: declared here
            P203 12:10-12:17 error: Output name conflicts with variable: `verdict` is already declared as a let variable
              related 10:7-10:14: declared here
            P203 14:10-14:16 error: Output name conflicts with variable: `review` is already declared as a let variable
              related 2:5-2:11: declared here
        "#]],
        );
    }

    #[test]
    fn output_declared_first_then_variable() {
        check_code(
            "P203",
            "output result = session \"a\"\nlet result = session \"b\"\n",
            expect![[r#"
                P203 2:5-2:11 error: Output name conflicts with variable: `result` is already declared as an output
                  related 1:8-1:14: declared here
            "#]],
        );
    }

    #[test]
    fn distinct_names() {
        check_no(
            "P203",
            "let draft = session \"a\"\noutput final = session \"b\"\n  context: draft\n",
        );
    }
}
