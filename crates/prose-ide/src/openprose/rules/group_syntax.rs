//! Rule registry: Syntax errors from the parser (E001, E002, E004, E005, P104) and file-level checks.

use crate::diagnostics::Rule;

#[path = "invalid_syntax.rs"]
mod invalid_syntax;
#[path = "triple_quote_in_fence.rs"]
mod triple_quote_in_fence;
#[path = "unexpected_token.rs"]
mod unexpected_token;
#[path = "unknown_escape.rs"]
mod unknown_escape;
#[path = "unterminated_string.rs"]
mod unterminated_string;

pub(crate) static RULES: &[&Rule] = &[
    &unterminated_string::RULE,
    &unknown_escape::RULE,
    &unexpected_token::RULE,
    &invalid_syntax::RULE,
    &triple_quote_in_fence::RULE,
];
