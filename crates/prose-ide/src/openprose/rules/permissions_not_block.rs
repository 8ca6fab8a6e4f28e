//! # E015 `permissions-not-block`
//!
//! **Permissions must be a block.** `permissions:` is followed by an inline
//! value, or by nothing, instead of an indented block of permission rules.
//!
//! ## Example
//! ```prose
//! agent deployer:
//!   model: sonnet
//!   permissions: allow
//! ```
//!
//! ## Fix
//! ```prose
//! agent deployer:
//!   model: sonnet
//!   permissions:
//!     bash: allow
//!     network: allow
//! ```
//!
//! The diagnostic is on the value, or on the `permissions` key when there
//! is none. It applies wherever `permissions:` appears: agents, and the
//! session and `resume:` overrides that `default` accepts (see W005).
//!
//! ## Specification
//! compiler.md, Agent Definitions › Properties (`permissions`: "block") and
//! the grammar (`"permissions:" NEWLINE INDENT permission* DEDENT`);
//! Validation Rules: E015 "Permissions must be a block" (no table row).
//! Same severity in every profile.

use crate::openprose::rules::prelude::*;

use super::{owned_properties, value_or_key_range};

pub(crate) const RULE: Rule = Rule {
    code: "E015",
    name: "permissions-not-block",
    summary: "Permissions must be a block",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("permissions_not_block.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (_, p) in owned_properties(ctx) {
        if p.key() != "permissions" || p.nested().is_some() {
            continue;
        }
        let detail = if p.any_value().is_some() {
            "put each rule on its own indented line (`bash: deny`)"
        } else {
            "no permission rules follow"
        };
        acc.report(
            value_or_key_range(&p),
            format!("Permissions must be a block: {detail}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn inline_or_missing_block() {
        check_code(
            "E015",
            "agent a:\n  permissions: allow\nagent b:\n  permissions:\n  model: opus\nsession \"x\"\n  permissions: [\"*\"]\n",
            expect![[r#"
                E015 2:16-2:21 error: Permissions must be a block: put each rule on its own indented line (`bash: deny`)
                E015 4:3-4:14 error: Permissions must be a block: no permission rules follow
                E015 7:16-7:21 error: Permissions must be a block: put each rule on its own indented line (`bash: deny`)
            "#]],
        );
    }

    #[test]
    fn block_is_fine() {
        check_no("E015", "agent a:\n  permissions:\n    bash: deny\n");
    }
}
