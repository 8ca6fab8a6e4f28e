//! Running a backend's child process safely: never through a shell, with a
//! minimal environment, a timeout, and the whole process tree killed on
//! timeout, cancel or drop.
//!
//! The `command`, `claude` and `codex` backends use [`run_process`].
//!
//! On Unix the child leads a process group of its own, so killing the group
//! also kills what it started (an agent CLI's tool processes). After the
//! child exits, its output pipes are read to the end; if something it left
//! behind still holds them open after [`PIPE_GRACE`], the group is killed
//! too (that something is alive, so the group id cannot have been reused).

use std::{
    path::{Path, PathBuf},
    process::Stdio,
    time::Duration,
};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use super::{BackendError, CancellationToken};

/// How long the output pipes may stay open after the child exited.
pub const PIPE_GRACE: Duration = Duration::from_secs(2);

/// At most this much of stdout and of stderr is kept (the rest is read and
/// dropped, so the child never blocks on a full pipe).
pub const OUTPUT_LIMIT: usize = 32 * 1024 * 1024;

/// Environment variables every child process gets when they are set: what
/// programs need to find their tools, home, locale, temporary directory,
/// certificates and proxies. Everything else (API keys in particular) is
/// passed only when the configuration names it (`[runner] env`) or the
/// backend adds it.
pub const BASE_ENVIRONMENT: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "TERM",
    "TMPDIR",
    "TZ",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
    "XDG_RUNTIME_DIR",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    // Windows
    "SYSTEMROOT",
    "SYSTEMDRIVE",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "APPDATA",
    "LOCALAPPDATA",
    "USERPROFILE",
    "TEMP",
    "TMP",
];

/// The environment of a child process: [`BASE_ENVIRONMENT`], every `LC_*`
/// variable, and the variables named in `passthrough`, as far as they are
/// set in this process.
pub fn base_environment(passthrough: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in std::env::vars_os() {
        let (Some(k), Some(v)) = (k.to_str(), v.to_str()) else {
            continue;
        };
        let wanted = BASE_ENVIRONMENT.contains(&k)
            || k.starts_with("LC_")
            || passthrough.iter().any(|p| p == k);
        if wanted {
            out.push((k.to_string(), v.to_string()));
        }
    }
    out.sort();
    out
}

/// The full path of an executable: `name` itself when it contains a path
/// separator, else the first match on `PATH`.
pub fn find_executable(name: &str) -> Option<PathBuf> {
    let is_exec = |p: &Path| {
        let Ok(meta) = p.metadata() else {
            return false;
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            meta.is_file() && meta.permissions().mode() & 0o111 != 0
        }
        #[cfg(not(unix))]
        {
            meta.is_file()
        }
    };
    if name.contains('/') || name.contains(std::path::MAIN_SEPARATOR) {
        let p = PathBuf::from(name);
        return is_exec(&p).then_some(p);
    }
    let exts: Vec<String> = if cfg!(windows) {
        std::env::var("PATHEXT")
            .unwrap_or_else(|_| ".EXE;.CMD;.BAT".into())
            .split(';')
            .map(|e| e.to_string())
            .chain([String::new()])
            .collect()
    } else {
        vec![String::new()]
    };
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|dir| {
        exts.iter()
            .map(|ext| dir.join(format!("{name}{ext}")))
            .find(|p| is_exec(p))
    })
}

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProcessSpec {
    pub program: String,
    pub args: Vec<String>,
    /// Written to the child's stdin, which is then closed.
    pub stdin: String,
    /// The child's whole environment (start from [`base_environment`]).
    pub env: Vec<(String, String)>,
    pub cwd: Option<PathBuf>,
    pub timeout: Duration,
}

/// How a child process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessOutput {
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// stdout, decoded as UTF-8 (invalid bytes replaced).
    pub stdout: String,
    pub stderr: String,
}

