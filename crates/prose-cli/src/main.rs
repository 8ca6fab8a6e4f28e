//! The `prose` command; all the work is in the `prose_cli` library.

// rowan allocates a node or token at a time: mimalloc halves the time of
// a re-analysis against the system allocator (docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    prose_cli::main()
}
