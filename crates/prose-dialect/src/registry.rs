//! The block registry: the memory blocks the caller knows, so `/recall
//! block_name` can tell a read from a search.
//!
//! The text format (`prose dialect parse --registry FILE`): one block name
//! per line; blank lines and lines starting with `#` are ignored; a line
//! `[recall]` or `[context]` starts a section, and names below `[context]`
//! are working-memory blocks (always in context: persona, human, notes),
//! names below `[recall]` (the default) long-term ones.
//!
//! ```text
//! # blocks of agent entropy
//! project_notes
//! meeting_notes
//! [context]
//! persona
//! human
//! ```

use std::collections::HashMap;

/// Which memory a block lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Memory {
    /// Long-term (archival) memory, used by /recall.
    Recall,
    /// Working memory, always in context, used by /context.
    Context,
}

/// The known block names.
#[derive(Clone, Debug, Default)]
pub struct BlockRegistry {
    /// In insertion order, for stable suggestions.
    names: Vec<(String, Memory)>,
    exact: HashMap<String, usize>,
    /// Lower-cased name to index, `None` when two names differ only in case.
    folded: HashMap<String, Option<usize>>,
}

/// A line of a registry file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for RegistryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for RegistryError {}

impl BlockRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a block (a second add of the same name keeps the first).
    pub fn insert(&mut self, name: impl Into<String>, memory: Memory) {
        let name = name.into();
        if self.exact.contains_key(&name) {
            return;
        }
        let i = self.names.len();
        self.exact.insert(name.clone(), i);
        self.folded
            .entry(name.to_lowercase())
            .and_modify(|e| *e = None)
            .or_insert(Some(i));
        self.names.push((name, memory));
    }

    /// A registry of long-term blocks.
    pub fn from_names<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        let mut r = Self::new();
        for n in names {
            r.insert(n, Memory::Recall);
        }
        r
    }

    /// Reads the text format described in the module docs.
    pub fn parse(text: &str) -> Result<Self, RegistryError> {
        let mut r = Self::new();
        let mut memory = Memory::Recall;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                memory = match section.trim() {
                    "recall" => Memory::Recall,
                    "context" => Memory::Context,
                    other => {
                        return Err(RegistryError {
                            line: i + 1,
                            message: format!(
                                "unknown section `[{other}]`; the sections are [recall] and [context]"
                            ),
                        });
                    }
                };
                continue;
            }
            if line.contains(char::is_whitespace) {
                return Err(RegistryError {
                    line: i + 1,
                    message: format!("`{line}` is not a block name: names have no spaces"),
                });
            }
            r.insert(line, memory);
        }
        Ok(r)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every block, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Memory)> {
        self.names.iter().map(|(n, m)| (n.as_str(), *m))
    }

    /// The block named `name`: exactly, or else the only one whose name
    /// differs just in case. Returns the registered spelling.
    pub fn get(&self, name: &str) -> Option<(&str, Memory)> {
        let i = match self.exact.get(name) {
            Some(&i) => i,
            None => (*self.folded.get(&name.to_lowercase())?)?,
        };
        let (n, m) = &self.names[i];
        Some((n.as_str(), *m))
    }

    /// Blocks whose name contains `part` (any case), for "did you mean"
    /// (at most `limit`).
    pub fn similar(&self, part: &str, limit: usize) -> Vec<&str> {
        if part.is_empty() || part.len() > 64 {
            return Vec::new();
        }
        let part = part.to_lowercase();
        let mut out: Vec<&str> = self
            .names
            .iter()
            .filter(|(n, _)| n.to_lowercase().contains(&part))
            .map(|(n, _)| n.as_str())
            .take(limit)
            .collect();
        if out.is_empty() {
            // A misspelling: within a third of the length.
            out = self
                .names
                .iter()
                .filter(|(n, _)| {
                    let bound = (n.len() / 3).max(1);
                    n.len().abs_diff(part.len()) <= bound
                        && strsim::osa_distance(&n.to_lowercase(), &part) <= bound
                })
                .map(|(n, _)| n.as_str())
                .take(limit)
                .collect();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_format() {
        let r = BlockRegistry::parse(
            "# blocks\nproject_notes\n\n meeting_notes \n[context]\npersona\n[recall]\narchive_1\n",
        )
        .unwrap();
        let all: Vec<_> = r.iter().collect();
        assert_eq!(
            all,
            [
                ("project_notes", Memory::Recall),
                ("meeting_notes", Memory::Recall),
                ("persona", Memory::Context),
                ("archive_1", Memory::Recall)
            ]
        );
        assert_eq!(
            BlockRegistry::parse("a\n[core]\n").unwrap_err().to_string(),
            "line 2: unknown section `[core]`; the sections are [recall] and [context]"
        );
        assert_eq!(BlockRegistry::parse("two words").unwrap_err().line, 1);
    }

    #[test]
    fn lookup_exact_then_case() {
        let r = BlockRegistry::from_names(["Notes", "notes", "Persona"]);
        assert_eq!(r.get("notes"), Some(("notes", Memory::Recall)));
        assert_eq!(r.get("NOTES"), None, "two names differ only in case");
        assert_eq!(r.get("persona"), Some(("Persona", Memory::Recall)));
        assert_eq!(r.get("x"), None);
    }

    #[test]
    fn similar_names() {
        let r = BlockRegistry::from_names(["project_notes", "meeting_notes", "persona"]);
        assert_eq!(r.similar("notes", 3), ["project_notes", "meeting_notes"]);
        assert_eq!(r.similar("persnoa", 3), ["persona"]);
        assert!(r.similar("zzz", 3).is_empty());
    }
}
