//! `layout/prose.order`, the order of the code that `prose check` and the
//! language server run (handed to the linker by prose-build's `order_code`
//! from the build scripts of `prose` and `prose-lsp`): the linker must be
//! able to read it as a list of symbols, one a line, each once. See
//! layout/README.md. The lists of a musl build, `prose.musl.order` and
//! `prose.musl.data`, are held to the same checks.

use std::collections::HashSet;

const ORDER: &str = include_str!("../layout/prose.order");
const MUSL_ORDER: &str = include_str!("../layout/prose.musl.order");
const BUILD_SCRIPT: &str = include_str!("../build.rs");

/// Why `line` cannot be a symbol the linker looks up, if it cannot.
fn not_a_symbol(line: &str) -> Option<&'static str> {
    if line.is_empty() {
        return Some("an empty line");
    }
    if line.contains(|c: char| c.is_whitespace() || c == '#') {
        // lld trims lines and cuts them at `#` (a comment).
        return Some("whitespace or `#`");
    }
    let first = line.chars().next()?;
    if !(first == '_' || first.is_ascii_alphabetic()) {
        return Some("does not start like a symbol");
    }
    if line.contains('\'') {
        // callgrind's marks of recursion (`name'2`) are not part of a name.
        return Some("a callgrind recursion mark");
    }
    None
}

