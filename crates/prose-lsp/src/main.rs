//! The `prose-lsp` binary: the language server over stdio (also `prose lsp`).

// mimalloc, tuned: see the prose-alloc crate.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: prose_alloc::MiMalloc = prose_alloc::MiMalloc;

use std::process::ExitCode;

const HELP: &str = "\
prose-lsp: the OpenProse language server (LSP over stdin/stdout).

Editors start it; it takes no arguments (`--stdio` is accepted and ignored).
See docs/lsp.md.

`prose-lsp jobs mcp --tools FILE --calls FILE` is the MCP server that offers
the job tools to the claude and codex backends of a task run from the editor
(as `prose jobs mcp`; docs/jobs.md).";

fn main() -> ExitCode {
    #[cfg(feature = "mimalloc")]
    prose_alloc::give_memory_back_soon();
    // The MCP server of the job tools: a task run by this server hands this
    // executable to the `claude` and `codex` backends as their tool server.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(served) = prose_runner::backend::tools::mcp::run_if_asked(&args) {
        return match served {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("prose-lsp jobs mcp: {e}");
                ExitCode::from(2)
            }
        };
    }
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
