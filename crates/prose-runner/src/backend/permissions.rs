//! An agent's `permissions:` as data, and the check that a backend can
//! enforce them.
//!
//! ```prose
//! agent secure:
//!   permissions:
//!     read: ["*.md"]
//!     bash: deny
//! ```
//!
//! becomes two [`PermissionRule`]s. A backend maps the rules it can to its
//! own restrictions (the Claude CLI's `--allowedTools` / `--disallowedTools`,
//! Codex's sandbox mode) and says which through [`super::Backend::enforces`].
//! A rule that *restricts* (a `deny`, a `prompt` — there is nobody to ask in
//! a non-interactive session — or a pattern list, which allows only what it
//! lists) and that the backend cannot enforce stops the run before it
//! starts, naming the agent and the rule, unless the user passes
//! `--allow-unenforced-permissions` (the run's state records that).

use std::fmt;

use serde::{Deserialize, Serialize};

/// What a rule is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionKind {
    /// Files the agent may read.
    Read,
    /// Files the agent may write.
    Write,
    /// Files the agent may execute.
    Execute,
    /// Shell access.
    Bash,
    /// Network access.
    Network,
    /// Any file access (real programs write it).
    Filesystem,
    /// Database access (real programs write it).
    Database,
    /// A type the language does not define, kept as written.
    #[serde(untagged)]
    Other(String),
}

impl PermissionKind {
    pub fn parse(key: &str) -> PermissionKind {
        match key {
            "read" => PermissionKind::Read,
            "write" => PermissionKind::Write,
            "execute" => PermissionKind::Execute,
            "bash" => PermissionKind::Bash,
            "network" => PermissionKind::Network,
            "filesystem" => PermissionKind::Filesystem,
            "database" => PermissionKind::Database,
            other => PermissionKind::Other(other.to_string()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            PermissionKind::Read => "read",
            PermissionKind::Write => "write",
            PermissionKind::Execute => "execute",
            PermissionKind::Bash => "bash",
            PermissionKind::Network => "network",
            PermissionKind::Filesystem => "filesystem",
            PermissionKind::Database => "database",
            PermissionKind::Other(s) => s,
        }
    }
}

/// What a rule says.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionValue {
    Allow,
    Deny,
    /// Ask the user each time. No backend session can ask, so this restricts
    /// like `deny`.
    Prompt,
    /// Only what matches one of these patterns (globs for files, host
    /// patterns for the network).
    Patterns(Vec<String>),
}

/// One line of a `permissions:` block.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PermissionRule {
    pub kind: PermissionKind,
    pub value: PermissionValue,
}

impl PermissionRule {
    pub fn new(kind: PermissionKind, value: PermissionValue) -> Self {
        PermissionRule { kind, value }
    }

    /// Whether the rule takes something away (and so must be enforced).
    pub fn is_restrictive(&self) -> bool {
        !matches!(self.value, PermissionValue::Allow)
    }
}

impl fmt::Display for PermissionRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.kind.as_str())?;
        match &self.value {
            PermissionValue::Allow => f.write_str("allow"),
            PermissionValue::Deny => f.write_str("deny"),
            PermissionValue::Prompt => f.write_str("prompt"),
            PermissionValue::Patterns(p) => {
                f.write_str("[")?;
                for (i, pat) in p.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{pat:?}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// An agent's rules, in the order written. Empty: nothing restricted.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Permissions {
    pub rules: Vec<PermissionRule>,
}

impl Permissions {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rule for `kind`, if written.
    pub fn get(&self, kind: &PermissionKind) -> Option<&PermissionRule> {
        self.rules.iter().find(|r| &r.kind == kind)
    }

    /// The restrictive rules `enforces` says no to.
    pub fn unenforced<'a>(
        &'a self,
        enforces: impl Fn(&PermissionRule) -> bool + 'a,
    ) -> impl Iterator<Item = &'a PermissionRule> + 'a {
        self.rules
            .iter()
            .filter(move |r| r.is_restrictive() && !enforces(r))
    }
}

/// A restrictive rule of an agent that the chosen backend cannot enforce.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnenforcedPermission {
    pub agent: String,
    pub rule: PermissionRule,
    pub backend: String,
}

impl fmt::Display for UnenforcedPermission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "agent `{}` has `{}`, which the `{}` backend cannot enforce",
            self.agent, self.rule, self.backend
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restrictive_rules_and_display() {
        let p = Permissions {
            rules: vec![
                PermissionRule::new(
                    PermissionKind::Read,
                    PermissionValue::Patterns(vec!["*.md".into(), "docs/".into()]),
                ),
                PermissionRule::new(PermissionKind::Network, PermissionValue::Allow),
                PermissionRule::new(PermissionKind::Bash, PermissionValue::Deny),
                PermissionRule::new(PermissionKind::parse("gpu"), PermissionValue::Prompt),
            ],
        };
        let unenforced: Vec<String> = p
            .unenforced(|r| r.kind == PermissionKind::Bash)
            .map(|r| r.to_string())
            .collect();
        assert_eq!(unenforced, ["read: [\"*.md\", \"docs/\"]", "gpu: prompt"]);
        assert_eq!(
            p.get(&PermissionKind::Bash).unwrap().value,
            PermissionValue::Deny
        );
    }

    #[test]
    fn serializes_as_plain_data() {
        let rule = PermissionRule::new(PermissionKind::parse("database"), PermissionValue::Deny);
        assert_eq!(
            serde_json::to_string(&rule).unwrap(),
            r#"{"kind":"database","value":"deny"}"#
        );
        let other = PermissionRule::new(
            PermissionKind::parse("gpu"),
            PermissionValue::Patterns(vec!["a".into()]),
        );
        assert_eq!(
            serde_json::to_string(&other).unwrap(),
            r#"{"kind":"gpu","value":{"patterns":["a"]}}"#
        );
    }
}
