//! Files for injected OpenProse.
//!
//! OpenProse is analysed per file: its parse, names, rules and features
//! are queries of a [`SourceFile`]. So a ```` ```prose ```` fence is given
//! a file of its own, whose text is the fence's program: the host makes
//! it whenever the text of its markdown file (or the configuration, which
//! decides the file's kind) changes. These files are not in the file table
//! nor in the workspace's file map (no import resolves to them, no
//! workspace-wide feature lists them); [`Workspace::guests`] holds them by
//! the path of their markdown file, in the order of the fences.
//!
//! A fence's file is named after its markdown file and its place,
//! `README.md#2.prose` next to `README.md`, so it has the same root and
//! directory (imports in a fence resolve as from the markdown file).

use salsa::Setter;

use super::{GuestLanguage, injections};
use crate::{
    AnalysisHost,
    db::{SourceFile, file_kind},
    kind::FileKind,
};

/// The path of the `n`th (from 1) OpenProse fence file of `host`.
pub fn guest_path(host: &str, n: usize) -> String {
    format!("{host}#{n}.prose")
}

impl AnalysisHost {
    /// Makes, updates or drops the fence files of the file at `path`.
    pub(crate) fn sync_guests(&mut self, path: &str) {
        let ws = self.workspace;
        // The extension wins over every glob: a program or a dialect file is
        // never markdown, so nothing is computed for it here.
        if (path.ends_with(".prose") || path.ends_with(".dialect"))
            && !ws.guests(&self.db).contains_key(path)
        {
            return;
        }
        let texts: Vec<String> = match self.by_path.get(path) {
            Some(id)
                if matches!(
                    file_kind(&self.db, self.files[id.0 as usize], Some(ws)),
                    FileKind::PromptFile | FileKind::Markdown
                ) =>
            {
                let file = self.files[id.0 as usize];
                injections(&self.db, file, Some(ws))
                    .iter()
                    .filter(|i| i.language == GuestLanguage::OpenProse)
                    .map(|i| i.text.to_string())
                    .collect()
            }
            _ => Vec::new(),
        };
        let current: Vec<SourceFile> = ws.guests(&self.db).get(path).cloned().unwrap_or_default();
        for (file, text) in current.iter().zip(&texts) {
            if file.text(&self.db).as_str() != text {
                file.set_text(&mut self.db)
                    .to(std::sync::Arc::new(text.clone()));
            }
        }
        if current.len() == texts.len() {
            return;
        }
        // Fence files that went away keep no text (salsa inputs are never
        // deleted; their memos then hold nothing of it either).
        for file in current.iter().skip(texts.len()) {
            file.set_text(&mut self.db).to(std::sync::Arc::default());
        }
        let mut files: Vec<SourceFile> = current.into_iter().take(texts.len()).collect();
        for (n, text) in texts.iter().enumerate().skip(files.len()) {
            files.push(SourceFile::new(
                &self.db,
                guest_path(path, n + 1),
                std::sync::Arc::new(text.clone()),
            ));
        }
        let mut map = ws.guests(&self.db).clone();
        if files.is_empty() {
            map.remove(path);
        } else {
            map.insert(path.to_string(), files);
        }
        ws.set_guests(&mut self.db).to(map);
    }

    /// Re-makes the fence files of every file (after a configuration
    /// change, which may change what kind a file is).
    pub(crate) fn sync_all_guests(&mut self) {
        let paths: Vec<String> = self.by_path.keys().cloned().collect();
        for path in paths {
            self.sync_guests(&path);
        }
        let stale: Vec<String> = self
            .workspace
            .guests(&self.db)
            .keys()
            .filter(|p| !self.by_path.contains_key(*p))
            .cloned()
            .collect();
        for path in stale {
            self.sync_guests(&path);
        }
    }

    /// The fence files of the file at `path` (tests).
    #[cfg(test)]
    pub(crate) fn guest_files(&self, path: &str) -> Vec<(String, String)> {
        let ws = self.workspace;
        ws.guests(&self.db)
            .get(path)
            .into_iter()
            .flatten()
            .map(|f| (f.path(&self.db).clone(), f.text(&self.db).to_string()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guest_paths_name_their_host() {
        assert_eq!(guest_path("/ws/README.md", 2), "/ws/README.md#2.prose");
    }

    #[test]
    fn fence_files_follow_the_markdown_text() {
        let mut host = AnalysisHost::new();
        host.set_workspace_root(Some("/ws".into()));
        host.set_file_text("/ws/a.md", "# A\n\n```prose\nsession \"x\"\n```\n");
        assert_eq!(
            host.guest_files("/ws/a.md"),
            [(
                "/ws/a.md#1.prose".to_string(),
                "session \"x\"\n".to_string()
            )]
        );
        host.set_file_text(
            "/ws/a.md",
            "```prose\nsession \"y\"\n```\n\n```dialect\n/recall x\n```\n\n- item\n\n  ```prose\n  let a = 1\n  ```\n",
        );
        assert_eq!(
            host.guest_files("/ws/a.md"),
            [
                (
                    "/ws/a.md#1.prose".to_string(),
                    "session \"y\"\n".to_string()
                ),
                ("/ws/a.md#2.prose".to_string(), "let a = 1\n".to_string()),
            ]
        );
        host.set_file_text("/ws/a.md", "no fences\n");
        assert!(host.guest_files("/ws/a.md").is_empty());
        // A program is no host of fences, whatever its text.
        host.set_file_text("/ws/p.prose", "# ```prose\n");
        assert!(host.guest_files("/ws/p.prose").is_empty());
        host.set_file_text("/ws/b.md", "```prose\nsession \"b\"\n```\n");
        host.remove_file("/ws/b.md");
        assert!(host.guest_files("/ws/b.md").is_empty());
    }
}
