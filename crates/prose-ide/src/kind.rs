//! Which language a file is written in (see `docs/languages.md`).
//!
//! A file's kind comes from its path and the `[files]` globs of its root's
//! `prose.toml`; the first rule that matches wins:
//!
//! | kind | recognised by |
//! |---|---|
//! | [`FileKind::OpenProse`] | `*.prose` |
//! | [`FileKind::JobEntry`] | `*.jobs.json`, `jobs.json`, `[files] jobs` |
//! | [`FileKind::Dialect`] | `*.dialect` |
//! | [`FileKind::PromptFile`] | `*.prompt.md`, `*.md` under a `.agents/` directory, `[files] prompts` |
//! | [`FileKind::Markdown`] | any other `*.md` |
//!
//! Whether a markdown file is an *instruction file* (the `_keyword_`
//! language) depends on its text as well, so the markdown analysis decides
//! that ([`crate::config::FileGlobs::is_instructions`] gives the glob part).

use crate::config::{Config, FileGlobs};

/// The language of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    /// An OpenProse program (`*.prose`).
    OpenProse,
    /// A job entry for coding agents (seed 002), JSON or JSONC.
    JobEntry,
    /// Pattern Dialect, the action language agents write (seed 001).
    Dialect,
    /// A markdown prompt file with slash-command phases (seed 004).
    PromptFile,
    /// Any other markdown file: an instruction file (seed 000) when it uses
    /// the `_keyword_` language; fences of other languages are injected.
    Markdown,
}

impl FileKind {
    pub const ALL: [FileKind; 5] = [
        FileKind::OpenProse,
        FileKind::JobEntry,
        FileKind::Dialect,
        FileKind::PromptFile,
        FileKind::Markdown,
    ];

    /// A short name for messages and JSON (`openprose`, `job-entry`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::OpenProse => "openprose",
            FileKind::JobEntry => "job-entry",
            FileKind::Dialect => "dialect",
            FileKind::PromptFile => "prompt-file",
            FileKind::Markdown => "markdown",
        }
    }

    /// A file name of this kind, for examples and fixtures.
    pub fn example_file_name(self) -> &'static str {
        match self {
            FileKind::OpenProse => "example.prose",
            FileKind::JobEntry => "example.jobs.json",
            FileKind::Dialect => "example.dialect",
            FileKind::PromptFile => "example.prompt.md",
            FileKind::Markdown => "example.md",
        }
    }

    /// The info string of a markdown code fence for this kind's examples.
    pub fn fence_language(self) -> &'static str {
        match self {
            FileKind::OpenProse => "prose",
            FileKind::JobEntry => "json",
            FileKind::Dialect => "dialect",
            FileKind::PromptFile | FileKind::Markdown => "markdown",
        }
    }
}

/// The kind of the file at `path` (absolute, `/`-separated), given the
/// directory of its root (globs are relative to it) and the root's
/// configuration; `None` when no rule matches (not a file we check when
/// scanning a directory).
pub fn kind_of_path(path: &str, root_dir: Option<&str>, config: &Config) -> Option<FileKind> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let rel = root_dir.and_then(|dir| relative_to(dir, path));
    let globs = &config.files;
    if name.ends_with(".prose") {
        return Some(FileKind::OpenProse);
    }
    if name.ends_with(".jobs.json") || name == "jobs.json" || matches(globs, rel, Glob::Jobs) {
        return Some(FileKind::JobEntry);
    }
    if name.ends_with(".dialect") {
        return Some(FileKind::Dialect);
    }
    let markdown = name.ends_with(".md");
    if name.ends_with(".prompt.md")
        || (markdown && in_agents_dir(rel.unwrap_or(path)))
        || matches(globs, rel, Glob::Prompts)
    {
        return Some(FileKind::PromptFile);
    }
    if markdown || matches(globs, rel, Glob::Instructions) {
        return Some(FileKind::Markdown);
    }
    None
}

/// The kind of a file the host was asked about: its path's kind, or
/// OpenProse when no rule matches (a file named explicitly is checked as a
/// program whatever its extension, as `prose check` always did).
pub fn kind_of_file(path: &str, root_dir: Option<&str>, config: &Config) -> FileKind {
    kind_of_path(path, root_dir, config).unwrap_or(FileKind::OpenProse)
}

#[derive(Clone, Copy)]
enum Glob {
    Jobs,
    Prompts,
    Instructions,
}

