//! The `prose-lsp` binary: the language server over stdio (also `prose lsp`).

// rowan allocates a node or token at a time: mimalloc halves the time of
// a re-analysis against the system allocator (docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

const HELP: &str = "\
prose-lsp: the OpenProse language server (LSP over stdin/stdout).

Editors start it; it takes no arguments (`--stdio` is accepted and ignored).
See docs/lsp.md.";

fn main() -> ExitCode {
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--version" | "-V" => {
                println!("prose-lsp {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            "--help" | "-h" => {
                println!("{HELP}");
                return ExitCode::SUCCESS;
            }
            _ => {}
        }
    }
    prose_lsp::run_stdio()
}
