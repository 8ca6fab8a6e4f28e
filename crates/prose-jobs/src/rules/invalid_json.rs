//! # J001 `invalid-json`
//!
//! **Invalid JSON.** The file is not valid JSON with comments: a missing
//! comma, colon or value, an unclosed bracket or string, an unquoted
//! property name, a single-quoted string, an invalid escape or number, or
//! text after the end of the entry. Comments (`//`, `/* */`) and trailing
//! commas are allowed.
//!
//! Every syntax error in the file is reported, not just the first: the
//! reader recovers and goes on, and the checks still run on everything it
//! could read.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []}
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {}
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   // The comma after `models` was missing.
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {},
//! }
//! ```
//!
//! Syntax errors have no code path: the message is the reason alone.

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    json::JsonDocument,
};

pub(crate) const RULE: Rule = Rule {
    code: "J001",
    name: "invalid-json",
    summary: "Invalid JSON",
    severity: Severity::Error,
    source: include_str!("invalid_json.rs"),
};

pub(crate) fn diagnostics(doc: &JsonDocument) -> impl Iterator<Item = JobDiagnostic> + '_ {
    doc.errors
        .iter()
        .map(|e| JobDiagnostic::new(&RULE, "", &e.message, e.range))
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::check;

    #[test]
    fn every_syntax_error_is_reported() {
        check(
            "J001",
            "{\"models\": {\"driving\" \"d\"}, \"tasks\": {\"t\": {\"prompt\": [\"a\" \"b\"], requireUserInput: false,}}\n",
            expect![[r#"
                J001 1:1-1:2 error: Unclosed `{`: expected `}` before the end of the file
                J001 1:22-1:22 error: Expected `:` after the property name
                J001 1:59-1:59 error: Expected `,`
                J001 1:66-1:82 error: Property names must be in double quotes: write `"requireUserInput"`
            "#]],
        );
    }
}