fn matches(globs: &FileGlobs, rel: Option<&str>, which: Glob) -> bool {
    let Some(rel) = rel else { return false };
    let list = match which {
        Glob::Jobs => &globs.jobs,
        Glob::Prompts => &globs.prompts,
        Glob::Instructions => &globs.instructions,
    };
    crate::config::glob_match(list, rel)
}

/// Whether some directory of `path` is named `.agents`.
fn in_agents_dir(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop();
    parts.contains(&".agents")
}

/// Whether a scan of a folder (`prose check DIR`, the server's workspace
/// scan) skips the directory `name`: version control and build output
/// (`.git`, `node_modules`, `target`) and other hidden directories, but
/// not `.prose` (imported programs) or `.agents` (prompt files).
pub fn is_skipped_dir(name: &str) -> bool {
    matches!(name, "node_modules" | "target")
        || (name.starts_with('.') && name != ".prose" && name != ".agents")
}

/// `path` relative to `dir`, when it lies under it.
pub(crate) fn relative_to<'a>(dir: &str, path: &'a str) -> Option<&'a str> {
    let dir = dir.trim_end_matches('/');
    path.strip_prefix(dir)?.strip_prefix('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(path: &str, toml: &str) -> Option<FileKind> {
        let config = Config::from_toml(toml).unwrap();
        kind_of_path(path, Some("/ws"), &config)
    }

    #[test]
    fn by_name() {
        assert_eq!(kind("/ws/a.prose", ""), Some(FileKind::OpenProse));
        assert_eq!(kind("/ws/ci/x.jobs.json", ""), Some(FileKind::JobEntry));
        assert_eq!(kind("/ws/jobs.json", ""), Some(FileKind::JobEntry));
        assert_eq!(kind("/ws/myjobs.json", ""), None);
        assert_eq!(kind("/ws/package.json", ""), None);
        assert_eq!(kind("/ws/out.dialect", ""), Some(FileKind::Dialect));
        assert_eq!(kind("/ws/fix.prompt.md", ""), Some(FileKind::PromptFile));
        assert_eq!(
            kind("/ws/.agents/review.md", ""),
            Some(FileKind::PromptFile)
        );
        assert_eq!(
            kind("/ws/x/.agents/sub/review.md", ""),
            Some(FileKind::PromptFile)
        );
        assert_eq!(kind("/ws/.agents.md", ""), Some(FileKind::Markdown));
        assert_eq!(kind("/ws/README.md", ""), Some(FileKind::Markdown));
        assert_eq!(kind("/ws/main.rs", ""), None);
    }

    #[test]
    fn by_configured_globs() {
        let toml = "[files]\njobs = [\"ci/*.json\"]\nprompts = [\"prompts/**/*.md\"]\ninstructions = [\"AGENTS.txt\"]\n";
        assert_eq!(kind("/ws/ci/nightly.json", toml), Some(FileKind::JobEntry));
        assert_eq!(kind("/ws/ci/deep/nightly.json", toml), None);
        assert_eq!(
            kind("/ws/prompts/a/b/fix.md", toml),
            Some(FileKind::PromptFile)
        );
        assert_eq!(kind("/ws/AGENTS.txt", toml), Some(FileKind::Markdown));
        // Globs are relative to the root: not matched outside it.
        let config = Config::from_toml(toml).unwrap();
        assert_eq!(
            kind_of_path("/elsewhere/ci/n.json", Some("/ws"), &config),
            None
        );
        // The extension wins over a glob.
        let toml = "[files]\njobs = [\"**/*\"]\n";
        assert_eq!(kind("/ws/a.prose", toml), Some(FileKind::OpenProse));
    }

    #[test]
    fn skipped_directories() {
        for d in [".git", "node_modules", "target", ".vscode"] {
            assert!(is_skipped_dir(d), "{d}");
        }
        for d in [".prose", ".agents", "src", "docs"] {
            assert!(!is_skipped_dir(d), "{d}");
        }
    }

    #[test]
    fn explicit_files_default_to_openprose() {
        let config = Config::default();
        assert_eq!(
            kind_of_file("/ws/program.txt", Some("/ws"), &config),
            FileKind::OpenProse
        );
        assert_eq!(
            kind_of_file("untitled:Untitled-1", None, &config),
            FileKind::OpenProse
        );
    }
}
