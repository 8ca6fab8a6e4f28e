//! The runner's configuration, with where every value came from.
//!
//! Values are layered, later layers winning: built-in defaults, the user's
//! `~/.prose/prose.toml` (its `[runner]` table), the repository's
//! `prose.toml`, editor settings, command line flags. Each layer is a
//! [`prose_ide::config::RunnerTable`] (the CLI and the server build one
//! from their flags and settings) applied with [`RunnerConfig::apply`].
//!
//! Every value keeps its [`Origin`], so workspace trust can ask before a
//! run uses a program, an endpoint or an environment variable that a
//! repository's own `prose.toml` chose ([`RunnerConfig::needs_consent`]).
//! API keys are never configuration values: only the *name* of the
//! variable holding one is (`api_key_env`).

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
    time::Duration,
};

use prose_ide::config::RunnerTable;

use crate::backend::BackendKind;

/// Where a configuration value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Built in.
    Default,
    /// The user's own configuration file (`~/.prose/prose.toml`).
    UserFile(PathBuf),
    /// The repository's `prose.toml` (workspace trust applies).
    RepositoryFile(PathBuf),
    /// The editor's settings (user level; the editor decides trust).
    EditorSettings,
    /// A command line flag.
    CommandLine,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::UserFile(p) => write!(f, "{}", p.display()),
            Origin::RepositoryFile(p) => write!(f, "{}", p.display()),
            Origin::EditorSettings => f.write_str("editor settings"),
            Origin::CommandLine => f.write_str("command line"),
        }
    }
}

/// A value and its origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Sourced<T> {
    pub fn new(value: T, origin: Origin) -> Self {
        Sourced { value, origin }
    }
}

/// The default time one backend request may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Settings of one backend (`[runner.<backend>]`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BackendSettings {
    /// Alias (`sonnet`) -> this backend's model name.
    pub models: BTreeMap<String, Sourced<String>>,
    /// The CLI to run (claude, codex); default: the backend's name on PATH.
    pub executable: Option<Sourced<String>>,
    /// Extra arguments for the CLI (claude, codex).
    pub args: Option<Sourced<Vec<String>>>,
    /// The API's base URL (openai, anthropic); default: the vendor's.
    pub base_url: Option<Sourced<String>>,
    /// The environment variable holding the API key (openai, anthropic).
    pub api_key_env: Option<Sourced<String>>,
    /// The model of aliases `models` does not map (openai, anthropic).
    pub model: Option<Sourced<String>>,
    /// The mock's script file, absolute.
    pub script: Option<Sourced<PathBuf>>,
}

/// The effective configuration of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunnerConfig {
    /// The chosen backend; `None` picks one (see
    /// [`crate::backend::select_backend`]).
    pub backend: Option<Sourced<BackendKind>>,
    /// The `command` backend's command line.
    pub command: Option<Sourced<String>>,
    /// The alias of sessions whose agent and properties name no model.
    pub model: Option<Sourced<String>>,
    /// How long one backend request may take.
    pub timeout: Sourced<Duration>,
    /// How many backend requests may run at once; `None`: no limit.
    pub max_parallel: Option<Sourced<usize>>,
    /// Environment variables passed through to backend processes (beyond
    /// the minimal set every child gets, see
    /// [`crate::backend::process::base_environment`]).
    pub env: Vec<Sourced<String>>,
    pub backends: BTreeMap<BackendKind, BackendSettings>,
}

impl Default for RunnerConfig {
    fn default() -> Self {
        RunnerConfig {
            backend: None,
            command: None,
            model: None,
            timeout: Sourced::new(DEFAULT_TIMEOUT, Origin::Default),
            max_parallel: None,
            env: Vec::new(),
            backends: BTreeMap::new(),
        }
    }
}

/// A value a repository chose that needs the user's consent before a run
/// uses it (workspace trust; see docs/security.md when it exists).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentItem {
    /// The key, as written in `prose.toml` (`runner.command`).
    pub key: String,
    /// The value, for the consent prompt.
    pub value: String,
    pub file: PathBuf,
}

