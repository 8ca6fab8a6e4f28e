//! Links `prose-lsp` as prose-cli's build script links `prose`
//! (the prose-build crate): position-dependent on Linux, unless `PROSE_PIE`
//! is set when building (the loader then has no pointers to fix up at start;
//! docs/performance/peer.md, "Position-dependent binaries"), and, in release
//! builds for x86-64 Linux, with the code the language server runs put
//! together in the order of prose-cli's `layout/prose.order` (recorded from
//! `prose check` and `prose lsp`, which share this crate's code; a copy of
//! this package without that file gets no order).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    prose_build::link_position_dependent();
    prose_build::order_code(std::path::Path::new("../prose-cli/layout/prose.order"));
    prose_build::order_data(std::path::Path::new("../prose-cli/layout/prose.data"));
}
