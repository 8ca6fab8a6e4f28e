//! Puts the commit the binary is built from into its version:
//! `prose --version` prints `prose 0.1.0 (1a2b3c4d5e6f 2026-11-25)`.
//!
//! The commit comes from `git` when the sources are a checkout, else from
//! the `.cargo_vcs_info.json` that `cargo package` writes; without either
//! the version is printed alone. The build script runs again when the
//! checkout moves to another commit.
//!
//! On Linux the binary is linked position-dependent, and a release build on
//! x86-64 Linux puts the code a check and the language server run together,
//! in the order of `layout/prose.order` (the prose-build crate, which
//! prose-lsp's build script shares).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// The commit recorded by `cargo package`, for a build from a package.
fn packaged_commit() -> Option<String> {
    let info = std::fs::read_to_string(".cargo_vcs_info.json").ok()?;
    let rest = &info[info.find("\"sha1\"")? + "\"sha1\"".len()..];
    let start = rest.find('"')? + 1;
    let end = start + rest[start..].find('"')?;
    Some(rest[start..end].chars().take(12).collect())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let described = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => {
            // Rebuild when HEAD moves: a new commit on the branch, or
            // another branch checked out.
            for path in ["HEAD", "packed-refs"] {
                if let Some(p) = git(&["rev-parse", "--git-path", path]) {
                    println!("cargo:rerun-if-changed={p}");
                }
            }
            if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
                && let Some(p) = git(&["rev-parse", "--git-path", &branch])
            {
                println!("cargo:rerun-if-changed={p}");
            }
            match git(&["log", "-1", "--format=%cs"]) {
                Some(date) => format!("{version} ({commit} {date})"),
                None => format!("{version} ({commit})"),
            }
        }
        None => match packaged_commit() {
            Some(commit) => format!("{version} ({commit})"),
            None => version,
        },
    };
    println!("cargo:rustc-env=PROSE_VERSION={described}");
    prose_build::link_position_dependent();
    prose_build::order_code(std::path::Path::new("layout/prose.order"));
    prose_build::order_data(std::path::Path::new("layout/prose.data"));
}