/// Checks that `list` (named `name`) is a recorded list: each line one
/// name `reject` accepts, listed once, more than `at_least` of them, with a
/// name holding each of `wanted`.
fn recorded(
    name: &str,
    list: &str,
    reject: fn(&str) -> Option<&'static str>,
    at_least: usize,
    wanted: &[&str],
) {
    let mut seen = HashSet::new();
    let mut problems = Vec::new();
    let body = list.strip_suffix('\n').unwrap_or(list);
    for (i, line) in body.split('\n').enumerate() {
        if let Some(why) = reject(line) {
            problems.push(format!("{name} line {}: {why}: {line:?}", i + 1));
        } else if !seen.insert(line) {
            problems.push(format!("{name} line {}: listed twice: {line}", i + 1));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(seen.len() > at_least, "only {} names in {name}", seen.len());
    for wanted in wanted {
        assert!(
            seen.iter().any(|s| s.contains(wanted)),
            "no {wanted} in {name}"
        );
    }
}

/// Recorded from a check (more than a thousand functions, its own entry
/// points), and over an editing session (the language server's).
#[test]
fn every_line_is_one_symbol_listed_once() {
    for (name, list) in [("prose.order", ORDER), ("prose.musl.order", MUSL_ORDER)] {
        let wanted = [
            "prose_cli5check",
            "prose_ide",
            "prose_syntax6parser",
            "prose_lsp8handlers",
        ];
        recorded(name, list, not_a_symbol, 1000, &wanted);
    }
}

/// The file opens with the C runtime's start-up functions, which callgrind
/// does not see (`record.py` adds them before the tier of a one-line check),
/// so their section is not left alone among cold code.
#[test]
fn the_c_runtime_comes_first() {
    let first: Vec<&str> = ORDER.lines().take(4).collect();
    assert_eq!(
        first,
        [
            "frame_dummy",
            "register_tm_clones",
            "deregister_tm_clones",
            "__do_global_dtors_aux"
        ]
    );
}

/// Both binaries' build scripts hand this file to prose-build's
/// `order_code` (whose tests check the linker arguments it makes), each by
/// a path that leads here.
#[test]
fn the_build_scripts_hand_the_file_to_the_linker() {
    handed_over("order_code", "prose.order", ORDER);
}

/// Checks that both binaries' build scripts call prose-build's `function`
/// with the layout list `name`, by paths that lead to the file holding
/// `list`.
fn handed_over(function: &str, name: &str, list: &str) {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let lsp = here.join("../prose-lsp");
    let lsp_script = std::fs::read_to_string(lsp.join("build.rs")).unwrap();
    for (dir, script, path) in [
        (here, BUILD_SCRIPT, format!("layout/{name}")),
        (
            lsp.as_path(),
            lsp_script.as_str(),
            format!("../prose-cli/layout/{name}"),
        ),
    ] {
        let call = format!("prose_build::{function}(std::path::Path::new(\"{path}\"))");
        assert!(script.contains(&call), "{} lacks {call}", dir.display());
        assert_eq!(
            std::fs::read_to_string(dir.join(&path)).unwrap(),
            list,
            "{path} from {}",
            dir.display()
        );
    }
}

#[test]
fn the_checks_catch_what_lld_would_misread() {
    assert_eq!(not_a_symbol(""), Some("an empty line"));
    assert_eq!(not_a_symbol("_ZN3foo3barE x"), Some("whitespace or `#`"));
    assert_eq!(not_a_symbol("_ZN3foo3barE#"), Some("whitespace or `#`"));
    assert_eq!(not_a_symbol("0x1234"), Some("does not start like a symbol"));
    assert_eq!(
        not_a_symbol("_ZN3foo3barE'2"),
        Some("a callgrind recursion mark")
    );
    assert_eq!(not_a_symbol("_ZN3foo3barE"), None);
    assert_eq!(not_a_symbol("mi_free"), None);
}

/// `layout/prose.data`, the input sections of read-only data a check reads
/// (handed to the linker by prose-build's `order_data`, in a linker script):
/// each line one section name the script takes, listed once.
const DATA: &str = include_str!("../layout/prose.data");
const MUSL_DATA: &str = include_str!("../layout/prose.musl.data");

/// Why `line` is not a section name prose-build's linker script takes.
fn not_a_data_section(line: &str) -> Option<&'static str> {
    let kind = line.starts_with(".rodata")
        || line.starts_with(".data.rel.ro")
        || line == ".debug_gdb_scripts";
    if !kind {
        return Some("not a .rodata or .data.rel.ro section");
    }
    if !line
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$'))
    {
        return Some("a character a linker script reads otherwise");
    }
    None
}

/// Recorded from a check: the anonymous constants, and the merged strings
/// that hold the messages' pieces.
#[test]
fn every_data_line_is_one_section_listed_once() {
    for (name, list) in [("prose.data", DATA), ("prose.musl.data", MUSL_DATA)] {
        let wanted = [".rodata..Lanon.", ".rodata.str1.1"];
        recorded(name, list, not_a_data_section, 100, &wanted);
    }
    // A dynamically linked binary's constants that hold pointers.
    assert!(DATA.lines().any(|s| s.starts_with(".data.rel.ro..Lanon.")));
    // A static binary has no `.dynamic` for prose-build's script to put
    // them before: the musl list names none.
    assert!(!MUSL_DATA.lines().any(|s| s.starts_with(".data.rel.ro")));
}

/// Both build scripts hand the data list to prose-build's `order_data`
/// (whose tests check the linker script it writes), by paths that lead here.
#[test]
fn the_build_scripts_hand_the_data_list_to_the_linker() {
    handed_over("order_data", "prose.data", DATA);
}

#[test]
fn the_data_checks_catch_what_the_script_would_misread() {
    assert_eq!(
        not_a_data_section(".text._ZN3foo3barE"),
        Some("not a .rodata or .data.rel.ro section")
    );
    assert_eq!(
        not_a_data_section(".rodata.a b"),
        Some("a character a linker script reads otherwise")
    );
    assert_eq!(
        not_a_data_section(".rodata.glob*"),
        Some("a character a linker script reads otherwise")
    );
    assert_eq!(
        not_a_data_section(".rodata..Lanon.69373a4c653f2da91c77107f5549aa5c.873"),
        None
    );
    assert_eq!(
        not_a_data_section(".data.rel.ro._ZN4core3fmt3num3imp7DEC_DIGITS_LUT17h0123E"),
        None
    );
}
