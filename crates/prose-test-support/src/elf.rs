//! The shared libraries an ELF executable asks the dynamic loader for
//! (its `DT_NEEDED` entries), read from the file: the binaries' tests check
//! what they load (`pow`, prose-alloc).

use std::path::Path;

/// A little-endian 64-bit ELF file's bytes.
struct Elf<'a>(&'a [u8]);

impl Elf<'_> {
    fn u16(&self, at: usize) -> Option<u64> {
        let b = self.0.get(at..at + 2)?;
        Some(u16::from_le_bytes([b[0], b[1]]).into())
    }

    fn u32(&self, at: usize) -> Option<u64> {
        let b: [u8; 4] = self.0.get(at..at + 4)?.try_into().ok()?;
        Some(u32::from_le_bytes(b).into())
    }

    fn u64(&self, at: usize) -> Option<u64> {
        let b: [u8; 8] = self.0.get(at..at + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(b))
    }

    /// The program headers: (type, file offset, address, size in the file).
    fn segments(&self) -> Option<Vec<(u64, u64, u64, u64)>> {
        let (start, size, count) = (self.u64(0x20)?, self.u16(0x36)?, self.u16(0x38)?);
        (0..count)
            .map(|i| {
                let at = usize::try_from(start + i * size).ok()?;
                Some((
                    self.u32(at)?,
                    self.u64(at + 8)?,
                    self.u64(at + 16)?,
                    self.u64(at + 32)?,
                ))
            })
            .collect()
    }
}

/// The names of the libraries `path` needs, in the order it lists them;
/// `None` when it is not a 64-bit little-endian ELF file with a dynamic
/// section (a statically linked or foreign binary).
pub fn needed_libraries(path: &Path) -> Option<Vec<String>> {
    const PT_LOAD: u64 = 1;
    const PT_DYNAMIC: u64 = 2;
    const DT_NEEDED: u64 = 1;
    const DT_STRTAB: u64 = 5;
    let bytes = std::fs::read(path).ok()?;
    if bytes.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let elf = Elf(&bytes);
    let segments = elf.segments()?;
    let &(_, dynamic, _, size) = segments.iter().find(|s| s.0 == PT_DYNAMIC)?;
    let entries: Vec<(u64, u64)> = (0..size / 16)
        .map_while(|i| {
            let at = usize::try_from(dynamic + i * 16).ok()?;
            Some((elf.u64(at)?, elf.u64(at + 8)?))
        })
        .collect();
    // The string table is given by its address: the loaded segment holding
    // it says where it lies in the file.
    let table = entries.iter().find(|e| e.0 == DT_STRTAB)?.1;
    let (_, offset, address, _) = *segments
        .iter()
        .find(|s| s.0 == PT_LOAD && s.2 <= table && table < s.2 + s.3)?;
    let table = usize::try_from(table - address + offset).ok()?;
    entries
        .iter()
        .filter(|e| e.0 == DT_NEEDED)
        .map(|&(_, name)| {
            let start = table.checked_add(usize::try_from(name).ok()?)?;
            let len = bytes.get(start..)?.iter().position(|&b| b == 0)?;
            Some(String::from_utf8_lossy(&bytes[start..start + len]).into_owned())
        })
        .collect()
}

/// Fails unless the executable at `binary` loads the C library and not the
/// maths library (prose-alloc defines the one function of it the binaries
/// call, `pow`).
pub fn assert_loads_libc_and_not_libm(binary: &Path) {
    let needed = needed_libraries(binary).expect("a dynamic executable");
    assert!(
        needed.iter().any(|n| n.starts_with("libc.so")),
        "{needed:?}"
    );
    assert!(
        !needed.iter().any(|n| n.starts_with("libm.so")),
        "{needed:?}"
    );
}

#[cfg(test)]
mod tests {
    /// This test's own executable asks for the C library; a file that is
    /// not ELF gives nothing.
    #[test]
    #[cfg(all(
        target_os = "linux",
        target_pointer_width = "64",
        target_endian = "little"
    ))]
    fn reads_the_libraries_an_executable_needs() {
        let me = std::env::current_exe().unwrap();
        let needed = super::needed_libraries(&me).expect("a dynamic ELF executable");
        assert!(
            needed.iter().any(|n| n.starts_with("libc.so")),
            "{needed:?}"
        );
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        assert_eq!(super::needed_libraries(&manifest), None);
    }
}
