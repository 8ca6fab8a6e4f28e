//! The editor's runner settings (`runner.*` of docs/lsp.md, "Editor
//! settings") and the runner configuration of a run started from the
//! editor.
//!
//! ```json
//! { "runner": { "backend": "command", "command": "my-agent --quiet",
//!               "args": ["--fast"], "env": ["MY_TOKEN"] } }
//! ```
//!
//! The settings are one layer, [`Origin::EditorSettings`], over the user's
//! `~/.prose/prose.toml` and the repository's `prose.toml`: the editor
//! decides their trust (VS Code gives only user-level values of the
//! restricted ones in an untrusted workspace), so they never need the
//! consent a repository's values need. `executable`, `args` and `baseUrl`
//! go to the backend in use: `executable` and `args` to a CLI backend
//! (`args` are appended to the `command` backend's command line),
//! `baseUrl` to an HTTP backend.

use std::path::Path;

use prose_ide::config::{RunnerTable, runner::BackendTable};
use prose_runner::{
    backend::{BackendKind, select_backend},
    config::{Origin, RunnerConfig, layered},
};
use serde_json::Value;

/// The `runner` object of the settings; `None` / absent: not set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunnerSettings {
    pub backend: Option<String>,
    pub executable: Option<String>,
    pub command: Option<String>,
    pub args: Option<Vec<String>>,
    pub base_url: Option<String>,
    pub env: Option<Vec<String>>,
}

fn string(
    map: &serde_json::Map<String, Value>,
    key: &str,
    problems: &mut Vec<String>,
) -> Option<String> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            problems.push(format!(
                "prose.runner.{key}: expected a string, found `{other}`"
            ));
            None
        }
    }
}

fn strings(
    map: &serde_json::Map<String, Value>,
    key: &str,
    problems: &mut Vec<String>,
) -> Option<Vec<String>> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for item in items {
                match item {
                    Value::String(s) => out.push(s.clone()),
                    other => {
                        problems.push(format!(
                            "prose.runner.{key}: expected an array of strings, found `{other}` in it"
                        ));
                        return None;
                    }
                }
            }
            (!out.is_empty()).then_some(out)
        }
        Some(other) => {
            problems.push(format!(
                "prose.runner.{key}: expected an array of strings, found `{other}`"
            ));
            None
        }
    }
}

impl RunnerSettings {
    /// Reads the `runner` value of the settings (an object); a bad value
    /// is reported in `problems` and left unset.
    pub fn from_json(value: Option<&Value>, problems: &mut Vec<String>) -> RunnerSettings {
        let map = match value {
            None | Some(Value::Null) => return RunnerSettings::default(),
            Some(Value::Object(map)) => map,
            Some(other) => {
                problems.push(format!("prose.runner: expected an object, found `{other}`"));
                return RunnerSettings::default();
            }
        };
        let backend = string(map, "backend", problems);
        let backend = match backend {
            Some(b) if BackendKind::parse(&b).is_none() => {
                problems.push(format!(
                    "prose.runner.backend: unknown backend `{b}`: expected one of {}",
                    prose_ide::config::runner::BACKENDS.join(", ")
                ));
                None
            }
            b => b,
        };
        RunnerSettings {
            backend,
            executable: string(map, "executable", problems),
            command: string(map, "command", problems),
            args: strings(map, "args", problems),
            base_url: string(map, "baseUrl", problems),
            env: strings(map, "env", problems),
        }
    }

    /// These settings over `base`, key by key.
    pub fn over(&self, base: &RunnerSettings) -> RunnerSettings {
        RunnerSettings {
            backend: self.backend.clone().or_else(|| base.backend.clone()),
            executable: self.executable.clone().or_else(|| base.executable.clone()),
            command: self.command.clone().or_else(|| base.command.clone()),
            args: self.args.clone().or_else(|| base.args.clone()),
            base_url: self.base_url.clone().or_else(|| base.base_url.clone()),
            env: self.env.clone().or_else(|| base.env.clone()),
        }
    }

