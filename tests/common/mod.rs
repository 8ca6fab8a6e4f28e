//! Helpers for the end-to-end tests: run the built binaries in a scratch
//! directory.
//!
//! How the binary gets built: an integration test can only rely on binaries
//! of its own package (cargo builds them first and sets
//! `CARGO_BIN_EXE_<name>`); a dependency on another package's binary needs
//! the unstable artifact dependencies, and a plain `[dev-dependencies]` entry
//! on `prose-cli` builds only its library. So this package has a binary
//! `e2e-prose` (tests/bin/prose.rs) whose `main` is the same one line as
//! `crates/prose-cli/src/main.rs`: `prose_cli::main()`. `cargo test -p
//! prose-e2e` from a clean target directory therefore always builds and
//! tests the current CLI code, with no nested cargo call.

// Each tests/*.rs file compiles this module on its own and uses a subset.
#![allow(dead_code)]

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    sync::atomic::{AtomicUsize, Ordering},
};

/// The `prose` command line under test.
pub fn prose_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_e2e-prose"))
}

/// The outcome of one run.
#[derive(Debug)]
pub struct Run {
    /// The exit status (`-1` when killed by a signal).
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// A fresh directory under the system temp dir, removed on drop. Commands
/// run inside it, so the paths they print are the relative ones given.
pub struct Sandbox {
    dir: PathBuf,
}

impl Sandbox {
    pub fn new(name: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "prose-e2e-{}-{}-{name}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create the sandbox directory");
        Sandbox { dir }
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Writes a file (any bytes), creating its parent directories.
    pub fn write(&self, rel: &str, contents: impl AsRef<[u8]>) -> &Self {
        let path = self.dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create parent directories");
        }
        fs::write(&path, contents).expect("write a fixture file");
        self
    }

    pub fn mkdir(&self, rel: &str) -> &Self {
        fs::create_dir_all(self.dir.join(rel)).expect("create a directory");
        self
    }

    /// Runs `prose ARGS` in the sandbox, with the colour variables cleared.
    pub fn prose(&self, args: &[&str]) -> Run {
        self.prose_with_env(args, &[])
    }

    /// Like [`Sandbox::prose`], with extra environment variables.
    pub fn prose_with_env(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        self.run_in(&self.dir, args, env)
    }

    /// Runs `prose ARGS` in the sandbox subdirectory `rel`.
    pub fn prose_in(&self, rel: &str, args: &[&str]) -> Run {
        self.run_in(&self.dir.join(rel), args, &[])
    }

    /// Runs `prose ARGS` in the sandbox with `input` on stdin.
    pub fn prose_with_stdin(&self, args: &[&str], input: &[u8]) -> Run {
        self.run(&self.dir, args, &[], Some(input))
    }

    fn run_in(&self, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
        self.run(dir, args, env, None)
    }

    fn run(&self, dir: &Path, args: &[&str], env: &[(&str, &str)], input: Option<&[u8]>) -> Run {
        use std::io::Write;
        let mut cmd = Command::new(prose_bin());
        cmd.args(args).current_dir(dir);
        for var in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
            cmd.env_remove(var);
        }
        cmd.envs(env.iter().copied());
        cmd.stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().expect("run the prose binary");
        let mut stdin = child.stdin.take().expect("a stdin pipe");
        // Written on its own thread: the child may fill its output pipes first.
        let input = input.unwrap_or_default().to_vec();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().expect("wait for the prose binary");
        writer.join().expect("the stdin writer");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}
