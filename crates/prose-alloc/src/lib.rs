//! The global allocator of the `prose` and `prose-lsp` binaries.
//!
//! rowan allocates a tree a node or token at a time: mimalloc halves the
//! time of a re-analysis against the system allocator (docs/performance.md).
//! Its version 3 keeps freed memory for a second before it gives it back to
//! the system, so the garbage of a large analysis (the parse's buffers, a
//! report being serialised) piles up and the resident memory peaks far above
//! what is live: 178 MiB for 16.8 MB of programs in the server, against 150
//! MiB when freed pages go back after 10 ms. [`give_memory_back_soon`] sets
//! that delay; a `MIMALLOC_PURGE_DELAY` in the environment still wins.
//!
//! Each binary declares the allocator itself (a library that did would
//! clash with the benchmarks that declare theirs):
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: prose_alloc::MiMalloc = prose_alloc::MiMalloc;
//!
//! fn main() {
//!     prose_alloc::give_memory_back_soon();
//! }
//! ```

use std::ffi::{c_int, c_long};

pub use mimalloc::MiMalloc;

/// `mi_option_purge_delay` of mimalloc.h's `mi_option_e` (mimalloc 3, the
/// version `libmimalloc-sys` builds by default; a test checks its default).
const PURGE_DELAY: c_int = 15;

/// How long freed memory stays with the process, in milliseconds.
pub const DELAY_MS: c_long = 10;

#[allow(unsafe_code)]
unsafe extern "C" {
    fn mi_option_get(option: c_int) -> c_long;
    fn mi_option_set(option: c_int, value: c_long);
}

/// Freed memory goes back to the system [`DELAY_MS`] after it was freed
/// (mimalloc's default is a second), unless `MIMALLOC_PURGE_DELAY` says
/// otherwise. Call it first thing in `main`.
pub fn give_memory_back_soon() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: sets an integer option (any value is valid) of the allocator
    // linked through `mimalloc`; mimalloc reads its options atomically.
    #[allow(unsafe_code)]
    unsafe {
        mi_option_set(PURGE_DELAY, DELAY_MS);
    }
}

/// The purge delay mimalloc uses now, in milliseconds.
pub fn purge_delay() -> c_long {
    // SAFETY: reads an integer option.
    #[allow(unsafe_code)]
    unsafe {
        mi_option_get(PURGE_DELAY)
    }
}

#[cfg(test)]
mod tests {
    /// The option number is mimalloc 3's purge delay: its default is a
    /// second, and setting it changes it. (Without `MIMALLOC_PURGE_DELAY`
    /// in the environment.)
    #[test]
    fn sets_the_purge_delay() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            eprintln!("MIMALLOC_PURGE_DELAY is set: nothing to check");
            return;
        }
        assert_eq!(super::purge_delay(), 1000);
        super::give_memory_back_soon();
        assert_eq!(super::purge_delay(), super::DELAY_MS);
    }
}
