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
//! A static build for musl (`--target x86_64-unknown-linux-musl`) takes
//! lists of its own, `prose.musl.order` and `prose.musl.data` (the hashes in
//! its names differ), and is linked by the toolchain's lld as well
//! (`for_target`, `lld_args`).
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
///
/// A static build (`crt-static`, the musl target's default) is left to
/// rustc: `-no-pie` on a static-PIE link makes a binary that crashes at
/// start; `-C relocation-model=static` makes it position-dependent.
pub fn link_position_dependent() {
    println!("cargo:rerun-if-env-changed=PROSE_PIE");
    let var = |name: &str| std::env::var(name).ok();
    let linux = var("CARGO_CFG_TARGET_OS").as_deref() == Some("linux");
    if linux && !crt_static(&var) && var("PROSE_PIE").is_none() {
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
/// Only where lld links, which reads the file: release builds (and
/// benches) for x86-64 Linux by rustc 1.90 or later, with glibc (rustc's
/// own lld) or musl (the toolchain's lld, `lld_args`, and the musl
/// build's own list, `for_target`), with no linker of the user's
/// (`PROSE_NO_CODE_ORDER=1` turns it off too).
pub fn order_code(order: &Path) {
    println!("cargo:rerun-if-env-changed=PROSE_NO_CODE_ORDER");
    let var = |name: &str| std::env::var(name).ok();
    let order = Path::new(&var("CARGO_MANIFEST_DIR").unwrap_or_default()).join(order);
    println!("cargo:rerun-if-changed={}", order.display());
    let order = for_target(&var, &order);
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
    let Some(mut args) = lld_args(&var, gcc_ld) else {
        return Vec::new();
    };
    args.extend([
        format!("-Wl,--symbol-ordering-file={}", order.display()),
        // Without it, lld warns about every symbol a new build renamed.
        "-Wl,--no-warn-symbol-ordering".to_string(),
    ]);
    args
}

/// Whether the C library is linked statically (`crt-static`).
fn crt_static(var: &impl Fn(&str) -> Option<String>) -> bool {
    var("CARGO_CFG_TARGET_FEATURE")
        .unwrap_or_default()
        .split(',')
        .any(|feature| feature == "crt-static")
}

/// The musl target, whose binaries are static.
const MUSL: &str = "x86_64-unknown-linux-musl";

/// The linker arguments that make the link lld's: none for x86-64 glibc,
/// where rustc links with its own lld already; for musl, where rustc
/// drives the system's `cc` and its linker, the toolchain's lld through
/// its `gcc-ld` directory (`gcc_ld`, asked only then), or `None` when the
/// toolchain has none.
pub(crate) fn lld_args(
    var: &impl Fn(&str) -> Option<String>,
    gcc_ld: impl FnOnce() -> Option<std::path::PathBuf>,
) -> Option<Vec<String>> {
    if var("TARGET").as_deref() != Some(MUSL) {
        return Some(Vec::new());
    }
    let dir = gcc_ld()?;
    Some(vec![
        format!("-B{}", dir.display()),
        "-fuse-ld=lld".to_string(),
    ])
}

/// The toolchain's directory holding `ld.lld` for a `cc` to call:
/// `<sysroot>/lib/rustlib/<host>/bin/gcc-ld`, when it is there.
fn gcc_ld() -> Option<std::path::PathBuf> {
    let rustc = std::env::var_os("RUSTC")?;
    let out = std::process::Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let sysroot = String::from_utf8(out.stdout).ok()?;
    let host = std::env::var("HOST").ok()?;
    let dir = Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(host)
        .join("bin/gcc-ld");
    dir.join("ld.lld").is_file().then_some(dir)
}

/// The layout list `path` for this build's target: for musl, `path` with
/// `.musl` before its extension (`prose.musl.order`), recorded from a
/// musl build, when it exists; else `path`.
pub(crate) fn for_target(var: &impl Fn(&str) -> Option<String>, path: &Path) -> std::path::PathBuf {
    if var("TARGET").as_deref() != Some(MUSL) {
        return path.to_path_buf();
    }
    let (Some(stem), Some(ext)) = (path.file_stem(), path.extension()) else {
        return path.to_path_buf();
    };
    let mut name = stem.to_os_string();
    name.push(".musl.");
    name.push(ext);
    let musl = path.with_file_name(name);
    println!("cargo:rerun-if-changed={}", musl.display());
    if musl.is_file() {
        musl
    } else {
        path.to_path_buf()
    }
}

/// Whether the build can link with lld, which reads the layout files: a
/// release build (or bench) for x86-64 Linux (glibc or musl) by rustc 1.90
/// or later, with no linker of the user's and no `PROSE_NO_CODE_ORDER`
/// (`rustc_minor` is asked last).
fn lld_links(
    var: &impl Fn(&str) -> Option<String>,
    rustc_minor: impl FnOnce() -> Option<u32>,
) -> bool {
    var("PROFILE").as_deref() == Some("release")
        && matches!(
            var("TARGET").as_deref(),
            Some("x86_64-unknown-linux-gnu" | MUSL)
        )
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
    use super::{crt_static, for_target, lld_args, lld_links, minor_of, order_args, with};
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

    /// musl builds are linked by the toolchain's lld (glibc ones by rustc's
    /// own already), and take the lists recorded from a musl build where
    /// they exist.
    #[test]
    fn a_musl_build_is_linked_by_lld_with_its_own_lists() {
        let musl = with(release, "TARGET", "x86_64-unknown-linux-musl");
        let dir = || Some(std::path::PathBuf::from("/sysroot/gcc-ld"));
        assert_eq!(lld_args(&release, || unreachable!()), Some(Vec::new()));
        assert_eq!(
            lld_args(&musl, dir),
            Some(vec![
                "-B/sysroot/gcc-ld".to_string(),
                "-fuse-ld=lld".to_string()
            ])
        );
        assert_eq!(lld_args(&musl, || None), None);
        assert!(lld_links(&musl, || Some(95)));
        let static_libc = with(release, "CARGO_CFG_TARGET_FEATURE", "crt-static,sse");
        assert!(crt_static(&static_libc) && !crt_static(&release));

        let tmp = std::env::temp_dir().join(format!("prose-build-musl-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        std::fs::write(tmp.join("prose.musl.order"), "main\n").unwrap();
        let (order, data) = (tmp.join("prose.order"), tmp.join("prose.data"));
        assert_eq!(for_target(&musl, &order), tmp.join("prose.musl.order"));
        assert_eq!(for_target(&release, &order), order);
        // No musl list beside it: the plain one.
        assert_eq!(for_target(&musl, &data), data);
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn reads_rustcs_minor_version() {
        assert_eq!(minor_of("rustc 1.95.0 (59807616e 2026-04-14)"), Some(95));
        assert_eq!(minor_of("rustc 1.90.0-nightly (abc 2025-06-01)"), Some(90));
        assert_eq!(minor_of("rustc 2.0.0"), None);
        assert_eq!(minor_of(""), None);
    }
}
