//! # E008 `invalid-model`
//!
//! **Invalid model value.** A `model:` property (on an agent, a session or
//! a `resume:`) names something other than `sonnet`, `opus` or `haiku`.
//!
//! ## Example
//! ```prose
//! agent writer:
//!   model: sonet
//! ```
//!
//! ## Fix
//! ```prose
//! agent writer:
//!   model: sonnet
//! ```
//!
//! The diagnostic is on the value; when the value is close to a valid model
//! (a typo, another capitalisation, or a longer name that contains one such
//! as `claude-opus-4`) the message names it. A `model:` with no value is
//! reported on the key.
//!
//! ## Specification
//! compiler.md, Agent Definitions: "Invalid model value" (Error, "Must be
//! sonnet, opus, or haiku"); Validation Rules: E008. The same check applies
//! to the `model:` override of a session or `resume:` (the grammar's
//! `sessionProperty` has the same alternatives).
//!
//! ## Profiles
//! The grammar wants a bare identifier, so `strict` also reports a quoted
//! valid name (`model: "opus"`). `default` accepts the quoted form: the
//! meaning is unambiguous, and `default` accepts quoted words elsewhere
//! (`backoff: "exponential"`, which prose.md itself writes). Every other
//! value is an error in both profiles. The official programs use 168
//! `model:` values, all bare valid names.

use crate::openprose::rules::prelude::*;
use crate::vocabulary::MODELS;

use super::{key_range, owned_properties};

pub(crate) const RULE: Rule = Rule {
    code: "E008",
    name: "invalid-model",
    summary: "Invalid model value",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("invalid_model.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = "Must be sonnet, opus, or haiku";

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (_, p) in owned_properties(ctx) {
        if p.key() == "model" {
            check_value(acc, p.any_value(), key_range(&p));
        }
    }
    for s in nodes::<ast::SessionExpr>(ctx) {
        for m in s.modifiers().into_iter().flat_map(|l| l.modifiers()) {
            if m.key().as_deref() == Some("model") {
                check_value(acc, m.value(), m.syntax().text_range());
            }
        }
    }
}

/// Checks a `model:` value; `key` is where to report a missing one.
fn check_value(acc: &mut Acc, value: Option<ast::Expr>, key: TextRange) {
    let Some(value) = value else {
        acc.report(key, format!("{MESSAGE}: `model:` has no value"));
        return;
    };
    let range = value.syntax().text_range();
    match &value {
        ast::Expr::NameRef(n) if MODELS.contains(&n.text().as_str()) => {}
        ast::Expr::String(s) if MODELS.contains(&s.value().as_str()) => {
            acc.report_calibrated(
                range,
                format!("{MESSAGE}: write `{}` without quotes", s.value()),
                Vec::new(),
                Level::Off,
            );
        }
        _ => {
            let written = match &value {
                ast::Expr::String(s) => s.value(),
                other => other.syntax().text().to_string(),
            };
            let written = written.trim();
            let shown: String = written.chars().take(40).collect();
            let hint = nearest(written)
                .map(|m| format!(" (did you mean `{m}`?)"))
                .unwrap_or_default();
            acc.report(range, format!("{MESSAGE}: `{shown}`{hint}"));
        }
    }
}

/// The valid model closest to `written`: a case or spelling variant, or
/// one whose name `written` contains.
fn nearest(written: &str) -> Option<&'static str> {
    let lower = written.to_lowercase();
    if let Some(m) = MODELS.iter().find(|m| lower.contains(**m)) {
        return Some(m);
    }
    did_you_mean(&lower, MODELS)
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "agent a:\n  model: sonet\nagent b:\n  model: \"opus\"\nagent c:\n  model: claude-opus-4\nagent d:\n  model: gpt\nagent e:\n  model:\nsession: a\n  model: Haiku\nsession \"x\" (model: 5)\n";

    #[test]
    fn default_profile() {
        check_code(
            "E008",
            FIXTURE,
            expect![[r#"
            E008 2:10-2:15 error: Must be sonnet, opus, or haiku: `sonet` (did you mean `sonnet`?)
            E008 6:10-6:23 error: Must be sonnet, opus, or haiku: `claude-opus-4` (did you mean `opus`?)
            E008 8:10-8:13 error: Must be sonnet, opus, or haiku: `gpt`
            E008 10:3-10:8 error: Must be sonnet, opus, or haiku: `model:` has no value
            E008 12:10-12:15 error: Must be sonnet, opus, or haiku: `Haiku` (did you mean `haiku`?)
            E008 13:21-13:22 error: Must be sonnet, opus, or haiku: `5`
        "#]],
        );
    }

    #[test]
    fn strict_also_reports_quoted_names() {
        check_code_strict(
            "E008",
            FIXTURE,
            expect![[r#"
            E008 2:10-2:15 error: Must be sonnet, opus, or haiku: `sonet` (did you mean `sonnet`?)
            E008 4:10-4:16 error: Must be sonnet, opus, or haiku: write `opus` without quotes
            E008 6:10-6:23 error: Must be sonnet, opus, or haiku: `claude-opus-4` (did you mean `opus`?)
            E008 8:10-8:13 error: Must be sonnet, opus, or haiku: `gpt`
            E008 10:3-10:8 error: Must be sonnet, opus, or haiku: `model:` has no value
            E008 12:10-12:15 error: Must be sonnet, opus, or haiku: `Haiku` (did you mean `haiku`?)
            E008 13:21-13:22 error: Must be sonnet, opus, or haiku: `5`
        "#]],
        );
    }

    #[test]
    fn valid_models() {
        check_no(
            "E008",
            "agent a:\n  model: sonnet\nsession: a\n  model: opus\nresume: a\n  model: haiku\n",
        );
    }
}
