//! The `[dialect]` table of `prose.toml`: Pattern Dialect settings.
//!
//! ```toml
//! [dialect]
//! registry = "agents/blocks.txt"   # the memory blocks agents know, relative to the root
//! ```
//!
//! `registry` names a block registry file in the text format of
//! `prose dialect parse --registry` (`prose_dialect::BlockRegistry::parse`):
//! with it, `/recall block_name` reads a known block instead of searching,
//! an explicit read of an unknown block is D012, and `remember`/`archive`
//! can tell /context from /recall. Completion offers its block names.
//!
//! Parsing `prose.toml` is pure, so the table holds the path as written;
//! the host reads the file and hands its text in with
//! [`Config::load_dialect_registry`], which checks it. A registry that is
//! missing or invalid makes the configuration invalid, like a typo in
//! `prose.toml` itself.

use serde::Deserialize;

use super::{Config, ConfigError};

/// The `[dialect]` table.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct DialectTable {
    /// `registry`: the block registry file, relative to the root, as written.
    pub registry: Option<String>,
    /// The registry file's text, once the host has loaded it
    /// ([`Config::load_dialect_registry`]); checked, so it parses.
    pub registry_text: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDialect {
    registry: Option<String>,
}

impl RawDialect {
    pub(super) fn validate(self) -> Result<DialectTable, ConfigError> {
        if let Some(r) = &self.registry
            && r.trim().is_empty()
        {
            return Err(ConfigError {
                message: "[dialect] registry: the path is empty".to_string(),
            });
        }
        Ok(DialectTable {
            registry: self.registry,
            registry_text: None,
        })
    }
}

impl Config {
    /// The path of the `[dialect] registry` file of a root at `root` (an
    /// analysis key: absolute, `/`-separated), if one is configured.
    pub fn dialect_registry_path(&self, root: &str) -> Option<String> {
        let rel = self.dialect.registry.as_deref()?;
        Some(crate::db::join_path(root, rel))
    }

    /// Loads the `[dialect] registry` file of a root at `root`: `read` is the
    /// host's IO (the file's text, or why it cannot be read); the text is
    /// checked and kept. Nothing to do without a `registry` key.
    pub fn load_dialect_registry(
        &mut self,
        root: &str,
        read: impl FnOnce(&str) -> Result<String, String>,
    ) -> Result<(), ConfigError> {
        let Some(path) = self.dialect_registry_path(root) else {
            return Ok(());
        };
        let written = self.dialect.registry.as_deref().unwrap_or_default();
        let err = |message: String| ConfigError {
            message: format!("[dialect] registry `{written}`: {message}"),
        };
        let text = read(&path).map_err(err)?;
        prose_dialect::BlockRegistry::parse(&text).map_err(|e| err(format!("{path}: {e}")))?;
        self.dialect.registry_text = Some(text);
        Ok(())
    }

    /// The block registry loaded for `[dialect] registry`, if any.
    pub fn dialect_registry(&self) -> Option<prose_dialect::BlockRegistry> {
        let text = self.dialect.registry_text.as_deref()?;
        prose_dialect::BlockRegistry::parse(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use crate::Config;

    #[test]
    fn the_registry_path_is_kept_and_loaded_by_the_host() {
        let mut c = Config::from_toml("[dialect]\nregistry = \"agents/blocks.txt\"\n").unwrap();
        assert_eq!(c.dialect.registry.as_deref(), Some("agents/blocks.txt"));
        assert_eq!(
            c.dialect_registry_path("/ws").as_deref(),
            Some("/ws/agents/blocks.txt")
        );
        assert!(c.dialect_registry().is_none(), "not loaded yet");
        c.load_dialect_registry("/ws", |path| {
            assert_eq!(path, "/ws/agents/blocks.txt");
            Ok("project_notes\n[context]\npersona\n".to_string())
        })
        .unwrap();
        let r = c.dialect_registry().unwrap();
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn a_missing_or_invalid_registry_is_a_configuration_error() {
        let mut c = Config::from_toml("[dialect]\nregistry = \"b.txt\"\n").unwrap();
        let e = c
            .load_dialect_registry("/ws", |_| Err("no such file".to_string()))
            .unwrap_err();
        assert_eq!(e.message, "[dialect] registry `b.txt`: no such file");
        let e = c
            .load_dialect_registry("/ws", |_| Ok("[memory]\n".to_string()))
            .unwrap_err();
        assert_eq!(
            e.message,
            "[dialect] registry `b.txt`: /ws/b.txt: line 1: unknown section `[memory]`; the sections are [recall] and [context]"
        );
        assert!(c.dialect.registry_text.is_none());
        // Without the key there is nothing to read.
        let mut c = Config::default();
        c.load_dialect_registry("/ws", |_| panic!("nothing to read"))
            .unwrap();
    }

    #[test]
    fn rejects_unknown_keys_and_an_empty_path() {
        let message = |toml: &str| Config::from_toml(toml).unwrap_err().message;
        assert!(message("[dialect]\nregistery = \"b.txt\"\n").contains("registery"));
        assert_eq!(
            message("[dialect]\nregistry = \" \"\n"),
            "[dialect] registry: the path is empty"
        );
    }
}
