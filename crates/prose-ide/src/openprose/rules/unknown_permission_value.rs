//! # W009 `unknown-permission-value`
//!
//! **Unknown permission value.** A known permission type has a value it
//! does not take. Every type takes `allow`, `deny` or `prompt`; `read`,
//! `write` and `execute` also take an array of patterns.
//!
//! ## Example
//! ```prose
//! agent deployer:
//!   permissions:
//!     bash: yes
//! ```
//!
//! ## Fix
//! ```prose
//! agent deployer:
//!   permissions:
//!     bash: allow
//! ```
//!
//! The diagnostic is on the value (on the key when there is none). Reported:
//! another identifier, a quoted word (`bash: "deny"`), an array given to
//! `bash`, or an array given to `network` under `strict`. Unknown types
//! (W008) are not checked.
//!
//! ## Specification
//! compiler.md, Agent Definitions › Permission Types (`bash`, `network`:
//! "`allow`, `deny`, or `prompt`") and Permission Values ("Array: List of
//! allowed patterns (for read/write/execute)"); Validation Rules: W009
//! "Unknown permission value" (no table row).
//!
//! ## Profiles
//! `default` also accepts an array of URL patterns for `network`. The
//! official programs write `network: ["{api_url}/*"]` and the like 11 times
//! in 4 files (`examples/44-run-endpoint-ux-test.prose:100`): a list of
//! allowed hosts is the natural network counterpart of `read: [...]`, and
//! nothing about it is ambiguous. `strict` reports it, as compiler.md lists
//! arrays for read/write/execute only.

use crate::openprose::rules::prelude::*;
use crate::vocabulary::{
    PATTERN_PERMISSION_TYPES, PERMISSION_TYPES as KNOWN, PERMISSION_VALUES as VALUES,
};

use super::{key_range, permission_entries};

pub(crate) const RULE: Rule = Rule {
    code: "W009",
    name: "unknown-permission-value",
    summary: "Unknown permission value",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("unknown_permission_value.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (_, entry) in permission_entries(ctx) {
        let key = entry.key();
        if !KNOWN.contains(&key.as_str()) {
            continue;
        }
        let patterns = PATTERN_PERMISSION_TYPES.contains(&key.as_str());
        let expected = if patterns {
            "allow, deny, prompt or an array of patterns"
        } else {
            "allow, deny or prompt"
        };
        let Some(value) = entry.any_value() else {
            acc.report(
                key_range(&entry),
                format!("Unknown permission value: `{key}:` has no value; use {expected}"),
            );
            continue;
        };
        let range = value.syntax().text_range();
        match &value {
            ast::Expr::NameRef(n) if VALUES.contains(&n.text().as_str()) => {}
            ast::Expr::Array(_) if patterns => {}
            ast::Expr::Array(_) if key == "network" => acc.report_calibrated(
                range,
                "Unknown permission value: `network` takes allow, deny or prompt; pattern arrays are for read, write and execute",
                Vec::new(),
                Level::Off,
            ),
            ast::Expr::String(s) if VALUES.contains(&s.value().as_str()) => acc.report(
                range,
                format!(
                    "Unknown permission value: write `{}` without quotes",
                    s.value()
                ),
            ),
            other => {
                let shown: String = other.syntax().text().to_string().chars().take(40).collect();
                let hint = match other {
                    ast::Expr::NameRef(n) => did_you_mean_hint(&n.text(), VALUES),
                    _ => String::new(),
                };
                acc.report(
                    range,
                    format!("Unknown permission value: `{shown}`; `{key}` takes {expected}{hint}"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "agent a:\n  permissions:\n    bash: yes\n    network: [\"{api}/*\"]\n    read: alow\n    write: \"deny\"\n    execute:\nsession \"x\"\n  permissions:\n    bash: [\"ls\"]\n";

    #[test]
    fn default_accepts_network_arrays() {
        check_code(
            "W009",
            FIXTURE,
            expect![[r#"
            W009 3:11-3:14 warning: Unknown permission value: `yes`; `bash` takes allow, deny or prompt
            W009 5:11-5:15 warning: Unknown permission value: `alow`; `read` takes allow, deny, prompt or an array of patterns (did you mean `allow`?)
            W009 6:12-6:18 warning: Unknown permission value: write `deny` without quotes
            W009 7:5-7:12 warning: Unknown permission value: `execute:` has no value; use allow, deny, prompt or an array of patterns
            W009 10:11-10:17 warning: Unknown permission value: `["ls"]`; `bash` takes allow, deny or prompt
        "#]],
        );
    }

    #[test]
    fn strict_profile() {
        check_code_strict(
            "W009",
            FIXTURE,
            expect![[r#"
            W009 3:11-3:14 warning: Unknown permission value: `yes`; `bash` takes allow, deny or prompt
            W009 4:14-4:25 warning: Unknown permission value: `network` takes allow, deny or prompt; pattern arrays are for read, write and execute
            W009 5:11-5:15 warning: Unknown permission value: `alow`; `read` takes allow, deny, prompt or an array of patterns (did you mean `allow`?)
            W009 6:12-6:18 warning: Unknown permission value: write `deny` without quotes
            W009 7:5-7:12 warning: Unknown permission value: `execute:` has no value; use allow, deny, prompt or an array of patterns
            W009 10:11-10:17 warning: Unknown permission value: `["ls"]`; `bash` takes allow, deny or prompt
        "#]],
        );
    }

    #[test]
    fn valid_values() {
        check_no(
            "W009",
            "agent a:\n  permissions:\n    read: [\"*\"]\n    write: deny\n    execute: prompt\n    bash: allow\n    network: deny\n    filesystem: whatever\n",
        );
    }
}
