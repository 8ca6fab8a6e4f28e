//! Workspace trust for runs: the user's consent to what a repository's
//! `prose.toml` chose (docs/security.md).
//!
//! A repository may pick a built-in backend and models freely, but a run
//! that would start a program the repository named (the `command`
//! backend's command, a CLI's executable or arguments), send prompts or a
//! key to an endpoint it named, or pass environment variables it named
//! through to a backend, needs the user's consent first. Both `prose run`
//! and the language server ask through this module, and remember a yes in
//! one file of the user's own, `~/.prose/consent.toml` (`$PROSE_HOME`
//! instead of the home directory when set), per repository and per
//! configuration hash: when the repository changes one of those values,
//! the question comes again.
//!
//! This module only decides and remembers; asking (a terminal prompt, an
//! editor's message request) is the caller's.

use std::{
    fmt::Write as _,
    io,
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{
    backend::{BackendKind, process::find_executable},
    config::{ConsentItem, RunnerConfig},
    events::now_rfc3339,
    state::write_atomic,
};

/// The file, under the user's `.prose` folder.
pub const CONSENT_FILE: &str = "consent.toml";

/// What a run needs consent for: a repository and the values its
/// `prose.toml` chose that the run would use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentRequest {
    /// The repository (workspace root), absolute and canonical when it
    /// exists.
    pub root: PathBuf,
    pub backend: BackendKind,
    pub items: Vec<ConsentItem>,
    /// Lines saying what each value makes the run do (one or two per item).
    effects: Vec<String>,
}

impl ConsentRequest {
    /// The consent a run of `config` with `backend` in the repository at
    /// `root` needs; `None` when the repository chose nothing that needs it.
    pub fn new(root: &Path, config: &RunnerConfig, backend: BackendKind) -> Option<Self> {
        let items = config.needs_consent_for(backend);
        if items.is_empty() {
            return None;
        }
        let effects = items.iter().map(|i| effect(i, config, backend)).collect();
        Some(ConsentRequest {
            root: canonical(root),
            backend,
            items,
            effects,
        })
    }

    /// The hash of what is asked: the backend and every item's key, value
    /// and file. Any change asks again.
    pub fn hash(&self) -> String {
        let mut h = Sha256::new();
        h.update(self.backend.as_str().as_bytes());
        for i in &self.items {
            for part in [i.key.as_str(), i.value.as_str(), &i.file.to_string_lossy()] {
                h.update([0u8]);
                h.update(part.as_bytes());
            }
        }
        h.finalize().iter().fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
    }

    /// The settings, each as `key = "value"`, for messages and the file.
    pub fn settings(&self) -> Vec<String> {
        self.items
            .iter()
            .map(|i| format!("{} = {:?}", i.key, i.value))
            .collect()
    }

    /// The files the settings come from, each once.
    pub fn files(&self) -> Vec<&Path> {
        let mut files: Vec<&Path> = Vec::new();
        for i in &self.items {
            if !files.contains(&i.file.as_path()) {
                files.push(&i.file);
            }
        }
        files
    }

    /// What the run would do, for people: one entry per setting, with the
    /// file it is in and what it makes the run execute or where it sends
    /// prompts and keys.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "The prose.toml of {} chooses what a run with the `{}` backend executes or where it sends data:\n",
            self.root.display(),
            self.backend
        );
        for (item, effect) in self.items.iter().zip(&self.effects) {
            let _ = writeln!(
                s,
                "  {} = {:?}  ({})\n    {effect}",
                item.key,
                item.value,
                item.file.display()
            );
        }
        s
    }

    /// One line naming the settings and their files, for refusals.
    pub fn summary(&self) -> String {
        let keys: Vec<String> = self.items.iter().map(|i| format!("`{}`", i.key)).collect();
        let files: Vec<String> = self
            .files()
            .iter()
            .map(|f| f.display().to_string())
            .collect();
        format!("{} in {}", keys.join(", "), files.join(", "))
    }
}

