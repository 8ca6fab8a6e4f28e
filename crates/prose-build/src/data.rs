//! The read-only data a check reads, put together by the linker
//! ([`order_data`]).
//!
//! The symbol-ordering file ([`crate::order_code`]) places functions. The
//! constants the code reads (string pieces of messages, lookup tables,
//! vtables) are placed where the compiler emitted them: most are anonymous
//! (`.rodata..Lanon.<crate hash>.<n>`, one input section each), which no
//! symbol names, so the ordering file cannot reach them, and a check read
//! a few hundred bytes in each of 19 windows of 64 KB of the first
//! read-only segment and all five of `.data.rel.ro`'s. The kernel maps a
//! whole window around each page a run touches, so a check of the corpus
//! carried 1.5 MB of those segments for 0.5 MB of pages it read.
//!
//! `layout/prose.data` lists the input sections a check reads (recorded
//! by `layout/record.py` from a link map and valgrind's trace of every
//! load). From it the build script writes a linker script that adds to
//! lld's usual layout (`INSERT`, so nothing else moves): the listed
//! `.rodata` sections first, in one output section of their own, before
//! `.gcc_except_table` (right after the dynamic-linking tables at the
//! start of the file, which the loader reads anyway); the listed
//! `.data.rel.ro` sections first inside `.data.rel.ro` (lld keeps only
//! that name in the read-only-after-relocation range), before
//! `.dynamic`. A name no input section has matches nothing, so a stale
//! list costs memory, never a build; a line that is not such a name is
//! left out.

use std::path::Path;

/// Has the linker put the input sections listed in `list` (relative to
/// the package's directory) at the start of the read-only data, and writes
/// the link map (`$OUT_DIR/link.map`) that `layout/record.py` reads to
/// record the list.
///
/// In the builds [`crate::order_code`] applies to, whose panics unwind
/// and whose C library is linked dynamically (the script is anchored to
/// `.gcc_except_table` and `.dynamic`, which those builds always have), and
/// in musl builds, from their own list (`layout/prose.musl.data`, which
/// names `.rodata` sections only). A missing file is no order; the map is
/// written anyway, so that a first list can be recorded.
pub fn order_data(list: &Path) {
    println!("cargo:rerun-if-env-changed=PROSE_NO_CODE_ORDER");
    let var = |name: &str| std::env::var(name).ok();
    let list = Path::new(&var("CARGO_MANIFEST_DIR").unwrap_or_default()).join(list);
    println!("cargo:rerun-if-changed={}", list.display());
    let list = crate::for_target(&var, &list);
    let Some(out_dir) = var("OUT_DIR") else {
        return;
    };
    if !applies(&var, crate::rustc_minor, crate::gcc_ld) {
        return;
    }
    let out_dir = Path::new(&out_dir);
    println!(
        "cargo:rustc-link-arg-bins=-Wl,-Map={}",
        out_dir.join("link.map").display()
    );
    let Some(script) = std::fs::read_to_string(&list)
        .ok()
        .and_then(|text| linker_script(&text))
    else {
        return;
    };
    let path = out_dir.join("prose-data.ld");
    if std::fs::write(&path, script).is_ok() {
        println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", path.display());
    }
}

/// Whether the data order applies: where the code order does, with
/// unwinding panics and a dynamically linked C library, or for musl (a
/// static binary linked by lld; its list names no `.data.rel.ro`, which a
/// position-dependent static binary hardly has, and no `.dynamic` to
/// anchor it to).
fn applies(
    var: &impl Fn(&str) -> Option<String>,
    rustc_minor: impl FnOnce() -> Option<u32>,
    gcc_ld: impl FnOnce() -> Option<std::path::PathBuf>,
) -> bool {
    var("CARGO_CFG_PANIC").as_deref() == Some("unwind")
        && (!crate::crt_static(var) || var("TARGET").as_deref() == Some(crate::MUSL))
        && crate::lld_links(var, rustc_minor)
        && crate::lld_args(var, gcc_ld).is_some()
}

/// Whether `name` can be listed: a `.rodata` or `.data.rel.ro` input
/// section (of a type that fits the output section it goes to), or
/// `.debug_gdb_scripts`, in characters a linker script reads as one name
/// and not as a pattern.
fn listable(name: &str) -> bool {
    let kind = name.starts_with(".rodata")
        || name.starts_with(".data.rel.ro")
        || name == ".debug_gdb_scripts";
    kind && name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$'))
}

