//! What the build scripts of the `prose` and `prose-lsp` binaries share:
//! how they are linked.
//!
//! - [`link_position_dependent`]: `-no-pie` on Linux, so the loader has no
//!   pointers to fix up at start.
//! - [`order_code`]: the code order file (`crates/prose-cli/layout/prose.order`,
//!   the functions `prose check` and the language server run) handed to
//!   the linker, which puts those functions together.
//! - [`order_data`]: the same for the read-only data a check reads
//!   (`crates/prose-cli/layout/prose.data`, input sections, through a
//!   linker script), and the link map its recording reads.
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     prose_build::link_position_dependent();
//!     prose_build::order_code(std::path::Path::new("layout/prose.order"));
//!     prose_build::order_data(std::path::Path::new("layout/prose.data"));
//! }
//! ```

mod data;

use std::path::Path;

pub use data::order_data;

/// Links the package's binaries position-dependent (`-no-pie`) on Linux,
/// unless `PROSE_PIE` is set when building.
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
pub fn link_position_dependent() {
    println!("cargo:rerun-if-env-changed=PROSE_PIE");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    if linux && std::env::var_os("PROSE_PIE").is_none() {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}

/// Has the linker put the functions listed in `order` (relative to the
/// package's directory) next to each other, in the file's order
/// (`--symbol-ordering-file`).
///
/// The 2,000 functions a check of every kind of document runs are 1.9 MB of
/// the binary's 11.8 MB of code. Spread over all of it, they made the
/// kernel map 5-6 MB of code pages (it maps the pages around each one a run
/// touches); packed, about 2 MB: `prose check` on the corpus peaks about
/// 3.1 MB lower, on one line 2.5 MB (docs/performance/peer-2026-12-01.md,
/// "The code a check runs, put together"). The language server's functions
/// follow them. `crates/prose-cli/layout/record.py` writes the file from a
/// release build (see `layout/README.md` beside it); symbols a binary lacks
/// are skipped, so a stale file costs memory, never a build, and a missing
/// file is no order.
///
/// Only where rustc links with its own lld, which reads the file: release
/// builds (and benches) for x86-64 Linux by rustc 1.90 or later, with no
/// linker of the user's (`PROSE_NO_CODE_ORDER=1` turns it off too).
pub fn order_code(order: &Path) {
    println!("cargo:rerun-if-env-changed=PROSE_NO_CODE_ORDER");
    let var = |name: &str| std::env::var(name).ok();
    let order = Path::new(&var("CARGO_MANIFEST_DIR").unwrap_or_default()).join(order);
    println!("cargo:rerun-if-changed={}", order.display());
    for arg in order_args(var, rustc_minor, &order, order.is_file()) {
        println!("cargo:rustc-link-arg-bins={arg}");
    }
}

/// The linker arguments that hand `order` (which exists or not) to the
/// linker, given the build's environment `var` and the minor version of
/// its rustc (asked last, only when the rest allows an order): none where
/// the file is missing or the linker may not be rustc's lld.
fn order_args(
    var: impl Fn(&str) -> Option<String>,
    rustc_minor: impl FnOnce() -> Option<u32>,
    order: &Path,
    exists: bool,
) -> Vec<String> {
    if !(exists && lld_links(&var, rustc_minor)) {
        return Vec::new();
    }
    vec![
        format!("-Wl,--symbol-ordering-file={}", order.display()),
        // Without it, lld warns about every symbol a new build renamed.
        "-Wl,--no-warn-symbol-ordering".to_string(),
    ]
}

/// Whether the build links with rustc's own lld, which reads the layout
/// files: a release build (or bench) for x86-64 Linux by rustc 1.90 or
/// later, with no linker of the user's and no `PROSE_NO_CODE_ORDER`
/// (`rustc_minor` is asked last).
fn lld_links(
    var: &impl Fn(&str) -> Option<String>,
    rustc_minor: impl FnOnce() -> Option<u32>,
) -> bool {
    var("PROFILE").as_deref() == Some("release")
        && var("TARGET").as_deref() == Some("x86_64-unknown-linux-gnu")
        && var("PROSE_NO_CODE_ORDER").is_none()
        && var("RUSTC_LINKER").is_none()
        && !var("CARGO_ENCODED_RUSTFLAGS")
            .unwrap_or_default()
            .split('\x1f')
            .any(|flag| flag.contains("linker") || flag.contains("fuse-ld"))
        && rustc_minor().is_some_and(|minor| minor >= 90)
}

/// The minor version of the rustc building the package (90 for 1.90.0).
fn rustc_minor() -> Option<u32> {
    let rustc = std::env::var_os("RUSTC")?;
    let out = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()?;
    minor_of(&String::from_utf8(out.stdout).ok()?)
}

/// The minor version in `rustc --version`'s output.
fn minor_of(version: &str) -> Option<u32> {
    let mut numbers = version.split_whitespace().nth(1)?.split('.');
    (numbers.next()? == "1").then_some(())?;
    numbers.next()?.parse().ok()
}

/// `base`'s build environment with `name` set to `value`, for the tests.
#[cfg(test)]
fn with(
    base: fn(&str) -> Option<String>,
    name: &'static str,
    value: &'static str,
) -> impl Fn(&str) -> Option<String> {
    move |n: &str| {
        if n == name {
            Some(value.to_string())
        } else {
            base(n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{minor_of, order_args, with};
    use std::path::Path;

    /// A release build for x86-64 Linux with nothing set.
    fn release(name: &str) -> Option<String> {
        match name {
            "PROFILE" => Some("release".into()),
            "TARGET" => Some("x86_64-unknown-linux-gnu".into()),
            _ => None,
        }
    }

    #[test]
    fn a_release_build_hands_the_file_to_lld() {
        let order = Path::new("/src/layout/prose.order");
        assert_eq!(
            order_args(release, || Some(95), order, true),
            [
                "-Wl,--symbol-ordering-file=/src/layout/prose.order",
                "-Wl,--no-warn-symbol-ordering"
            ]
        );
    }

    #[test]
    fn other_builds_and_linkers_get_no_order() {
        let order = Path::new("prose.order");
        let with = |name, value| with(release, name, value);
        assert!(order_args(release, || Some(95), order, false).is_empty());
        assert!(order_args(release, || Some(89), order, true).is_empty());
        assert!(order_args(release, || None, order, true).is_empty());
        assert!(order_args(with("PROFILE", "debug"), || Some(95), order, true).is_empty());
        let arm = with("TARGET", "aarch64-unknown-linux-gnu");
        assert!(order_args(arm, || Some(95), order, true).is_empty());
        assert!(order_args(with("PROSE_NO_CODE_ORDER", "1"), || Some(95), order, true).is_empty());
        assert!(order_args(with("RUSTC_LINKER", "clang"), || Some(95), order, true).is_empty());
        let mold = with("CARGO_ENCODED_RUSTFLAGS", "-C\x1flink-arg=-fuse-ld=mold");
        assert!(order_args(mold, || Some(95), order, true).is_empty());
        let other = with("CARGO_ENCODED_RUSTFLAGS", "-C\x1ftarget-cpu=native");
        assert_eq!(order_args(other, || Some(95), order, true).len(), 2);
    }

    #[test]
    fn reads_rustcs_minor_version() {
        assert_eq!(minor_of("rustc 1.95.0 (59807616e 2026-04-14)"), Some(95));
        assert_eq!(minor_of("rustc 1.90.0-nightly (abc 2025-06-01)"), Some(90));
        assert_eq!(minor_of("rustc 2.0.0"), None);
        assert_eq!(minor_of(""), None);
    }
}