    /// The configuration of a run in the repository at `root`: defaults,
    /// the user's `~/.prose/prose.toml` (`home`), the repository's
    /// `prose.toml` (`repo`), these settings, then the backend the command
    /// asked for (`backend`, from `prose.run`'s arguments).
    pub fn config(
        &self,
        root: &Path,
        home: Option<&Path>,
        repo: &prose_ide::Config,
        backend: Option<&str>,
    ) -> Result<RunnerConfig, String> {
        let mut config = layered(root, home, repo)?;
        let backend = match backend.filter(|b| !b.is_empty()) {
            Some(b) if BackendKind::parse(b).is_none() => {
                return Err(format!(
                    "unknown backend `{b}`: expected one of {}",
                    prose_ide::config::runner::BACKENDS.join(", ")
                ));
            }
            Some(b) => Some(b.to_string()),
            None => self.backend.clone(),
        };
        let mut table = RunnerTable {
            backend,
            command: self.command.clone(),
            env: self.env.clone().unwrap_or_default(),
            ..RunnerTable::default()
        };
        config.apply(&table, &Origin::EditorSettings, root);
        // What goes to the backend in use.
        let Ok(kind) = select_backend(&config) else {
            return Ok(config);
        };
        table = RunnerTable::default();
        let mut own = BackendTable::default();
        match kind {
            BackendKind::Claude | BackendKind::Codex => {
                own.executable = self.executable.clone();
                own.args = self.args.clone().unwrap_or_default();
            }
            BackendKind::Openai | BackendKind::Anthropic => own.base_url = self.base_url.clone(),
            BackendKind::Command => {
                if let (Some(args), Some(command)) = (&self.args, &config.command) {
                    let quoted = shlex::try_join(args.iter().map(String::as_str))
                        .map_err(|e| format!("prose.runner.args: {e}"))?;
                    table.command = Some(format!("{} {quoted}", command.value));
                }
            }
            BackendKind::Mock => {}
        }
        table.backends.insert(kind.as_str().to_string(), own);
        config.apply(&table, &Origin::EditorSettings, root);
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn settings(value: Value) -> (RunnerSettings, Vec<String>) {
        let mut problems = Vec::new();
        (
            RunnerSettings::from_json(Some(&value), &mut problems),
            problems,
        )
    }

    #[test]
    fn reads_every_key_and_reports_bad_values() {
        let (s, problems) = settings(json!({
            "backend": "command", "executable": "", "command": "agent --quiet",
            "args": ["--fast"], "baseUrl": "http://127.0.0.1:8080/v1", "env": ["A", "B"]
        }));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            s,
            RunnerSettings {
                backend: Some("command".into()),
                executable: None,
                command: Some("agent --quiet".into()),
                args: Some(vec!["--fast".into()]),
                base_url: Some("http://127.0.0.1:8080/v1".into()),
                env: Some(vec!["A".into(), "B".into()]),
            }
        );
        let (s, problems) = settings(json!({ "backend": "gpt", "env": "A", "args": [1] }));
        assert_eq!(s, RunnerSettings::default());
        assert_eq!(
            problems,
            [
                "prose.runner.backend: unknown backend `gpt`: expected one of claude, codex, openai, anthropic, command, mock",
                "prose.runner.args: expected an array of strings, found `1` in it",
                "prose.runner.env: expected an array of strings, found `\"A\"`",
            ]
        );
    }

    #[test]
    fn the_editor_layer_goes_over_the_files_and_to_the_backend_in_use() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let repo = prose_ide::Config::from_toml(
            "[runner]\nbackend = \"claude\"\ncommand = \"repo-agent\"\n[runner.claude]\nargs = [\"--repo\"]\n",
        )
        .unwrap();
        let (s, _) = settings(json!({ "executable": "/opt/claude", "args": ["--mine"] }));
        let c = s.config(root, None, &repo, None).unwrap();
        let claude = c.backend_settings(BackendKind::Claude);
        assert_eq!(claude.executable.unwrap().origin, Origin::EditorSettings);
        assert_eq!(claude.args.as_ref().unwrap().value, ["--mine"]);
        assert_eq!(claude.args.unwrap().origin, Origin::EditorSettings);
        // The repository's command is still the repository's.
        assert!(matches!(
            c.command.as_ref().unwrap().origin,
            Origin::RepositoryFile(_)
        ));

        // The command's backend wins; args join the command line.
        let (s, _) = settings(json!({ "command": "my agent", "args": ["two words"] }));
        let c = s.config(root, None, &repo, Some("command")).unwrap();
        assert_eq!(c.backend.unwrap().value, BackendKind::Command);
        assert_eq!(c.command.unwrap().value, "my agent 'two words'");
        assert!(s.config(root, None, &repo, Some("gpt")).is_err());

        // baseUrl goes to the HTTP backend in use.
        let (s, _) = settings(json!({ "backend": "openai", "baseUrl": "http://127.0.0.1:1/v1" }));
        let c = s.config(root, None, &repo, None).unwrap();
        assert_eq!(
            c.backend_settings(BackendKind::Openai)
                .base_url
                .unwrap()
                .value,
            "http://127.0.0.1:1/v1"
        );
        assert!(c.needs_consent_for(BackendKind::Openai).is_empty());
    }

    #[test]
    fn later_layers_win_key_by_key() {
        let (init, _) = settings(json!({ "backend": "mock", "env": ["A"] }));
        let (pulled, _) = settings(json!({ "backend": "claude" }));
        let s = pulled.over(&init);
        assert_eq!(s.backend.as_deref(), Some("claude"));
        assert_eq!(s.env, Some(vec!["A".to_string()]));
    }
}
