//! # E013 `skills-not-array`
//!
//! **Skills must be an array.** An agent's `skills:` value is not an array
//! literal `[...]`.
//!
//! ## Example
//! ```prose
//! import "web-search" from "github:anthropic/skills"
//!
//! agent researcher:
//!   skills: "web-search"
//! ```
//!
//! ## Fix
//! ```prose
//! import "web-search" from "github:anthropic/skills"
//!
//! agent researcher:
//!   skills: ["web-search"]
//! ```
//!
//! The diagnostic is on the value, or on the `skills` key when no value
//! follows it.
//!
//! ## Specification
//! compiler.md, Agent Definitions › Properties (`skills`: "String array")
//! and the grammar (`"skills:" "[" string* "]"`); Validation Rules: E013
//! "Skills must be an array" (no table row).
//!
//! ## Profiles
//! `strict` reports every value that is not `[...]` as an error.
//! `default` reports a **warning** for a Markdown/YAML-style list of names
//! on the lines below the key:
//!
//! ```text
//! agent impl-captain:
//!   skills:
//!     - hypercraft            # core framework
//!     - hyper-agent-builder
//! ```
//!
//! A third-party workflow library writes its agents' skills this way 18
//! times; the list is unambiguous and the runtime, which reads the program
//! as text, takes it as the list it is. The message spells out the array to
//! write instead. Any other non-array value stays an error.

use crate::openprose::rules::prelude::*;

use super::{agent_properties, value_or_key_range};

pub(crate) const RULE: Rule = Rule {
    code: "E013",
    name: "skills-not-array",
    summary: "Skills must be an array",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("skills_not_array.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in agent_properties(ctx, "skills") {
        match p.any_value() {
            Some(ast::Expr::Array(_)) => {}
            Some(v) => match dash_list(&p) {
                Some(names) => acc.report_calibrated(
                    v.syntax().text_range(),
                    format!(
                        "Skills must be an array: the `- name` lines are a list in Markdown, not in OpenProse; write `skills: [{}]`",
                        names.join(", ")
                    ),
                    Vec::new(),
                    Level::On(Severity::Warning),
                ),
                None => acc.report(
                    v.syntax().text_range(),
                    "Skills must be an array: write `skills: [\"name\", ...]`",
                ),
            },
            None => acc.report(
                value_or_key_range(&p),
                "Skills must be an array: `skills:` has no value",
            ),
        }
    }
}

/// The names of a value written as indented `- name` lines, each quoted as
/// an array element, when every line of the value is one.
fn dash_list(p: &ast::Property) -> Option<Vec<String>> {
    let block = p
        .syntax()
        .children()
        .find(|n| n.kind() == SyntaxKind::BLOCK)?;
    let mut names = Vec::new();
    for stmt in block.children() {
        let prefix = stmt.children().find_map(ast::PrefixExpr::cast)?;
        if prefix.op_token()?.kind() != SyntaxKind::MINUS {
            return None;
        }
        names.push(match prefix.operand()? {
            ast::Expr::String(s) => s.syntax().text().to_string(),
            other => format!("\"{}\"", other.syntax().text()),
        });
    }
    (!names.is_empty()).then_some(names)
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    #[test]
    fn not_an_array() {
        check_code(
            "E013",
            "agent a:\n  skills: \"web-search\"\nagent b:\n  skills: web\nagent c:\n  skills:\n",
            expect![[r#"
                E013 2:11-2:23 error: Skills must be an array: write `skills: ["name", ...]`
                E013 4:11-4:14 error: Skills must be an array: write `skills: ["name", ...]`
                E013 6:3-6:9 error: Skills must be an array: `skills:` has no value
            "#]],
        );
    }

    #[test]
    fn a_dash_list_is_a_warning_by_default() {
        let text =
            "agent a:\n  model: opus\n  skills:\n    - hypercraft   # core\n    - \"web-search\"\n";
        check_code(
            "E013",
            text,
            expect![[r#"
                E013 4:5-4:17 warning: Skills must be an array: the `- name` lines are a list in Markdown, not in OpenProse; write `skills: ["hypercraft", "web-search"]`
            "#]],
        );
        check_code_strict(
            "E013",
            text,
            expect![[r#"
                E013 4:5-4:17 error: Skills must be an array: the `- name` lines are a list in Markdown, not in OpenProse; write `skills: ["hypercraft", "web-search"]`
            "#]],
        );
    }

    #[test]
    fn arrays_are_fine() {
        check_no(
            "E013",
            "agent a:\n  skills: []\nagent b:\n  skills: [\"x\", y]\n",
        );
    }
}