impl ProcessOutput {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// Kills the child's process group when dropped, unless disarmed.
struct GroupGuard {
    pid: Option<u32>,
}

impl GroupGuard {
    fn kill(&self) {
        #[cfg(unix)]
        if let Some(pid) = self.pid
            && let Ok(pid) = i32::try_from(pid)
        {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn read_capped<R: AsyncRead + Unpin>(reader: Option<R>) -> Vec<u8> {
    let Some(mut r) = reader else {
        return Vec::new();
    };
    let mut buf = Vec::new();
    let _ = (&mut r)
        .take(OUTPUT_LIMIT as u64)
        .read_to_end(&mut buf)
        .await;
    let _ = tokio::io::copy(&mut r, &mut tokio::io::sink()).await;
    buf
}

/// Runs `spec` to completion. Errors: `Unavailable` when the program cannot
/// be started, `Timeout` after `spec.timeout`, `Cancelled` when `cancel`
/// fires; in the last two cases the process group is killed first. A
/// non-zero exit is not an error here: the caller decides.
pub async fn run_process(
    spec: &ProcessSpec,
    cancel: &CancellationToken,
) -> Result<ProcessOutput, BackendError> {
    let mut cmd = tokio::process::Command::new(&spec.program);
    cmd.args(&spec.args)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(cwd) = &spec.cwd {
        cmd.current_dir(cwd);
    }
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd.spawn().map_err(|e| {
        let what = if e.kind() == std::io::ErrorKind::NotFound {
            "not found".to_string()
        } else {
            e.to_string()
        };
        BackendError::unavailable(format!("cannot start `{}`: {what}", spec.program))
    })?;
    let mut guard = GroupGuard { pid: child.id() };

    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let input = spec.stdin.as_bytes();
    let write = async move {
        if let Some(mut s) = stdin {
            // A child that does not read its stdin closes the pipe: not an error.
            let _ = s.write_all(input).await;
            let _ = s.shutdown().await;
        }
    };
    let io = async { tokio::join!(write, read_capped(stdout), read_capped(stderr)) };
    let (exited_tx, exited_rx) = tokio::sync::oneshot::channel::<()>();
    let wait = async {
        let status = child.wait().await;
        let _ = exited_tx.send(());
        status
    };
    let io_with_grace = async {
        tokio::pin!(io);
        tokio::select! {
            done = &mut io => done,
            () = async {
                if exited_rx.await.is_ok() {
                    tokio::time::sleep(PIPE_GRACE).await;
                    guard.kill();
                }
                std::future::pending::<()>().await
            } => unreachable!(),
        }
    };
    let run = async { tokio::join!(wait, io_with_grace) };

    let outcome = tokio::select! {
        biased;
        () = cancel.cancelled() => Err(BackendError::cancelled()),
        () = tokio::time::sleep(spec.timeout) => Err(BackendError::timeout(format!(
            "`{}` did not finish within {}; it was stopped",
            spec.program,
            humantime::format_duration(spec.timeout)
        ))),
        (status, ((), out, err)) = run => Ok((status, out, err)),
    };
    match outcome {
        Err(e) => {
            guard.kill();
            Err(e)
        }
        Ok((status, out, err)) => {
            let status = status.map_err(|e| {
                BackendError::failed(format!("waiting for `{}` failed: {e}", spec.program))
            })?;
            // Everything has exited and the pipes are closed: nothing left
            // to kill, and the group id may be reused from now on.
            guard.pid = None;
            Ok(ProcessOutput {
                code: status.code(),
                stdout: String::from_utf8_lossy(&out).into_owned(),
                stderr: String::from_utf8_lossy(&err).into_owned(),
            })
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str, timeout: Duration) -> ProcessSpec {
        ProcessSpec {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            stdin: "hello from stdin".into(),
            env: base_environment(&[]),
            cwd: None,
            timeout,
        }
    }

    #[tokio::test]
    async fn passes_stdin_and_collects_output_and_status() {
        let out = run_process(
            &sh("cat; echo oops >&2; exit 3", Duration::from_secs(30)),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
        assert_eq!(out.code, Some(3));
        assert_eq!(out.stdout, "hello from stdin");
        assert_eq!(out.stderr, "oops\n");
    }

    #[tokio::test]
    async fn a_missing_program_is_unavailable() {
        let spec = ProcessSpec {
            program: "/nonexistent/prose-test-program".into(),
            timeout: Duration::from_secs(5),
            ..Default::default()
        };
        let e = run_process(&spec, &CancellationToken::new())
            .await
            .unwrap_err();
        assert_eq!(e.kind, super::super::BackendErrorKind::Unavailable);
        assert!(e.message.contains("not found"), "{e}");
    }

    #[tokio::test]
    async fn timeout_and_cancel_kill_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("grandchild-survived");
        // A grandchild that would write the marker after 2 s.
        let script = format!("(sleep 2; touch {}) & sleep 30", marker.display());
        let e = run_process(
            &sh(&script, Duration::from_millis(300)),
            &CancellationToken::new(),
        )
        .await
        .unwrap_err();
        assert_eq!(e.kind, super::super::BackendErrorKind::Timeout);

        let cancel = CancellationToken::new();
        let c = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            c.cancel();
        });
        let e = run_process(&sh(&script, Duration::from_secs(60)), &cancel)
            .await
            .unwrap_err();
        assert_eq!(e.kind, super::super::BackendErrorKind::Cancelled);

        tokio::time::sleep(Duration::from_secs(3)).await;
        assert!(!marker.exists(), "a grandchild outlived the kill");
    }

    #[tokio::test]
    async fn a_leftover_process_holding_the_pipes_is_killed_after_the_grace() {
        let out = run_process(
            &sh("echo done; sleep 60 &", Duration::from_secs(60)),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
        assert_eq!(out.stdout, "done\n");
    }

    #[test]
    fn minimal_environment() {
        let env = base_environment(&["PROSE_TEST_NOT_SET_ANYWHERE".into()]);
        assert!(env.iter().any(|(k, _)| k == "PATH"));
        assert!(!env.iter().any(|(k, _)| k == "PROSE_TEST_NOT_SET_ANYWHERE"));
        assert!(find_executable("sh").is_some());
        assert!(find_executable("/nonexistent/sh").is_none());
    }
}
