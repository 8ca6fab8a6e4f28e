//! The `prose-lsp` executable as its build script links it.

/// On Linux the executable is position-dependent (`ET_EXEC` in its ELF
/// header) unless `PROSE_PIE` was set for the build: the loader has no
/// pointers to fix up when the editor starts it (see `build.rs`).
#[test]
#[cfg(target_os = "linux")]
fn the_executable_is_position_dependent_unless_asked_otherwise() {
    use std::io::Read;
    let mut bytes = [0u8; 18];
    std::fs::File::open(env!("CARGO_BIN_EXE_prose-lsp"))
        .and_then(|mut f| f.read_exact(&mut bytes))
        .unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    // `e_type`, little-endian on the targets this runs on: 2 is an
    // executable at a fixed address, 3 a shared object (a PIE).
    let e_type = u16::from_le_bytes([bytes[16], bytes[17]]);
    let expected = if option_env!("PROSE_PIE").is_some() {
        3
    } else {
        2
    };
    assert_eq!(e_type, expected);
}
