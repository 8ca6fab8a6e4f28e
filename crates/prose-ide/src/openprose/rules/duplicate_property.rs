//! # E009 `duplicate-property`
//!
//! **Duplicate property.** The same key appears twice in one property
//! block: an agent's, a session's or a `resume:`'s properties, a nested
//! `permissions:` block (the same permission type twice), or a modifier
//! list such as `(max: 3, max: 5)`.
//!
//! ## Why is this bad?
//! Only one of the two values can take effect, and nothing says which.
//!
//! ## Example
//! ```prose
//! agent writer:
//!   model: sonnet
//!   prompt: "You write clearly"
//!   model: opus
//! ```
//!
//! ## Fix
//! Keep one:
//! ```prose
//! agent writer:
//!   model: opus
//!   prompt: "You write clearly"
//! ```
//!
//! The diagnostic is on the later key and links to the first one. Also
//! reported:
//! - two bare join strategies in one `parallel ("first", "any")`;
//! - a session key given both in its inline modifier list and in its
//!   property block (`session "x" (retry: 3)` followed by `retry: 5`).
//!
//! Other nested blocks are not checked: a `context:` block may list
//! several `file: X` entries (`examples/49-prose-run-retrospective.prose:75`).
//!
//! An inline prompt together with a `prompt:` property (`session "x"`
//! followed by `prompt: "..."`) is **not** a duplicate: the grammar allows
//! `prompt:` on every session form, and the official programs do this 80
//! times in 18 files.
//!
//! ## Specification
//! compiler.md, Agent Definitions and Session Statement: "Duplicate
//! property" (Error, "Property already specified"); Validation Rules: E009.
//! Same severity in every profile.

use rustc_hash::FxHashMap as HashMap;

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E009",
    name: "duplicate-property",
    summary: "Duplicate property",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("duplicate_property.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for block in nodes::<ast::PropertyBlock>(ctx) {
        if !is_checked(&block) {
            continue;
        }
        let mut seen: HashMap<String, TextRange> = HashMap::default();
        // A session's inline modifiers come first.
        if let Some(s) = block.syntax().parent().and_then(ast::SessionExpr::cast) {
            for m in s.modifiers().into_iter().flat_map(|l| l.modifiers()) {
                if let Some(k) = m.key_token() {
                    seen.entry(k.text().to_string()).or_insert(k.text_range());
                }
            }
        }
        for p in block.properties() {
            let Some(k) = p.key_token() else { continue };
            report_or_remember(ctx, acc, &mut seen, k.text(), k.text_range());
        }
    }
    for list in nodes::<ast::ModifierList>(ctx) {
        let parallel = list.syntax().parent().is_some_and(|p| {
            p.kind() == SyntaxKind::PARALLEL_EXPR
                || ast::ForExpr::cast(p).is_some_and(|f| f.is_parallel())
        });
        let mut seen: HashMap<String, TextRange> = HashMap::default();
        for m in list.modifiers() {
            if let Some(k) = m.key_token() {
                report_or_remember(ctx, acc, &mut seen, k.text(), k.text_range());
            } else if parallel && matches!(m.value(), Some(ast::Expr::String(_))) {
                let range = m.syntax().text_range();
                if let Some(first) = seen.get("\"strategy\"") {
                    acc.report_related(
                        range,
                        "Property already specified: join strategy",
                        vec![related(ctx, *first, "first specified here")],
                    );
                } else {
                    seen.insert("\"strategy\"".into(), range);
                }
            }
        }
    }
}

/// Property blocks of agents, sessions and resumes, and `permissions:`
/// blocks. Other nested blocks (such as a `context:` block listing
/// `file: X` entries) are lists rather than properties.
fn is_checked(block: &ast::PropertyBlock) -> bool {
    let Some(parent) = block.syntax().parent() else {
        return false;
    };
    match parent.kind() {
        SyntaxKind::AGENT_DEF | SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR => true,
        SyntaxKind::PROPERTY => {
            ast::Property::cast(parent).is_some_and(|p| p.key() == "permissions")
        }
        _ => false,
    }
}

fn report_or_remember(
    ctx: &Ctx<'_>,
    acc: &mut Acc,
    seen: &mut HashMap<String, TextRange>,
    key: &str,
    range: TextRange,
) {
    if let Some(first) = seen.get(key) {
        acc.report_related(
            range,
            format!("Property already specified: `{key}`"),
            vec![related(ctx, *first, "first specified here")],
        );
    } else {
        seen.insert(key.to_string(), range);
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn repeated_keys() {
        check_code(
            "E009",
            "agent a:\n  model: sonnet\n  permissions:\n    bash: deny\n    bash: allow\n  model: opus\nsession \"x\" (retry: 3)\n  retry: 5\nloop (max: 3, max: 4):\n  session \"y\"\nparallel (\"first\", on-fail: \"continue\", \"any\"):\n  session \"z\"\n",
            expect![[r#"
                E009 5:5-5:9 error: Property already specified: `bash`
                  related 4:5-4:9: first specified here
                E009 6:3-6:8 error: Property already specified: `model`
                  related 2:3-2:8: first specified here
                E009 8:3-8:8 error: Property already specified: `retry`
                  related 7:14-7:19: first specified here
                E009 9:15-9:18 error: Property already specified: `max`
                  related 9:7-9:10: first specified here
                E009 11:41-11:46 error: Property already specified: join strategy
                  related 11:11-11:18: first specified here
            "#]],
        );
    }

    #[test]
    fn inline_prompt_plus_prompt_property_is_fine() {
        check_no(
            "E009",
            "session \"s\"\n  context:\n    file: A\n    file: B\nagent a:\n  model: sonnet\n  permissions:\n    bash: deny\n  prompt: \"p\"\nsession \"x\" (retry: 3)\n  prompt: \"more\"\nsession: a\n  model: opus\n  permissions:\n    bash: deny\n",
        );
    }
}
