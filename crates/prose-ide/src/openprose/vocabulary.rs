//! The language's fixed vocabularies: every word list the specification
//! enumerates, written out once.
//!
//! Diagnostics check values against these lists, completion offers them,
//! hover documents them and code actions pick corrections from them. The
//! order is the specification's and is user-visible (completion items,
//! quick fixes are offered in it), so keep it.
//!
//! Sections are of the OpenProse specification's `compiler.md` unless
//! said otherwise.

/// The `model:` values (agents and sessions), written as bare words.
///
/// compiler.md, Agent Definitions > Properties and Model Selection.
pub const MODELS: &[&str] = &["sonnet", "opus", "haiku"];

/// The bare-word `persist:` values of an agent (a string is a custom
/// path). `user` is documented by prose.md only.
///
/// compiler.md, Agent Definitions > Persist Property; prose.md, Persistent
/// Agents.
pub const PERSIST_VALUES: &[&str] = &["true", "project", "user"];

/// The `backoff:` strategies of a session, written as bare words.
///
/// compiler.md, Error Handling > Retry Property > Retry with Backoff.
pub const BACKOFF_STRATEGIES: &[&str] = &["none", "linear", "exponential"];

/// The join strategies of `parallel ("…")`, written as strings.
///
/// compiler.md, Parallel Blocks > Join Strategies.
pub const JOIN_STRATEGIES: &[&str] = &["all", "first", "any"];

/// The `on-fail:` policies of `parallel (…)`, written as strings.
///
/// compiler.md, Parallel Blocks > Failure Policies.
pub const FAILURE_POLICIES: &[&str] = &["fail-fast", "continue", "ignore"];

/// The keys of a `permissions:` block.
///
/// compiler.md, Agent Definitions > Permissions Property > Permission Types.
pub const PERMISSION_TYPES: &[&str] = &["read", "write", "execute", "bash", "network"];

/// The permission types that also take an array of glob patterns.
///
/// compiler.md, Agent Definitions > Permissions Property > Permission Types.
pub const PATTERN_PERMISSION_TYPES: &[&str] = &["read", "write", "execute"];

/// The values of a permission entry, written as bare words.
///
/// compiler.md, Agent Definitions > Permissions Property > Permission Values.
pub const PERMISSION_VALUES: &[&str] = &["allow", "deny", "prompt"];

/// The properties of an `agent` definition (`retry` and `backoff` are
/// session-only: P811 reports them on an agent).
///
/// compiler.md, Agent Definitions > Properties; Context Property.
pub const AGENT_PROPERTIES: &[&str] = &[
    "model",
    "prompt",
    "persist",
    "skills",
    "permissions",
    "context",
];

/// The properties of a `session` or `resume` statement, in its property
/// block or its modifier list.
///
/// compiler.md, Session Statement > Property Overrides; Resume Statement;
/// Context Property; Error Handling > Retry Property.
pub const SESSION_PROPERTIES: &[&str] = &["model", "prompt", "context", "retry", "backoff"];

/// The keyed modifiers of `parallel (…)` and `parallel for` (the join
/// strategy is the bare value).
///
/// compiler.md, Parallel Blocks > Failure Policies and Combining Modifiers.
pub const PARALLEL_MODIFIERS: &[&str] = &["on-fail", "count"];

/// The keyed modifiers of `loop (…)`.
///
/// compiler.md, Unbounded Loops > Safety Limits.
pub const LOOP_MODIFIERS: &[&str] = &["max"];

/// Whether two strings are equal, in a `const` context.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_eq_compares_bytes() {
        assert!(str_eq("opus", "opus"));
        assert!(!str_eq("opus", "opu"));
        assert!(!str_eq("opus", "opas"));
    }

    #[test]
    fn pattern_types_are_permission_types() {
        assert!(
            PATTERN_PERMISSION_TYPES
                .iter()
                .all(|t| PERMISSION_TYPES.contains(t))
        );
    }
}