impl RunnerConfig {
    /// Lays `table` over the configuration: every value it sets replaces the
    /// current one, `env` names are added. Relative paths (the mock script)
    /// are resolved against `base_dir` (the directory of the file, or the
    /// current directory for flags).
    pub fn apply(&mut self, table: &RunnerTable, origin: &Origin, base_dir: &Path) {
        let s = |v: &String| Sourced::new(v.clone(), origin.clone());
        if let Some(b) = &table.backend
            && let Some(kind) = BackendKind::parse(b)
        {
            self.backend = Some(Sourced::new(kind, origin.clone()));
        }
        if let Some(c) = &table.command {
            self.command = Some(s(c));
        }
        if let Some(m) = &table.model {
            self.model = Some(s(m));
        }
        if let Some(ms) = table.timeout_ms {
            self.timeout = Sourced::new(Duration::from_millis(ms), origin.clone());
        }
        if let Some(n) = table.max_parallel {
            let n = usize::try_from(n).unwrap_or(usize::MAX).max(1);
            self.max_parallel = Some(Sourced::new(n, origin.clone()));
        }
        for name in &table.env {
            if !self.env.iter().any(|e| &e.value == name) {
                self.env.push(s(name));
            }
        }
        for (name, t) in &table.backends {
            let Some(kind) = BackendKind::parse(name) else {
                continue;
            };
            let b = self.backends.entry(kind).or_default();
            for (alias, model) in &t.models {
                b.models.insert(alias.clone(), s(model));
            }
            if let Some(v) = &t.executable {
                b.executable = Some(s(v));
            }
            if !t.args.is_empty() {
                b.args = Some(Sourced::new(t.args.clone(), origin.clone()));
            }
            if let Some(v) = &t.base_url {
                b.base_url = Some(s(v));
            }
            if let Some(v) = &t.api_key_env {
                b.api_key_env = Some(s(v));
            }
            if let Some(v) = &t.model {
                b.model = Some(s(v));
            }
            if let Some(v) = &t.script {
                b.script = Some(Sourced::new(base_dir.join(v), origin.clone()));
            }
        }
    }

    /// The settings of one backend (defaults when none were given).
    pub fn backend_settings(&self, kind: BackendKind) -> BackendSettings {
        self.backends.get(&kind).cloned().unwrap_or_default()
    }

    /// The model name `kind` is configured to use for `alias`.
    pub fn model_name(&self, kind: BackendKind, alias: &str) -> Option<String> {
        let b = self.backends.get(&kind)?;
        b.models
            .get(alias)
            .or(b.model.as_ref())
            .map(|m| m.value.clone())
    }

    /// The values taken from a repository's `prose.toml` that choose what
    /// runs or where prompts go: the command, a CLI executable or its
    /// arguments, a base URL, environment passthrough. Workspace trust asks
    /// the user before a run uses them.
    pub fn needs_consent(&self) -> Vec<ConsentItem> {
        let mut out = Vec::new();
        let mut push = |key: String, value: String, origin: &Origin| {
            if let Origin::RepositoryFile(file) = origin {
                out.push(ConsentItem {
                    key,
                    value,
                    file: file.clone(),
                });
            }
        };
        if let Some(c) = &self.command {
            push("runner.command".into(), c.value.clone(), &c.origin);
        }
        for e in &self.env {
            push("runner.env".into(), e.value.clone(), &e.origin);
        }
        for (kind, b) in &self.backends {
            if let Some(v) = &b.executable {
                push(
                    format!("runner.{kind}.executable"),
                    v.value.clone(),
                    &v.origin,
                );
            }
            if let Some(v) = &b.args {
                push(format!("runner.{kind}.args"), v.value.join(" "), &v.origin);
            }
            if let Some(v) = &b.base_url {
                push(
                    format!("runner.{kind}.base_url"),
                    v.value.clone(),
                    &v.origin,
                );
            }
            if let Some(v) = &b.api_key_env {
                push(
                    format!("runner.{kind}.api_key_env"),
                    v.value.clone(),
                    &v.origin,
                );
            }
        }
        out
    }

    /// The values of [`RunnerConfig::needs_consent`] that a run with the
    /// backend `kind` would use: the command and environment passthrough
    /// for the backends that start processes (`command`, `claude`,
    /// `codex`), the executable and arguments of the CLI backend in use,
    /// the endpoint (unless it is the vendor's own) and key variable of the
    /// HTTP backend in use. The mock uses none.
    pub fn needs_consent_for(&self, kind: BackendKind) -> Vec<ConsentItem> {
        let spawns = matches!(
            kind,
            BackendKind::Command | BackendKind::Claude | BackendKind::Codex
        );
        let own = format!("runner.{kind}.");
        let default_url = match kind {
            BackendKind::Openai => Some(crate::backend::openai::DEFAULT_BASE_URL),
            BackendKind::Anthropic => Some(crate::backend::anthropic::DEFAULT_BASE_URL),
            _ => None,
        };
        self.needs_consent()
            .into_iter()
            .filter(|item| match item.key.as_str() {
                "runner.command" => kind == BackendKind::Command,
                "runner.env" => spawns,
                key if key.ends_with(".base_url") => {
                    key.starts_with(&own)
                        && default_url.is_none_or(|d| {
                            item.value.trim_end_matches('/') != d.trim_end_matches('/')
                        })
                }
                key => key.starts_with(&own),
            })
            .collect()
    }
}

