//! Run ids, the runs directory, and `run.json`.

use std::{
    collections::BTreeMap,
    io,
    path::{Path, PathBuf},
    time::SystemTime,
};

use serde::{Deserialize, Serialize};

/// `{root}/.prose/runs`.
pub fn runs_dir(root: &Path) -> PathBuf {
    root.join(".prose").join("runs")
}

/// A new run id, `{YYYYMMDD}-{HHMMSS}-{random6}` (UTC).
pub fn new_run_id() -> String {
    // "2026-01-15T14:30:52Z"
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
    let digits: String = stamp.chars().filter(char::is_ascii_digit).collect();
    let (date, time) = digits.split_at(8.min(digits.len()));
    let random: String = (0..6)
        .map(|_| {
            let n = fastrand::u8(0..36);
            char::from_digit(u32::from(n), 36).unwrap_or('0')
        })
        .collect();
    format!("{date}-{}-{random}", &time[..6.min(time.len())])
}

/// What a run was started with, and how it ended (`run.json`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RunMeta {
    pub run_id: String,
    /// The program's path as given.
    pub program: String,
    /// The workspace root, absolute.
    pub root: PathBuf,
    pub backend: String,
    /// Inputs given when the run started (`--input`).
    pub inputs: BTreeMap<String, String>,
    pub started: String,
    /// `running`, `succeeded`, `failed` or `cancelled`.
    pub status: String,
    pub finished: Option<String>,
    pub error: Option<String>,
    /// How many times the run was resumed.
    pub resumes: u32,
    /// The run was started with `--allow-unenforced-permissions` while
    /// these rules could not be enforced.
    pub allow_unenforced_permissions: bool,
    pub unenforced_permissions: Vec<String>,
    /// For a job task's run: the task and how it was started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMeta>,
}

/// How a job task's run was started (`run.json`'s `task`): what a resume
/// needs besides the entry's copy and the inputs.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TaskMeta {
    /// The task's name.
    pub name: String,
    /// The keyword of the previous job (`--previous-job`).
    pub previous_job: Option<String>,
    /// The name of the previous task (`--previous-task`).
    pub previous_task: Option<String>,
    /// The single-model option was asked for (`--single-model`).
    pub single_model: bool,
    /// The model of a task that names none (`--model`, `[runner] model`).
    pub model: Option<String>,
}

impl RunMeta {
    /// The record of a run that starts now, with `inputs`.
    pub fn starting(
        program: String,
        root: &Path,
        backend: &str,
        inputs: BTreeMap<String, String>,
    ) -> RunMeta {
        RunMeta {
            program,
            root: std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf()),
            backend: backend.to_string(),
            inputs,
            started: crate::events::now_rfc3339(),
            status: "running".into(),
            ..RunMeta::default()
        }
    }

    /// A reopened run runs again.
    pub fn resuming(&mut self) {
        self.resumes += 1;
        self.status = "running".into();
        self.finished = None;
        self.error = None;
    }

    /// How the run ended.
    pub fn finish(&mut self, status: &str, error: Option<String>) {
        self.status = status.into();
        self.finished = Some(crate::events::now_rfc3339());
        self.error = error;
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn read(path: &Path) -> io::Result<RunMeta> {
        let text = std::fs::read_to_string(path)?;
        serde_json::from_str(&text).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", path.display()),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_ids_have_the_runtime_format() {
        let id = new_run_id();
        let parts: Vec<&str> = id.split('-').collect();
        assert_eq!(parts.len(), 3, "{id}");
        assert_eq!(parts[0].len(), 8);
        assert!(parts[0].bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(parts[1].len(), 6);
        assert_eq!(parts[2].len(), 6);
        assert!(
            parts[2]
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        );
    }
}
