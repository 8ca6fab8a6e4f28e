//! # W008 `unknown-permission-type`
//!
//! **Unknown permission type.** A key inside a `permissions:` block is not
//! one of `read`, `write`, `execute`, `bash` or `network`.
//!
//! ## Example
//! ```prose
//! agent deployer:
//!   permissions:
//!     shell: allow
//! ```
//!
//! ## Fix
//! ```prose
//! agent deployer:
//!   permissions:
//!     bash: allow
//! ```
//!
//! The diagnostic is on the key; the message suggests the closest known
//! type. Values of unknown types are not checked (W009 covers known types
//! only), and the key is never also reported as an unknown property (W005).
//!
//! ## Specification
//! compiler.md, Agent Definitions › Permission Types (`read`, `write`,
//! `execute`, `bash`, `network`); Validation Rules: W008 "Unknown permission
//! type" (no table row).
//!
//! ## Profiles
//! `strict`: warning for every unknown key. `default`: **info** for
//! `filesystem` and `database`, extension types an official program uses
//! (`examples/45-run-endpoint-ux-test-with-remediation.prose:329`,
//! `filesystem: ["read"]` 4 times, and `:362`, `database: ["read"]`);
//! warning for any other key. The runtime passes permission rules on to
//! the subagent, which can understand these words, so they are worth
//! knowing about but not a likely mistake.

use crate::openprose::rules::prelude::*;
use crate::vocabulary::PERMISSION_TYPES as KNOWN;

use super::{key_range, permission_entries};

pub(crate) const RULE: Rule = Rule {
    code: "W008",
    name: "unknown-permission-type",
    summary: "Unknown permission type",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("unknown_permission_type.rs"),
    check: Check::OpenProse(check),
};

/// Extension types seen in the official programs (info under `default`).
const EXTENSIONS: [&str; 2] = ["filesystem", "database"];

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (_, entry) in permission_entries(ctx) {
        let key = entry.key();
        if KNOWN.contains(&key.as_str()) {
            continue;
        }
        let hint = did_you_mean(&key, KNOWN)
            .map(|k| format!(" (did you mean `{k}`?)"))
            .unwrap_or_else(|| "; known types are read, write, execute, bash and network".into());
        let message = format!("Unknown permission type: `{key}`{hint}");
        if EXTENSIONS.contains(&key.as_str()) {
            acc.report_calibrated(
                key_range(&entry),
                message,
                Vec::new(),
                Level::On(Severity::Info),
            );
        } else {
            acc.report(key_range(&entry), message);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "agent a:\n  permissions:\n    shell: allow\n    reed: [\"*\"]\nsession \"x\"\n  permissions:\n    filesystem: [\"read\"]\n";

    #[test]
    fn default_profile() {
        check_code(
            "W008",
            FIXTURE,
            expect![[r#"
            W008 3:5-3:10 warning: Unknown permission type: `shell`; known types are read, write, execute, bash and network
            W008 4:5-4:9 warning: Unknown permission type: `reed` (did you mean `read`?)
            W008 7:5-7:15 info: Unknown permission type: `filesystem`; known types are read, write, execute, bash and network
        "#]],
        );
    }

    #[test]
    fn strict_profile() {
        check_code_strict(
            "W008",
            FIXTURE,
            expect![[r#"
            W008 3:5-3:10 warning: Unknown permission type: `shell`; known types are read, write, execute, bash and network
            W008 4:5-4:9 warning: Unknown permission type: `reed` (did you mean `read`?)
            W008 7:5-7:15 warning: Unknown permission type: `filesystem`; known types are read, write, execute, bash and network
        "#]],
        );
    }

    #[test]
    fn known_types() {
        check_no(
            "W008",
            "agent a:\n  permissions:\n    read: [\"*\"]\n    write: [\"o/\"]\n    execute: [\"x\"]\n    bash: deny\n    network: allow\n",
        );
    }
}
