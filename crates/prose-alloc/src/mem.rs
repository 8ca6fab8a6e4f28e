//! C's `memcmp`, `bcmp`, `memcpy` and `memmove`, defined in the static
//! musl build of the binaries (`x86_64-unknown-linux-musl`) in place of
//! musl's own.
//!
//! musl compares bytes one at a time, and copies with `rep movsq`, which
//! takes some thirty cycles to start: under callgrind a corpus check ran
//! the same instructions as the glibc build but for these two (`memcmp`
//! 1.84 M against glibc's 0.54 M, `memcpy` 3.3 M against 2.6 M), and took
//! 3% more CPU (docs/performance/peer-2026-12-03.md). Nearly every call
//! is short: a name, a key, a small value moved. Here a comparison reads
//! eight bytes at a time and a copy of up to 128 bytes is a few loads and
//! stores of 4 to 16 bytes that overlap, both without a loop over bytes;
//! a longer copy is `rep movsb`, fast on every x86-64 that has fast
//! strings once started.
//!
//! None is inlined: with the whole program in view (fat LTO), the compiler
//! inlined them into their callers, which grew the code by 270 KB and the
//! pages of it a corpus check touches by 0.46 MB.
//!
//! Exported under the C names only in the musl build: a glibc build keeps
//! glibc's, chosen for the processor at run time. The module is built for
//! x86-64 alone (its longer copies are x86 instructions), and its tests
//! call the same functions in every x86-64 build. `memmove` is here because musl's calls into
//! the object file that defines its `memcpy`, which would then clash with
//! this one. Nothing here may compare or copy through a slice method or a
//! loop the compiler could turn back into a call of the function itself.

use std::ptr::{read_unaligned, write_unaligned};

/// The longest copy made by loads and stores ([`copy_short`]); longer
/// ones are `rep movsb`, which takes a few dozen cycles to start.
const SHORT: usize = 128;

/// A copy of up to [`SHORT`] bytes: every byte loaded before any is
/// stored, so that it serves overlapping ranges too ([`memmove`]).
///
/// # Safety
/// `src` readable and `dst` writable for `n` bytes, `n <= SHORT`.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn copy_short(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: every access lies within the first `n` bytes of its range:
    // the two halves of each case overlap when `n` is below the width of
    // both together.
    unsafe {
        if n > 64 {
            // The first 64 bytes and the last 64, in sixteen-byte pieces
            // (written out: a loop here could be made a call of `memcpy`).
            let a = read_unaligned(src.cast::<u128>());
            let b = read_unaligned(src.add(16).cast::<u128>());
            let c = read_unaligned(src.add(32).cast::<u128>());
            let d = read_unaligned(src.add(48).cast::<u128>());
            let e = read_unaligned(src.add(n - 64).cast::<u128>());
            let f = read_unaligned(src.add(n - 48).cast::<u128>());
            let g = read_unaligned(src.add(n - 32).cast::<u128>());
            let h = read_unaligned(src.add(n - 16).cast::<u128>());
            write_unaligned(dst.cast::<u128>(), a);
            write_unaligned(dst.add(16).cast::<u128>(), b);
            write_unaligned(dst.add(32).cast::<u128>(), c);
            write_unaligned(dst.add(48).cast::<u128>(), d);
            write_unaligned(dst.add(n - 64).cast::<u128>(), e);
            write_unaligned(dst.add(n - 48).cast::<u128>(), f);
            write_unaligned(dst.add(n - 32).cast::<u128>(), g);
            write_unaligned(dst.add(n - 16).cast::<u128>(), h);
        } else if n >= 32 {
            let a = read_unaligned(src.cast::<u128>());
            let b = read_unaligned(src.add(16).cast::<u128>());
            let c = read_unaligned(src.add(n - 32).cast::<u128>());
            let d = read_unaligned(src.add(n - 16).cast::<u128>());
            write_unaligned(dst.cast::<u128>(), a);
            write_unaligned(dst.add(16).cast::<u128>(), b);
            write_unaligned(dst.add(n - 32).cast::<u128>(), c);
            write_unaligned(dst.add(n - 16).cast::<u128>(), d);
        } else if n >= 16 {
            copy_ends::<u128>(dst, src, n);
        } else if n >= 8 {
            copy_ends::<u64>(dst, src, n);
        } else if n >= 4 {
            copy_ends::<u32>(dst, src, n);
        } else if n > 0 {
            // 1 to 3 bytes: the first, the middle and the last.
            let a = *src;
            let b = *src.add(n / 2);
            let c = *src.add(n - 1);
            *dst = a;
            *dst.add(n / 2) = b;
            *dst.add(n - 1) = c;
        }
    }
}

/// A copy of `n` bytes, `size_of::<T>() <= n <= 2 * size_of::<T>()`, as
/// two `T`s that overlap: the first and the last, both loaded before
/// either is stored. `T` is a primitive (`u32`, `u64`, `u128`), moved by
/// one load and one store each, never by a call.
///
/// # Safety
/// `src` readable and `dst` writable for `n` bytes, `n` in that range.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn copy_ends<T>(dst: *mut u8, src: *const u8, n: usize) {
    let last = n - size_of::<T>();
    // SAFETY: the caller's; both accesses lie within the first `n` bytes.
    unsafe {
        let a = read_unaligned(src.cast::<T>());
        let b = read_unaligned(src.add(last).cast::<T>());
        write_unaligned(dst.cast::<T>(), a);
        write_unaligned(dst.add(last).cast::<T>(), b);
    }
}