/// The linker script for the sections `list` names (one a line; blank
/// lines and `#` comments skipped), or `None` when it names none.
///
/// `.debug_gdb_scripts`, which every Rust `main` reads, stays an output
/// section of its own (gdb finds it by name) placed right after the
/// listed `.rodata`.
pub(crate) fn linker_script(list: &str) -> Option<String> {
    let mut rodata: Vec<&str> = Vec::new();
    let mut relro: Vec<&str> = Vec::new();
    let mut gdb_scripts = false;
    for name in list.lines().map(str::trim) {
        if name.starts_with('#') || !listable(name) {
            continue;
        }
        let group = if name == ".debug_gdb_scripts" {
            gdb_scripts = true;
            continue;
        } else if name.starts_with(".data.rel.ro") {
            &mut relro
        } else {
            &mut rodata
        };
        if !group.contains(&name) {
            group.push(name);
        }
    }
    if rodata.is_empty() && relro.is_empty() {
        return None;
    }
    let mut script = String::from(
        "/* Written by prose-build from layout/prose.data: the read-only data a check reads, first. */\n",
    );
    let inputs =
        |names: &[&str]| -> String { names.iter().map(|n| format!("    *({n})\n")).collect() };
    if !rodata.is_empty() {
        script += &format!(
            "SECTIONS\n{{\n  .rodata.prose_hot :\n  {{\n{}  }}\n}}\nINSERT BEFORE .gcc_except_table;\n",
            inputs(&rodata)
        );
        if gdb_scripts {
            script += "SECTIONS\n{\n  .debug_gdb_scripts : { *(.debug_gdb_scripts) }\n}\nINSERT AFTER .rodata.prose_hot;\n";
        }
    }
    if !relro.is_empty() {
        script += &format!(
            "SECTIONS\n{{\n  .data.rel.ro :\n  {{\n{}    *(.data.rel.ro .data.rel.ro.*)\n  }}\n}}\nINSERT BEFORE .dynamic;\n",
            inputs(&relro)
        );
    }
    Some(script)
}

#[cfg(test)]
mod tests {
    use super::{applies, linker_script};

    #[test]
    fn lists_the_rodata_then_the_relocated_data() {
        let list = "\
.rodata..Lanon.69373a4c653f2da91c77107f5549aa5c.873
.data.rel.ro..Lanon.1b03f54626b8a679406cc2e4dee92281.4
# a comment
.rodata.str1.1

.debug_gdb_scripts
.rodata._ZN12prose_syntax5lexer3lex17h6d0be2735d102426E
.rodata..Lanon.69373a4c653f2da91c77107f5549aa5c.873
.interp
.rodata.bad name
.rodata.glob*
";
        expect_test::expect![[r#"
            /* Written by prose-build from layout/prose.data: the read-only data a check reads, first. */
            SECTIONS
            {
              .rodata.prose_hot :
              {
                *(.rodata..Lanon.69373a4c653f2da91c77107f5549aa5c.873)
                *(.rodata.str1.1)
                *(.rodata._ZN12prose_syntax5lexer3lex17h6d0be2735d102426E)
              }
            }
            INSERT BEFORE .gcc_except_table;
            SECTIONS
            {
              .debug_gdb_scripts : { *(.debug_gdb_scripts) }
            }
            INSERT AFTER .rodata.prose_hot;
            SECTIONS
            {
              .data.rel.ro :
              {
                *(.data.rel.ro..Lanon.1b03f54626b8a679406cc2e4dee92281.4)
                *(.data.rel.ro .data.rel.ro.*)
              }
            }
            INSERT BEFORE .dynamic;
        "#]]
        .assert_eq(&linker_script(list).unwrap());
    }

    #[test]
    fn names_only_of_one_kind_give_that_part_alone() {
        let relro = linker_script(".data.rel.ro._ZN3foo5TABLE17h0123456789abcdefE\n").unwrap();
        assert!(!relro.contains(".rodata.prose_hot"));
        assert!(relro.contains("INSERT BEFORE .dynamic;"));
        let rodata = linker_script(".rodata.cst16\n").unwrap();
        assert!(rodata.contains("INSERT BEFORE .gcc_except_table;"));
        assert!(!rodata.contains(".dynamic"));
    }

    #[test]
    fn no_listable_name_is_no_script() {
        assert_eq!(linker_script(""), None);
        assert_eq!(linker_script("# nothing\n\n.interp\n.text.main\n"), None);
        // gdb's scripts alone would need an anchor the script does not make.
        assert_eq!(linker_script(".debug_gdb_scripts\n"), None);
    }

    /// A release build for x86-64 Linux, panics unwinding, C library
    /// linked dynamically.
    fn release(name: &str) -> Option<String> {
        match name {
            "PROFILE" => Some("release".into()),
            "TARGET" => Some("x86_64-unknown-linux-gnu".into()),
            "CARGO_CFG_PANIC" => Some("unwind".into()),
            "CARGO_CFG_TARGET_FEATURE" => Some("fxsr,sse,sse2".into()),
            _ => None,
        }
    }

    #[test]
    fn applies_where_the_anchors_exist() {
        let with = |name, value| crate::with(release, name, value);
        let no_lld = || None;
        assert!(applies(&release, || Some(95), no_lld));
        assert!(!applies(&release, || Some(89), no_lld));
        assert!(!applies(
            &with("CARGO_CFG_PANIC", "abort"),
            || Some(95),
            no_lld
        ));
        let static_libc = with("CARGO_CFG_TARGET_FEATURE", "crt-static,fxsr,sse");
        assert!(!applies(&static_libc, || Some(95), no_lld));
        assert!(!applies(&with("PROFILE", "debug"), || Some(95), no_lld));
        assert!(!applies(
            &with("PROSE_NO_CODE_ORDER", "1"),
            || Some(95),
            no_lld
        ));
        // musl: static, and linked by the toolchain's lld when it has one.
        let musl = |name: &str| match name {
            "TARGET" => Some("x86_64-unknown-linux-musl".into()),
            "CARGO_CFG_TARGET_FEATURE" => Some("crt-static,fxsr,sse".into()),
            _ => release(name),
        };
        let lld = || Some(std::path::PathBuf::from("/sysroot/gcc-ld"));
        assert!(applies(&musl, || Some(95), lld));
        assert!(!applies(&musl, || Some(95), no_lld));
    }
}
