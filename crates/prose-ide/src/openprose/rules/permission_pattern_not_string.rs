//! # E016 `permission-pattern-not-string`
//!
//! **Permission pattern must be a string.** An element of a permission
//! array (`read: [...]`, `write: [...]`, ...) is not a string literal.
//!
//! ## Example
//! ```prose
//! agent reader:
//!   permissions:
//!     read: [docs, "*.md"]
//! ```
//!
//! ## Fix
//! ```prose
//! agent reader:
//!   permissions:
//!     read: ["docs/**", "*.md"]
//! ```
//!
//! The diagnostic is on the element. An identifier that names no variable
//! is reported in every profile.
//!
//! ## Specification
//! compiler.md, Agent Definitions › Permission Values ("Array: List of
//! allowed patterns") and Validation Rules: E016 "Permission pattern must
//! be a string" (no table row).
//!
//! ## Profiles
//! `strict` reports every element that is not a string literal. `default`
//! accepts an identifier that names a variable visible there: an `input`,
//! `let`, `const` or other declaration earlier in the file (anywhere in the
//! file for an agent definition or inside a `block` body, which run later),
//! or an enclosing loop, parameter or error variable. The pattern is then
//! that variable's value. The official programs do this 10 times in 3
//! files, every time naming a `const` that holds a URL or a path
//! (`examples/46-workflow-crystallizer.prose:179`,
//! `network: [PROSE_SPEC_URL, ...]`). Under `strict` the message names the
//! declaration and links to it.

use crate::openprose::rules::prelude::*;

use super::{Owner, permission_entries};

pub(crate) const RULE: Rule = Rule {
    code: "E016",
    name: "permission-pattern-not-string",
    summary: "Permission pattern must be a string",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("permission_pattern_not_string.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = "Permission pattern must be a string";

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (owner, entry) in permission_entries(ctx) {
        let Some(ast::Expr::Array(array)) = entry.any_value() else {
            continue;
        };
        let anywhere = owner == Owner::Agent
            || entry
                .syntax()
                .ancestors()
                .any(|n| n.kind() == SyntaxKind::BLOCK_DEF);
        for el in array.elements() {
            let range = el.syntax().text_range();
            match &el {
                ast::Expr::String(_) => {}
                ast::Expr::NameRef(n) => {
                    let name = n.text();
                    match variable(ctx, &name, range, anywhere) {
                        Some(def) => acc.report_calibrated(
                            range,
                            format!(
                                "{MESSAGE}: `{name}` names a {} (quote the pattern to follow the specification)",
                                def.kind.describe()
                            ),
                            vec![related(ctx, def.name_range, "declared here")],
                            Level::Off,
                        ),
                        None => match variable(ctx, &name, range, true) {
                            Some(later) => acc.report_related(
                                range,
                                format!("{MESSAGE}: `{name}` is only declared after this point; quote the pattern"),
                                vec![related(ctx, later.name_range, "declared here")],
                            ),
                            None => acc.report(
                                range,
                                format!("{MESSAGE}: `{name}` is not a variable; quote the pattern"),
                            ),
                        },
                    }
                }
                _ => acc.report(range, MESSAGE),
            }
        }
    }
}

/// The variable `name` names at `at`: an enclosing scoped variable, or a
/// declaration earlier in the file (anywhere, when `anywhere`).
fn variable<'a>(ctx: &'a Ctx<'_>, name: &str, at: TextRange, anywhere: bool) -> Option<&'a Def> {
    let sema = ctx.sema();
    let named = || sema.named(name).map(|id| sema.def(id));
    named()
        .find(|d| d.kind.is_scoped() && d.scope.is_some_and(|s| s.contains_range(at)))
        .or_else(|| {
            named().find(|d| {
                (d.kind.is_flat_binding() || d.kind == DefKind::Input)
                    && (anywhere || d.range.start() < at.start())
            })
        })
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "agent a:\n  permissions:\n    network: [SPEC_URL, \"x\", nope, 3]\nconst SPEC_URL = \"https://example.com\"\nsession \"s\"\n  permissions:\n    write: [OUT, SPEC_URL]\nconst OUT = \"out/\"\n";

    #[test]
    fn default_accepts_variables() {
        check_code(
            "E016",
            FIXTURE,
            expect![[r#"
            E016 3:30-3:34 error: Permission pattern must be a string: `nope` is not a variable; quote the pattern
            E016 3:36-3:37 error: Permission pattern must be a string
            E016 7:13-7:16 error: Permission pattern must be a string: `OUT` is only declared after this point; quote the pattern
              related 8:7-8:10: declared here
        "#]],
        );
    }

    #[test]
    fn strict_reports_every_identifier() {
        check_code_strict(
            "E016",
            FIXTURE,
            expect![[r#"
            E016 3:15-3:23 error: Permission pattern must be a string: `SPEC_URL` names a const variable (quote the pattern to follow the specification)
              related 4:7-4:15: declared here
            E016 3:30-3:34 error: Permission pattern must be a string: `nope` is not a variable; quote the pattern
            E016 3:36-3:37 error: Permission pattern must be a string
            E016 7:13-7:16 error: Permission pattern must be a string: `OUT` is only declared after this point; quote the pattern
              related 8:7-8:10: declared here
            E016 7:18-7:26 error: Permission pattern must be a string: `SPEC_URL` names a const variable (quote the pattern to follow the specification)
              related 4:7-4:15: declared here
        "#]],
        );
    }

    #[test]
    fn strings_are_fine() {
        check_no(
            "E016",
            "agent a:\n  permissions:\n    read: [\"*.md\", \"{dir}/*\"]\n    bash: deny\n",
        );
    }
}