/// A copy from the first byte to the last: loads and stores up to
/// [`SHORT`] bytes (all loaded before any is stored), `rep movsb` beyond,
/// which reads each byte before it writes the one it goes to.
///
/// # Safety
/// As C's `memmove` where `dst` is below `src`, or the ranges do not
/// overlap, or `n <= SHORT`.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn copy_forward(dst: *mut u8, src: *const u8, n: usize) {
    if n <= SHORT {
        // SAFETY: the caller's.
        unsafe { copy_short(dst, src, n) };
    } else {
        // SAFETY: the caller's; the direction flag is clear on entry to
        // any function (the System V ABI).
        unsafe {
            std::arch::asm!(
                "rep movsb",
                inout("rcx") n => _,
                inout("rdi") dst => _,
                inout("rsi") src => _,
                options(nostack, preserves_flags)
            );
        }
    }
}

/// Copies `n` bytes from `src` to `dst`, which do not overlap; returns
/// `dst`.
///
/// # Safety
/// As C's `memcpy`.
#[allow(unsafe_code)]
#[cfg_attr(all(target_env = "musl", target_arch = "x86_64"), unsafe(no_mangle))]
#[inline(never)]
pub unsafe extern "C" fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    // SAFETY: the caller's; the ranges do not overlap.
    unsafe { copy_forward(dst, src, n) };
    dst
}

/// Copies `n` bytes from `src` to `dst`, which may overlap; returns
/// `dst`.
///
/// # Safety
/// As C's `memmove`.
#[allow(unsafe_code)]
#[cfg_attr(all(target_env = "musl", target_arch = "x86_64"), unsafe(no_mangle))]
#[inline(never)]
pub unsafe extern "C" fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
    if n > SHORT && (dst as usize).wrapping_sub(src as usize) < n {
        // `dst` inside `src`'s range: copy from the end, backwards.
        // SAFETY: the caller's; the direction flag is set for the copy
        // alone and cleared again, as the ABI wants it.
        unsafe {
            std::arch::asm!(
                "std",
                "rep movsb",
                "cld",
                inout("rcx") n => _,
                inout("rdi") dst.add(n - 1) => _,
                inout("rsi") src.add(n - 1) => _,
                options(nostack)
            );
        }
    } else {
        // A short copy, or `dst` below `src` or past its end: a forward
        // copy reads each byte before it is overwritten.
        // SAFETY: the caller's.
        unsafe { copy_forward(dst, src, n) };
    }
    dst
}

/// The order of two words read from memory, as their bytes compare in
/// address order.
#[inline(always)]
fn order(a: u64, b: u64) -> i32 {
    // Read as big-endian, the byte at the lower address is the more
    // significant.
    if u64::from_be(a) < u64::from_be(b) {
        -1
    } else {
        1
    }
}

/// The comparison [`memcmp`] and [`bcmp`] make.
///
/// # Safety
/// As C's `memcmp`.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn compare(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: every read lies within the first `n` bytes of `a` and `b`.
    unsafe {
        if n >= 8 {
            let mut i = 0;
            while i + 8 <= n {
                let x = read_unaligned(a.add(i).cast::<u64>());
                let y = read_unaligned(b.add(i).cast::<u64>());
                if x != y {
                    return order(x, y);
                }
                i += 8;
            }
            if i == n {
                return 0;
            }
            // The last eight bytes, overlapping those found equal.
            let x = read_unaligned(a.add(n - 8).cast::<u64>());
            let y = read_unaligned(b.add(n - 8).cast::<u64>());
            return if x == y { 0 } else { order(x, y) };
        }
        // Up to seven bytes, read as one big-endian word: the first four
        // and the last four (overlapping), or the first, middle and last
        // of up to three.
        let word = |p: *const u8| -> u64 {
            if n >= 4 {
                let head = u64::from(u32::from_be(read_unaligned(p.cast::<u32>())));
                let tail = u64::from(u32::from_be(read_unaligned(p.add(n - 4).cast::<u32>())));
                (head << 32) | tail
            } else if n > 0 {
                (u64::from(*p) << 16) | (u64::from(*p.add(n / 2)) << 8) | u64::from(*p.add(n - 1))
            } else {
                0
            }
        };
        let (x, y) = (word(a), word(b));
        match x.cmp(&y) {
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => 1,
        }
    }
}

/// Compares the first `n` bytes of `a` and `b` as unsigned bytes: below
/// zero, zero or above zero as `a`'s are less, equal or greater.
///
/// # Safety
/// As C's `memcmp`.
#[allow(unsafe_code)]
#[cfg_attr(all(target_env = "musl", target_arch = "x86_64"), unsafe(no_mangle))]
#[inline(never)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's.
    unsafe { compare(a, b, n) }
}

/// Whether the first `n` bytes of `a` and `b` differ (zero when equal).
///
/// # Safety
/// As C's `bcmp`.
#[allow(unsafe_code)]
#[cfg_attr(all(target_env = "musl", target_arch = "x86_64"), unsafe(no_mangle))]
#[inline(never)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's.
    i32::from(unsafe { compare(a, b, n) } != 0)
}

#[cfg(test)]
mod tests;
