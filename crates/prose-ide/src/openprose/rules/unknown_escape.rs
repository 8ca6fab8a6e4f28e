//! # E002 `unknown-escape`
//!
//! **Unknown escape sequence in string.** A backslash inside a string is
//! followed by a character that is not one of the escapes OpenProse knows.
//!
//! Valid escapes: `\\` (backslash), `\"` (quote), `\n` (newline), `\t`
//! (tab), and `\{` / `\}` (literal braces, so `{name}` is not
//! interpolated).
//!
//! ## Why is this bad?
//! The runtime cannot know whether `\.` means a backslash and a dot or just
//! a dot; the specification makes it an error rather than guess.
//!
//! ## Example
//! ```prose
//! session "Match files like *\.md"
//! ```
//!
//! ## Fix
//! ```prose
//! session "Match files like *\\.md"
//! ```
//!
//! ## Specification
//! compiler.md, String Literals: "Unknown escape sequence" (Error) and rule
//! 2 "Unknown escape sequences are errors"; Validation Rules: E002. The
//! official `lib/profiler.prose` contains `\.`; it is reported in every
//! profile because the program's author would agree it is a mistake. `\}`
//! is accepted alongside the documented `\{` (project decision: an escaped
//! closing brace is the natural partner of an escaped opening one).

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E002",
    name: "unknown-escape",
    summary: "Unknown escape sequence in string",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("unknown_escape.rs"),
    check: Check::OpenProse(|ctx, acc| syntax_errors(ctx, acc, SyntaxErrorCode::E002)),
};

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::check;
    use expect_test::expect;

    #[test]
    fn reports_the_escape_only() {
        check(
            r#"session "a\.b \{ok\} \n""#,
            expect![[r#"
                E002 1:11-1:13 error: Unknown escape sequence `\.`; valid escapes are \\, \", \n, \t, \{ and \}
            "#]],
        );
    }
}
