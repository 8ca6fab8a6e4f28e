//! The `prose` command; all the work is in the `prose_cli` library.

// mimalloc, tuned: see the prose-alloc crate.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: prose_alloc::MiMalloc = prose_alloc::MiMalloc;

fn main() -> std::process::ExitCode {
    #[cfg(feature = "mimalloc")]
    prose_alloc::give_memory_back_soon();
    prose_cli::main()
}
