//! `pow`, defined in the binaries so that they need no `libm.so`.
//!
//! Of the C maths library, the binaries call `pow` alone (through
//! `f64::powf` in the progress bars' rate estimate and in the runner's
//! async code). Loading `libm.so.6` for it cost every process, a one-line
//! `prose check` included, the library's mapping and the pages the
//! dynamic loader touches to bind it: 340 KB of resident memory
//! (docs/performance/peer-2026-12-02.md). Defined here, the linker binds
//! the calls to this definition and, linking with `--as-needed`, records
//! no need for the library.

/// `x` raised to the power `y`, as C's `pow`: the `libm` crate's port of
/// musl's, correctly rounded in nearly every case and within an ulp in
/// the others.
// The symbol C code and the compiler's calls resolve to.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[cfg(test)]
mod tests {
    /// The calls `f64::powf` makes reach a `pow` that computes powers, C's
    /// special cases included.
    #[test]
    fn computes_powers() {
        let pow = |x: f64, y: f64| std::hint::black_box(x).powf(std::hint::black_box(y));
        assert_eq!(pow(2.0, 10.0), 1024.0);
        assert_eq!(pow(10.0, -2.0), 0.01);
        assert_eq!(pow(9.0, 0.5), 3.0);
        assert_eq!(pow(-2.0, 3.0), -8.0);
        assert_eq!(pow(f64::NAN, 0.0), 1.0);
        assert_eq!(pow(0.0, -1.0), f64::INFINITY);
        assert!(pow(-2.0, 0.5).is_nan());
        assert_eq!(super::pow(1.5, 2.0), 2.25);
        assert!((pow(0.9, 7.3) - 0.463_415_247_353_551_4).abs() < 1e-15);
    }
}
