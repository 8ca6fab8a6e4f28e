//! # W005 `unknown-property`
//!
//! **Unknown property name.** A key is not one of the properties valid
//! where it appears.
//!
//! | Where | Valid keys |
//! |---|---|
//! | `agent` block | `model`, `prompt`, `persist`, `skills`, `permissions`, `context` |
//! | `session` block and inline `session "…" (…)` list | `model`, `prompt`, `context`, `retry`, `backoff` (and `permissions` under `default`) |
//! | `resume:` block | the same as `session` |
//! | `parallel (…)`, `parallel for … (…)` | `on-fail`, `count`, and a bare join strategy string |
//! | `loop (…)` | `max` |
//!
//! ## Why is this bad?
//! An unknown key is ignored by the runtime. It is usually a typo
//! (`promt:`) or a setting the language does not have.
//!
//! ## Example
//! ```prose
//! agent writer:
//!   model: sonnet
//!   promt: "You write clearly"
//! ```
//!
//! ## Fix
//! ```prose
//! agent writer:
//!   model: sonnet
//!   prompt: "You write clearly"
//! ```
//!
//! The diagnostic is on the key; the message suggests the closest valid
//! key. Not reported here:
//! - `retry:` / `backoff:` on an agent: P811;
//! - a key inside a `permissions:` block: W008 (unknown permission type).
//!
//! ## Specification
//! Validation Rules: W005 "Unknown property name" (no table row). The valid
//! keys are compiler.md's agent property table plus `context` (agent
//! grammar), the grammar's `sessionProperty` (shared by `resume:`), and the
//! `parallelMods` / `loopMods` grammar (spec-rows.md §3.14).
//!
//! ## Profiles
//! `default` accepts `permissions:` on a session or a `resume:`.
//! compiler.md says "Session properties can override agent defaults"
//! (Agent Definitions › Execution Semantics), `permissions` is a documented
//! agent property, and 7 official programs override it per session
//! (`examples/44-run-endpoint-ux-test.prose:99`; 23 sessions and 3
//! resumes). `strict` reports it, as the session grammar does not list it.
//! Other unknown keys are warnings in both profiles: the official programs
//! have two, `timeout` and `early_exit` in
//! `examples/46-run-endpoint-ux-test-fast.prose:88-89`, which neither
//! specification documents.

use crate::openprose::rules::prelude::*;
use crate::vocabulary::{
    AGENT_PROPERTIES as AGENT, LOOP_MODIFIERS as LOOP, PARALLEL_MODIFIERS as PARALLEL,
    SESSION_PROPERTIES as SESSION,
};

use super::{Owner, key_range, owned_properties};

pub(crate) const RULE: Rule = Rule {
    code: "W005",
    name: "unknown-property",
    summary: "Unknown property name",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("unknown_property.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (owner, p) in owned_properties(ctx) {
        let key = p.key();
        let valid = match owner {
            Owner::Agent => {
                // `retry` and `backoff` on an agent are P811.
                if matches!(key.as_str(), "retry" | "backoff") {
                    continue;
                }
                AGENT
            }
            Owner::Session | Owner::Resume => SESSION,
        };
        report(acc, &key, key_range(&p), valid, owner.describe());
    }
    for list in nodes::<ast::ModifierList>(ctx) {
        let Some(parent) = list.syntax().parent() else {
            continue;
        };
        let (valid, what) = match parent.kind() {
            SyntaxKind::SESSION_EXPR => (SESSION, "session"),
            SyntaxKind::PARALLEL_EXPR => (PARALLEL, "parallel"),
            SyntaxKind::FOR_EXPR
                if ast::ForExpr::cast(parent.clone()).is_some_and(|f| f.is_parallel()) =>
            {
                (PARALLEL, "parallel")
            }
            SyntaxKind::LOOP_EXPR => (LOOP, "loop"),
            _ => continue,
        };
        for m in list.modifiers() {
            if let Some(k) = m.key_token() {
                report(acc, k.text(), k.text_range(), valid, what);
            }
        }
    }
}

fn report(acc: &mut Acc, key: &str, range: TextRange, valid: &[&str], what: &str) {
    if valid.contains(&key) {
        return;
    }
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    let mut message = format!("Unknown property name: `{key}` is not {article} {what} property");
    if let Some(s) = did_you_mean(key, valid) {
        message.push_str(&format!(" (did you mean `{s}`?)"));
    }
    if key == "permissions" && what != "agent" {
        acc.report_calibrated(
            range,
            format!("{message}; compiler.md documents `permissions` on agents only"),
            Vec::new(),
            Level::Off,
        );
    } else {
        acc.report(range, message);
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "agent a:\n  modle: opus\n  retry: 3\n  persist: true\nsession: a\n  timeout: 120s\n  permissions:\n    bash: deny\nresume: a\n  persist: true\nsession \"x\" (retries: 3)\nparallel (\"first\", on_fail: \"continue\"):\n  session \"y\"\nloop (maximum: 3):\n  session \"z\"\n";

    #[test]
    fn default_accepts_session_permissions() {
        check_code(
            "W005",
            FIXTURE,
            expect![[r#"
            W005 2:3-2:8 warning: Unknown property name: `modle` is not an agent property (did you mean `model`?)
            W005 6:3-6:10 warning: Unknown property name: `timeout` is not a session property
            W005 10:3-10:10 warning: Unknown property name: `persist` is not a resume property
            W005 11:14-11:21 warning: Unknown property name: `retries` is not a session property
            W005 12:20-12:27 warning: Unknown property name: `on_fail` is not a parallel property (did you mean `on-fail`?)
            W005 14:7-14:14 warning: Unknown property name: `maximum` is not a loop property
        "#]],
        );
    }

    #[test]
    fn strict_reports_session_permissions() {
        check_code_strict(
            "W005",
            FIXTURE,
            expect![[r#"
            W005 2:3-2:8 warning: Unknown property name: `modle` is not an agent property (did you mean `model`?)
            W005 6:3-6:10 warning: Unknown property name: `timeout` is not a session property
            W005 7:3-7:14 warning: Unknown property name: `permissions` is not a session property; compiler.md documents `permissions` on agents only
            W005 10:3-10:10 warning: Unknown property name: `persist` is not a resume property
            W005 11:14-11:21 warning: Unknown property name: `retries` is not a session property
            W005 12:20-12:27 warning: Unknown property name: `on_fail` is not a parallel property (did you mean `on-fail`?)
            W005 14:7-14:14 warning: Unknown property name: `maximum` is not a loop property
        "#]],
        );
    }

    #[test]
    fn valid_keys() {
        check_no(
            "W005",
            "agent a:\n  model: opus\n  prompt: \"p\"\n  persist: true\n  skills: []\n  context: x\n  permissions:\n    shell: allow\nsession: a\n  model: opus\n  prompt: \"p\"\n  context: x\n  retry: 2\n  backoff: linear\nresume: a\n  prompt: \"q\"\nsession \"s\" (retry: 3)\nparallel (\"any\", on-fail: \"ignore\", count: 2):\n  session \"y\"\nloop until **done** (max: 3):\n  session \"z\"\n",
        );
    }
}
