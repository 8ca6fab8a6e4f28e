//! Puts the commit the binary is built from into its version:
//! `prose --version` prints `prose 0.1.0 (1a2b3c4d5e6f 2026-11-25)`.
//!
//! The commit comes from `git` when the sources are a checkout, else from
//! the `.cargo_vcs_info.json` that `cargo package` writes; without either
//! the version is printed alone. The build script runs again when the
//! checkout moves to another commit.
//!
//! On Linux the binary is linked position-dependent ([`link_position_dependent`]),
//! and a release build on x86-64 Linux puts the code a check runs together
//! ([`order_code`]).

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
    link_position_dependent();
    order_code();
}

/// Links the binary position-dependent (`-no-pie`) on Linux, unless
/// `PROSE_PIE` is set when building.
///
/// A position-independent executable is relocated by the loader at every
/// start: about 25,000 pointers in tables of functions and strings, a
/// 600 KB table read and 380 KB of pages copied before `main`. Linked at a
/// fixed address, those pointers are final in the file and their pages are
/// shared and read only when used: `prose check` on the corpus peaks at
/// about 1.5 MB less memory, and every run starts about 0.4 ms sooner (see
/// docs/performance/peer.md, "Position-dependent binaries"). What is given up
/// is the randomised address of the executable's own code (the libraries,
/// stack and heap are still randomised); `PROSE_PIE=1 cargo build` keeps it.
/// prose-lsp's build script does the same for `prose-lsp`.
fn link_position_dependent() {
    println!("cargo:rerun-if-env-changed=PROSE_PIE");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    if linux && std::env::var_os("PROSE_PIE").is_none() {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}

/// Has the linker put the functions that `prose check` runs next to each
/// other, in the order of `layout/prose.order` (`--symbol-ordering-file`).
///
/// The 2,000 functions a check of every kind of document runs are 1.9 MB of
/// the binary's 11.8 MB of code. Spread over all of it, they made the
/// kernel map 5-6 MB of code pages (it maps the pages around each one a run
/// touches); packed, about 2 MB: `prose check` on the corpus peaks about
/// 3.1 MB lower, on one line 2.5 MB (docs/performance/peer-2026-12-01.md,
/// "The code a check runs, put together").
/// `layout/record.py` writes the file from a release build (see
/// `layout/README.md`); symbols the binary no longer has are skipped, so a
/// stale file costs memory, never a build.
///
/// Only where rustc links with its own lld, which reads the file: release
/// builds (and benches) for x86-64 Linux by rustc 1.90 or later, with no
/// linker of the user's (`PROSE_NO_CODE_ORDER=1` turns it off too).
fn order_code() {
    println!("cargo:rerun-if-env-changed=PROSE_NO_CODE_ORDER");
    println!("cargo:rerun-if-changed=layout/prose.order");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let wanted = var("PROFILE") == "release"
        && var("TARGET") == "x86_64-unknown-linux-gnu"
        && std::env::var_os("PROSE_NO_CODE_ORDER").is_none()
        && std::env::var_os("RUSTC_LINKER").is_none()
        && !var("CARGO_ENCODED_RUSTFLAGS")
            .split('\x1f')
            .any(|flag| flag.contains("linker") || flag.contains("fuse-ld"));
    if !wanted || rustc_minor().is_none_or(|minor| minor < 90) {
        return;
    }
    let order = std::path::Path::new(&var("CARGO_MANIFEST_DIR")).join("layout/prose.order");
    if order.is_file() {
        println!(
            "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
}

/// The minor version of the rustc building the crate (90 for 1.90.0).
fn rustc_minor() -> Option<u32> {
    let rustc = std::env::var_os("RUSTC")?;
    let out = Command::new(rustc).arg("--version").output().ok()?;
    let version = String::from_utf8(out.stdout).ok()?;
    let mut numbers = version.split_whitespace().nth(1)?.split('.');
    (numbers.next()? == "1").then_some(())?;
    numbers.next()?.parse().ok()
}
