//! The shared libraries `prose` loads: not the maths library, whose one
//! function the binary calls (`pow`) prose-alloc defines.

#[cfg(all(feature = "mimalloc", target_os = "linux", target_env = "gnu"))]
#[test]
fn loads_the_c_library_and_not_the_maths_library() {
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_prose"));
    prose_test_support::elf::assert_loads_libc_and_not_libm(binary);
}
