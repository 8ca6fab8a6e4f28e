//! The global allocator of the `prose` and `prose-lsp` binaries.
//!
//! rowan allocates a tree a node or token at a time: mimalloc halves the
//! time of a re-analysis against the system allocator
//! (docs/performance/validation.md).
//! Its version 3 keeps freed memory for a second before it gives it back to
//! the system, so the garbage of a large analysis (the parse's buffers, a
//! report being serialised) piles up and the resident memory peaks far above
//! what is live: 178 MiB for 16.8 MB of programs in the server, against 150
//! MiB when freed pages go back after 10 ms. [`give_memory_back_soon`] sets
//! that delay; a `MIMALLOC_PURGE_DELAY` in the environment still wins.
//!
//! [`MiMalloc`] asks mimalloc for word-aligned blocks through `mi_malloc`,
//! not `mi_malloc_aligned` (what the `mimalloc` crate's allocator always
//! calls): every block mimalloc hands out is a whole number of words and
//! starts on a word, so an alignment of a word or less needs no check, and
//! `mi_malloc`'s path is shorter. Nearly every allocation of an analysis
//! (a red tree node, a vector of them, a string) asks for 8 bytes or less.
//!
//! Each binary declares the allocator itself (a library that did would
//! clash with the benchmarks that declare theirs):
//!
//! The crate also defines C's `pow` ([`pow`](mod@pow)), the one function
//! of the maths library the binaries call, so that they load no `libm.so`,
//! and, for the static musl build alone, faster `memcmp` and `memcpy` than
//! musl's (`mem`, on x86-64).
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: prose_alloc::MiMalloc = prose_alloc::MiMalloc;
//!
//! fn main() {
//!     prose_alloc::give_memory_back_soon();
//! }
//! ```

#[cfg(target_arch = "x86_64")]
pub mod mem;
pub mod pow;

use std::{
    alloc::{GlobalAlloc, Layout},
    ffi::{c_int, c_long, c_void},
};

/// mimalloc as the global allocator, word-aligned blocks through its
/// unaligned entry points (see the crate's documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct MiMalloc;

/// The alignment of every block mimalloc hands out: its blocks are whole
/// words (`_mi_wsize_from_size`) carved from word-aligned pages.
const WORD: usize = std::mem::size_of::<usize>();

#[allow(unsafe_code)]
unsafe extern "C" {
    fn mi_malloc(size: usize) -> *mut c_void;
    fn mi_zalloc(size: usize) -> *mut c_void;
    fn mi_realloc(p: *mut c_void, newsize: usize) -> *mut c_void;
}

// SAFETY: every entry point returns a block of at least `layout.size()`
// bytes aligned to `layout.align()` or null: `mi_malloc`, `mi_zalloc` and
// `mi_realloc` blocks are word-aligned, and larger alignments go to the
// aligned entry points (the `mimalloc` crate's own calls). Blocks are freed
// with `mi_free`, which takes blocks of either kind.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            // SAFETY: see the impl.
            unsafe { mi_malloc(layout.size()).cast() }
        } else {
            // SAFETY: see the impl.
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD {
            // SAFETY: see the impl.
            unsafe { mi_zalloc(layout.size()).cast() }
        } else {
            // SAFETY: see the impl.
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from mimalloc (see the impl).
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD {
            // SAFETY: `ptr` came from mimalloc (see the impl).
            unsafe { mi_realloc(ptr.cast(), new_size).cast() }
        } else {
            // SAFETY: see the impl.
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

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

/// How long freed memory may stay while someone types in documents of a
/// usual size, in milliseconds: an analysis after each keystroke frees what
/// the next one allocates again, and pages given back in between are
/// faulted in again (in the server, 437 page faults and 1.8 ms of system
/// time per keystroke in a 5,600-line program with [`DELAY_MS`], 117 and
/// 0.6 ms with this; docs/performance/language-server.md).
pub const TYPING_DELAY_MS: c_long = 250;

/// Freed memory goes back to the system [`DELAY_MS`] after it was freed
/// (mimalloc's default is a second), unless `MIMALLOC_PURGE_DELAY` says
/// otherwise. Call it first thing in `main`.
pub fn give_memory_back_soon() {
    set_purge_delay(DELAY_MS);
}

/// Freed memory goes back to the system `ms` milliseconds after it was
/// freed, unless `MIMALLOC_PURGE_DELAY` says otherwise. The server sets
/// [`TYPING_DELAY_MS`] for runs over small documents and [`DELAY_MS`] for
/// large ones, whose garbage would pile up (docs/performance/heavy-input.md,
/// "Under heavy input").
pub fn set_purge_delay(ms: c_long) {
    static OVERRIDDEN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *OVERRIDDEN.get_or_init(|| std::env::var_os("MIMALLOC_PURGE_DELAY").is_some()) {
        return;
    }
    // SAFETY: sets an integer option (any value is valid) of the allocator
    // linked through `mimalloc`; mimalloc reads its options atomically.
    #[allow(unsafe_code)]
    unsafe {
        mi_option_set(PURGE_DELAY, ms);
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
        super::set_purge_delay(super::TYPING_DELAY_MS);
        assert_eq!(super::purge_delay(), super::TYPING_DELAY_MS);
        super::give_memory_back_soon();
        assert_eq!(super::purge_delay(), super::DELAY_MS);
    }

    /// Blocks of every small size and alignment are aligned as asked,
    /// zeroed when asked, and keep their bytes through `realloc` growing
    /// and shrinking.
    #[test]
    #[allow(unsafe_code)]
    fn blocks_are_aligned_and_keep_their_bytes() {
        use std::alloc::{GlobalAlloc, Layout};
        let a = super::MiMalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in (1..=300).chain([1000, 4096, 70_000, 1 << 20]) {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: non-zero sizes; each block is used within its
                // size and freed once, with its layout.
                unsafe {
                    let p = a.alloc_zeroed(layout);
                    assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                    assert!((0..size).all(|i| *p.add(i) == 0));
                    (0..size).for_each(|i| *p.add(i) = i as u8);
                    let grown = size * 3 + 7;
                    let q = a.realloc(p, layout, grown);
                    assert_eq!(q as usize % align, 0, "grown from {size}, align {align}");
                    assert!((0..size).all(|i| *q.add(i) == i as u8));
                    let shrunk = size / 2 + 1;
                    let r = a.realloc(q, Layout::from_size_align(grown, align).unwrap(), shrunk);
                    assert_eq!(r as usize % align, 0, "shrunk from {grown}, align {align}");
                    assert!((0..shrunk).all(|i| *r.add(i) == i as u8));
                    a.dealloc(r, Layout::from_size_align(shrunk, align).unwrap());
                    let s = a.alloc(layout);
                    assert_eq!(s as usize % align, 0, "size {size}, align {align}");
                    (0..size).for_each(|i| *s.add(i) = 1);
                    a.dealloc(s, layout);
                }
            }
        }
    }
}
