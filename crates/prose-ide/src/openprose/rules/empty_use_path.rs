//! # E011 `empty-use-path`
//!
//! **Use path cannot be empty.** A `use` statement's path is `""` or only
//! whitespace, so there is no program to import.
//!
//! ## Example
//! ```prose
//! use ""
//! ```
//!
//! ## Fix
//! Name the program as `@handle/slug`:
//! ```prose
//! use "@alice/research"
//! ```
//!
//! The diagnostic is on the string literal.
//!
//! ## Specification
//! compiler.md, Use Statements › Validation Rules: "Empty path" (Error,
//! "Use path cannot be empty"); Validation Rules: E011. Same severity in
//! every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E011",
    name: "empty-use-path",
    summary: "Use path cannot be empty",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("empty_use_path.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for u in nodes::<ast::UseStmt>(ctx) {
        if let Some(path) = u.path()
            && path.value().trim().is_empty()
        {
            acc.report(path.syntax().text_range(), "Use path cannot be empty");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn empty_and_blank_paths() {
        check_code(
            "E011",
            "use \"\"\nuse \"  \" as x\n",
            expect![[r#"
                E011 1:5-1:7 error: Use path cannot be empty
                E011 2:5-2:9 error: Use path cannot be empty
            "#]],
        );
    }

    #[test]
    fn a_path_is_fine() {
        check_no("E011", "use \"@alice/research\"\n");
    }
}
