//! Links `prose-lsp` position-dependent on Linux, unless `PROSE_PIE` is set
//! when building: the loader then has no pointers to fix up at start (see
//! `link_position_dependent` in prose-cli's build script, which does the
//! same for `prose`, and docs/performance/peer.md, "Position-dependent
//! binaries").

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PROSE_PIE");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    if linux && std::env::var_os("PROSE_PIE").is_none() {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