/// What one setting makes the run do.
fn effect(item: &ConsentItem, config: &RunnerConfig, backend: BackendKind) -> String {
    let found = |program: &str| match find_executable(program) {
        Some(p) if p.as_os_str() != program => format!(" (found at {})", p.display()),
        Some(_) => String::new(),
        None => " (not found now)".to_string(),
    };
    let key = item.key.as_str();
    if key == "runner.command" {
        let argv = shlex::split(&item.value).unwrap_or_default();
        let Some((program, args)) = argv.split_first() else {
            return "executes nothing (the command is empty)".into();
        };
        return format!(
            "executes `{program}`{}{} once per session, with the prompt on stdin",
            found(program),
            if args.is_empty() {
                String::new()
            } else {
                format!(" with the arguments {args:?}")
            }
        );
    }
    if key == "runner.env" {
        return format!(
            "passes the environment variable `{}` (its value{}) to the backend's processes",
            item.value,
            if std::env::var_os(&item.value).is_some() {
                " from your environment"
            } else {
                ", unset now"
            }
        );
    }
    let settings = config.backend_settings(backend);
    if key.ends_with(".executable") {
        return format!(
            "executes `{}`{} instead of `{backend}`, once per session",
            item.value,
            found(&item.value)
        );
    }
    if key.ends_with(".args") {
        return format!(
            "passes these arguments to `{backend}` on every session: {}",
            item.value
        );
    }
    let key_var = settings.api_key_env.as_ref().map(|k| k.value.clone());
    let url = settings.base_url.as_ref().map_or_else(
        || match backend {
            BackendKind::Anthropic => crate::backend::anthropic::DEFAULT_BASE_URL.to_string(),
            _ => crate::backend::openai::DEFAULT_BASE_URL.to_string(),
        },
        |u| u.value.clone(),
    );
    if key.ends_with(".base_url") {
        return match key_var {
            Some(var) => format!("sends every prompt, and the API key in `${var}`, to {url}"),
            None => format!("sends every prompt to {url} (without an API key)"),
        };
    }
    // `api_key_env`
    format!(
        "sends the value of `${}` as the API key to {url}",
        item.value
    )
}

/// `path` made absolute and canonical (symbolic links resolved) when it
/// exists.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// One remembered yes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// The repository.
    pub root: String,
    /// [`ConsentRequest::hash`].
    pub hash: String,
    /// When (RFC 3339).
    pub granted: String,
    /// What was allowed, for people reading the file.
    #[serde(default)]
    pub settings: Vec<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct ConsentFile {
    #[serde(default)]
    allowed: Vec<Grant>,
}

const HEADER: &str = "# Repositories whose runner settings you allowed `prose run` and the editor to use\n\
# (docs/security.md). Remove an entry, or this file, to revoke; or run\n\
# `prose consent --revoke DIR`.\n\n";

/// The remembered consents of one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentStore {
    pub path: PathBuf,
}

impl ConsentStore {
    /// The store of the user whose home is `home` (`$PROSE_HOME` or `$HOME`).
    pub fn in_home(home: &Path) -> Self {
        ConsentStore {
            path: home.join(".prose").join(CONSENT_FILE),
        }
    }

