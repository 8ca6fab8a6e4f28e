//! The comparisons against the slices' own, and the copies byte by byte,
//! over every length up to 300 and some longer, at every offset of the
//! first difference and for both directions of an overlap.

#![allow(unsafe_code)]

use super::{bcmp, memcmp, memcpy, memmove};

/// Bytes that differ from position to position (so that a copy from the
/// wrong offset shows).
fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed))
        .collect()
}

fn lengths() -> impl Iterator<Item = usize> {
    (0..=300).chain([511, 4096, 65_537])
}

#[test]
fn memcmp_and_bcmp_agree_with_slices() {
    for n in lengths() {
        let a = pattern(n, 1);
        // SAFETY: both buffers hold `n` bytes.
        let same = unsafe {
            (
                memcmp(a.as_ptr(), a.clone().as_ptr(), n),
                bcmp(a.as_ptr(), a.clone().as_ptr(), n),
            )
        };
        assert_eq!(same, (0, 0), "equal, length {n}");
        // A difference at each position (every one for short lengths),
        // both ways, with bytes whose order differs signed and unsigned.
        let positions: Vec<usize> = if n <= 80 {
            (0..n).collect()
        } else {
            vec![0, 1, 7, 8, 9, n / 2, n - 9, n - 8, n - 2, n - 1]
        };
        for at in positions {
            for (x, y) in [(0x10, 0x20), (0x7f, 0x80), (0x00, 0xff)] {
                let mut lo = a.clone();
                let mut hi = a.clone();
                lo[at] = x;
                hi[at] = y;
                // A later difference the other way must not decide.
                if at + 1 < n {
                    lo[n - 1] = 0xff;
                    hi[n - 1] = 0x00;
                }
                // SAFETY: all buffers hold `n` bytes.
                let (c1, c2, b1) = unsafe {
                    (
                        memcmp(lo.as_ptr(), hi.as_ptr(), n),
                        memcmp(hi.as_ptr(), lo.as_ptr(), n),
                        bcmp(lo.as_ptr(), hi.as_ptr(), n),
                    )
                };
                assert!(lo < hi, "the test's own bytes, length {n} at {at}");
                assert!(
                    c1 < 0,
                    "memcmp(lo, hi), length {n}, difference at {at}: {c1}"
                );
                assert!(
                    c2 > 0,
                    "memcmp(hi, lo), length {n}, difference at {at}: {c2}"
                );
                assert_ne!(b1, 0, "bcmp, length {n}, difference at {at}");
            }
        }
    }
}

#[test]
fn memcpy_copies_every_byte_and_no_more() {
    for n in lengths() {
        for offset in [0, 1, 3, 8] {
            let src = pattern(n + offset, 5);
            let mut dst = vec![0xAAu8; n + 2 * 16 + offset];
            // SAFETY: `src` holds `n` bytes from `offset`, `dst` `n`
            // from 16 + `offset`; they do not overlap.
            let ret = unsafe {
                memcpy(
                    dst.as_mut_ptr().add(16 + offset),
                    src.as_ptr().add(offset),
                    n,
                )
            };
            assert_eq!(ret, dst.as_mut_ptr().wrapping_add(16 + offset));
            assert!(
                dst[..16 + offset].iter().all(|&b| b == 0xAA),
                "before, length {n}"
            );
            assert_eq!(
                &dst[16 + offset..16 + offset + n],
                &src[offset..],
                "length {n}"
            );
            assert!(
                dst[16 + offset + n..].iter().all(|&b| b == 0xAA),
                "after, length {n}"
            );
        }
    }
}

#[test]
fn memmove_copies_overlapping_ranges_both_ways() {
    for n in lengths() {
        for shift in [1usize, 2, 7, 8, 16, 33, 64, 65, 100] {
            let buf = pattern(n + shift, 9);
            // Forward: to a lower address.
            let mut down = buf.clone();
            // SAFETY: both ranges lie within `down`'s `n + shift` bytes.
            unsafe { memmove(down.as_mut_ptr(), down.as_ptr().add(shift), n) };
            assert_eq!(&down[..n], &buf[shift..], "down by {shift}, length {n}");
            assert_eq!(
                &down[n..],
                &buf[n..],
                "past the copy, down by {shift}, length {n}"
            );
            // Backward: to a higher address.
            let mut up = buf.clone();
            // SAFETY: as above.
            unsafe { memmove(up.as_mut_ptr().add(shift), up.as_ptr(), n) };
            assert_eq!(&up[shift..], &buf[..n], "up by {shift}, length {n}");
            assert_eq!(
                &up[..shift],
                &buf[..shift],
                "before the copy, up by {shift}, length {n}"
            );
        }
    }
}