/// The configuration `prose run` and the language server start from:
/// defaults, then the `[runner]` table of the user's `~/.prose/prose.toml`
/// (`home` is `$PROSE_HOME` or `$HOME`), then the repository's `prose.toml`
/// (`repo`, already parsed, from `root`). Callers lay their own layer over
/// it (flags, editor settings).
pub fn layered(
    root: &Path,
    home: Option<&Path>,
    repo: &prose_ide::Config,
) -> Result<RunnerConfig, String> {
    let mut config = RunnerConfig::default();
    if let Some(home) = home {
        let dir = home.join(".prose");
        let path = dir.join(prose_ide::config::CONFIG_FILE);
        if path.is_file() {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let user = prose_ide::Config::from_toml(&text)
                .map_err(|e| format!("{}: {}", path.display(), e.message))?;
            config.apply(&user.runner, &Origin::UserFile(path.clone()), &dir);
        }
    }
    config.apply(
        &repo.runner,
        &Origin::RepositoryFile(root.join(prose_ide::config::CONFIG_FILE)),
        root,
    );
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prose_ide::Config;

    fn table(text: &str) -> RunnerTable {
        Config::from_toml(text).unwrap().runner
    }

    #[test]
    fn layers_override_and_keep_their_origin() {
        let mut c = RunnerConfig::default();
        let user = Origin::UserFile("/home/u/.prose/prose.toml".into());
        let repo = Origin::RepositoryFile("/ws/prose.toml".into());
        c.apply(
            &table("[runner]\nbackend = \"claude\"\nenv = [\"A\"]\n[runner.claude]\nmodels = { opus = \"o1\" }\n"),
            &user,
            Path::new("/home/u/.prose"),
        );
        c.apply(
            &table("[runner]\ncommand = \"agent\"\nenv = [\"B\", \"A\"]\n[runner.mock]\nscript = \"m.toml\"\n[runner.openai]\nbase_url = \"http://x/v1\"\n"),
            &repo,
            Path::new("/ws"),
        );
        let flags = RunnerTable {
            backend: Some("mock".into()),
            ..RunnerTable::default()
        };
        c.apply(&flags, &Origin::CommandLine, Path::new("/cwd"));

        assert_eq!(c.backend.as_ref().unwrap().value, BackendKind::Mock);
        assert_eq!(c.backend.as_ref().unwrap().origin, Origin::CommandLine);
        assert_eq!(c.command.as_ref().unwrap().origin, repo);
        assert_eq!(
            c.env
                .iter()
                .map(|e| (e.value.as_str(), &e.origin))
                .collect::<Vec<_>>(),
            [("A", &user), ("B", &repo)]
        );
        assert_eq!(
            c.model_name(BackendKind::Claude, "opus").as_deref(),
            Some("o1")
        );
        assert_eq!(c.model_name(BackendKind::Claude, "haiku"), None);
        assert_eq!(
            c.backend_settings(BackendKind::Mock).script.unwrap().value,
            PathBuf::from("/ws/m.toml")
        );
        let consent: Vec<String> = c
            .needs_consent()
            .iter()
            .map(|i| format!("{}={}", i.key, i.value))
            .collect();
        assert_eq!(
            consent,
            [
                "runner.command=agent",
                "runner.env=B",
                "runner.openai.base_url=http://x/v1"
            ]
        );
    }

    #[test]
    fn http_backends_fall_back_to_their_model() {
        let mut c = RunnerConfig::default();
        c.apply(
            &table("[runner.openai]\nmodel = \"llama\"\nmodels = { opus = \"big\" }\n"),
            &Origin::Default,
            Path::new("/"),
        );
        assert_eq!(
            c.model_name(BackendKind::Openai, "opus").as_deref(),
            Some("big")
        );
        assert_eq!(
            c.model_name(BackendKind::Openai, "sonnet").as_deref(),
            Some("llama")
        );
    }
}