    /// Every remembered consent. A file that cannot be read or parsed
    /// counts as empty: nothing is allowed until asked again.
    pub fn grants(&self) -> Vec<Grant> {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|text| toml::from_str::<ConsentFile>(&text).ok())
            .map(|f| f.allowed)
            .unwrap_or_default()
    }

    /// Whether the user allowed `request` (this repository, these values).
    pub fn is_granted(&self, request: &ConsentRequest) -> bool {
        let root = request.root.to_string_lossy();
        let hash = request.hash();
        self.grants()
            .iter()
            .any(|g| g.root == root && g.hash == hash)
    }

    /// Remembers a yes to `request`, replacing what was remembered for the
    /// repository before.
    pub fn grant(&self, request: &ConsentRequest) -> io::Result<()> {
        let root = request.root.to_string_lossy().into_owned();
        let mut grants = self.grants();
        grants.retain(|g| g.root != root);
        grants.push(Grant {
            root,
            hash: request.hash(),
            granted: now_rfc3339(),
            settings: request.settings(),
        });
        self.write(grants)
    }

    /// Forgets what was allowed for the repository at `root`; returns how
    /// many entries went.
    pub fn revoke(&self, root: &Path) -> io::Result<usize> {
        let root = canonical(root).to_string_lossy().into_owned();
        let mut grants = self.grants();
        let before = grants.len();
        grants.retain(|g| g.root != root);
        let removed = before - grants.len();
        if removed > 0 {
            self.write(grants)?;
        }
        Ok(removed)
    }

    fn write(&self, allowed: Vec<Grant>) -> io::Result<()> {
        let body = toml::to_string(&ConsentFile { allowed })
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        write_atomic(&self.path, format!("{HEADER}{body}").as_bytes(), true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Origin;

    fn repo_config(root: &Path, text: &str) -> RunnerConfig {
        let repo = prose_ide::Config::from_toml(text).unwrap();
        let mut c = RunnerConfig::default();
        c.apply(
            &repo.runner,
            &Origin::RepositoryFile(root.join("prose.toml")),
            root,
        );
        c
    }

    #[test]
    fn only_what_the_backend_uses_needs_consent() {
        let dir = tempfile::tempdir().unwrap();
        let c = repo_config(
            dir.path(),
            "[runner]\ncommand = \"./agent.sh --fast\"\nenv = [\"TOKEN_X\"]\nmodel = \"opus\"\n\
             [runner.claude]\nexecutable = \"/opt/claude\"\nargs = [\"--verbose\"]\n\
             [runner.openai]\nbase_url = \"http://10.0.0.9/v1\"\n\
             [runner.anthropic]\nbase_url = \"https://api.anthropic.com/\"\n",
        );
        let keys = |kind| -> Vec<String> {
            c.needs_consent_for(kind)
                .into_iter()
                .map(|i| i.key)
                .collect()
        };
        assert_eq!(keys(BackendKind::Command), ["runner.command", "runner.env"]);
        assert_eq!(
            keys(BackendKind::Claude),
            [
                "runner.env",
                "runner.claude.executable",
                "runner.claude.args"
            ]
        );
        assert_eq!(keys(BackendKind::Codex), ["runner.env"]);
        assert_eq!(keys(BackendKind::Openai), ["runner.openai.base_url"]);
        // The vendor's own URL needs nothing.
        assert!(keys(BackendKind::Anthropic).is_empty());
        assert!(keys(BackendKind::Mock).is_empty());
        assert!(ConsentRequest::new(dir.path(), &c, BackendKind::Mock).is_none());

        // Values from the user's own file or flags need no consent.
        let mut mine = RunnerConfig::default();
        mine.apply(
            &prose_ide::Config::from_toml("[runner]\ncommand = \"agent\"\n")
                .unwrap()
                .runner,
            &Origin::UserFile("/home/u/.prose/prose.toml".into()),
            Path::new("/home/u/.prose"),
        );
        assert!(mine.needs_consent_for(BackendKind::Command).is_empty());
    }

    #[test]
    fn the_description_says_what_runs_and_where_prompts_go() {
        let dir = tempfile::tempdir().unwrap();
        let root = canonical(dir.path());
        let c = repo_config(
            dir.path(),
            "[runner]\ncommand = \"/nonexistent/agent --fast 'two words'\"\n",
        );
        let r = ConsentRequest::new(dir.path(), &c, BackendKind::Command).unwrap();
        assert_eq!(
            r.describe(),
            format!(
                "The prose.toml of {} chooses what a run with the `command` backend executes or where it sends data:\n  runner.command = \"/nonexistent/agent --fast 'two words'\"  ({})\n    executes `/nonexistent/agent` (not found now) with the arguments [\"--fast\", \"two words\"] once per session, with the prompt on stdin\n",
                root.display(),
                dir.path().join("prose.toml").display()
            )
        );
        assert_eq!(
            r.summary(),
            format!(
                "`runner.command` in {}",
                dir.path().join("prose.toml").display()
            )
        );

        let c = repo_config(
            dir.path(),
            "[runner.openai]\nbase_url = \"http://10.0.0.9/v1\"\napi_key_env = \"LLAMA_KEY\"\n",
        );
        let r = ConsentRequest::new(dir.path(), &c, BackendKind::Openai).unwrap();
        let text = r.describe();
        assert!(
            text.contains(
                "sends every prompt, and the API key in `$LLAMA_KEY`, to http://10.0.0.9/v1"
            ),
            "{text}"
        );
        assert!(
            text.contains("sends the value of `$LLAMA_KEY` as the API key to http://10.0.0.9/v1"),
            "{text}"
        );
    }

    #[test]
    fn a_yes_is_remembered_per_repository_and_configuration() {
        let home = tempfile::tempdir().unwrap();
        let repo = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let store = ConsentStore::in_home(home.path());
        let a = ConsentRequest::new(
            repo.path(),
            &repo_config(repo.path(), "[runner]\ncommand = \"agent-a\"\n"),
            BackendKind::Command,
        )
        .unwrap();
        assert!(!store.is_granted(&a));
        store.grant(&a).unwrap();
        assert!(store.is_granted(&a));
        let text = std::fs::read_to_string(&store.path).unwrap();
        assert!(
            text.starts_with("# Repositories whose runner settings"),
            "{text}"
        );
        assert!(
            text.contains(r#"settings = ['runner.command = "agent-a"']"#),
            "{text}"
        );

        // Another command in the same repository asks again ...
        let b = ConsentRequest::new(
            repo.path(),
            &repo_config(repo.path(), "[runner]\ncommand = \"agent-b\"\n"),
            BackendKind::Command,
        )
        .unwrap();
        assert_ne!(a.hash(), b.hash());
        assert!(!store.is_granted(&b));
        // ... and so does the same command in another repository.
        let elsewhere = ConsentRequest::new(
            other.path(),
            &repo_config(other.path(), "[runner]\ncommand = \"agent-a\"\n"),
            BackendKind::Command,
        )
        .unwrap();
        assert!(!store.is_granted(&elsewhere));

        // A new yes for the repository replaces the old one.
        store.grant(&b).unwrap();
        assert!(store.is_granted(&b) && !store.is_granted(&a));
        assert_eq!(store.grants().len(), 1);

        assert_eq!(store.revoke(repo.path()).unwrap(), 1);
        assert!(!store.is_granted(&b));
        assert_eq!(store.revoke(repo.path()).unwrap(), 0);

        // A damaged file allows nothing.
        std::fs::write(&store.path, "allowed = 3").unwrap();
        assert!(!store.is_granted(&b));
    }
}
