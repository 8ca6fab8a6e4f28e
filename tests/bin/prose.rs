//! The `prose` CLI as a binary of this test package, so that cargo builds it
//! before the end-to-end tests and sets `CARGO_BIN_EXE_e2e-prose`. Identical
//! to `crates/prose-cli/src/main.rs` (see the root Cargo.toml).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    prose_cli::main()
}
