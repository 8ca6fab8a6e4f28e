//! Shared checks of the diagnostic codes: every documented example triggers
//! its code and every fix does not; the generated docs page is fresh.

use expect_test::Expect;

use super::all_codes;
use crate::{BlockRegistry, DialectParser};

/// The diagnostics of `text` as `CODE line:col-line:col severity: message`
/// lines (1-based, columns in chars), with `  fix: title => replacement`
/// below those that have a fix.
pub(crate) fn render(text: &str, registry: Option<&str>) -> String {
    let mut parser = DialectParser::new();
    if let Some(r) = registry {
        parser = parser.with_registry(BlockRegistry::parse(r).unwrap());
    }
    let doc = parser.parse_document(text);
    let pos = |offset: usize| {
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1;
        format!("{line}:{col}")
    };
    let mut out = String::new();
    for d in doc.diagnostics() {
        out.push_str(&format!(
            "{} {}-{} {}: {}\n",
            d.code,
            pos(d.span.start),
            pos(d.span.end),
            d.severity.as_str(),
            d.message
        ));
        if let Some(f) = &d.fix {
            out.push_str(&format!(
                "  fix {}-{}: {} => {:?}\n",
                pos(f.span.start),
                pos(f.span.end),
                f.title,
                f.replacement
            ));
        }
    }
    out
}

/// Checks the diagnostics of `text` (no registry).
pub(crate) fn check(text: &str, expect: Expect) {
    expect.assert_eq(&render(text, None));
}

/// Checks the diagnostics of `text` with a registry (its text format).
pub(crate) fn check_registry(registry: &str, text: &str, expect: Expect) {
    expect.assert_eq(&render(text, Some(registry)));
}

/// The body of the first ```` ```dialect ```` block after `heading`.
fn block_after<'d>(docs: &'d str, heading: &str) -> Option<&'d str> {
    let rest = &docs[docs.find(heading)?..];
    let start = rest.find("```dialect\n")? + "```dialect\n".len();
    let end = rest[start..].find("\n```")?;
    Some(&rest[start..start + end])
}

/// The registry a code's examples use: the backquoted names on the line
/// starting "The examples use a registry".
fn example_registry(docs: &str) -> Option<String> {
    let line = docs
        .lines()
        .find(|l| l.starts_with("The examples use a registry"))?;
    let names: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
    Some(names.join("\n"))
}

#[test]
fn every_example_triggers_its_code_and_every_fix_does_not() {
    for code in all_codes() {
        let docs = code.docs();
        assert!(
            docs.starts_with(&format!("# {} `{}`\n", code.code, code.name)),
            "{}: the docs start with `# CODE `name``",
            code.code
        );
        let registry = example_registry(&docs);
        let example = block_after(&docs, "## Example")
            .unwrap_or_else(|| panic!("{}: no ## Example block", code.code));
        let fix = block_after(&docs, "## Fix")
            .unwrap_or_else(|| panic!("{}: no ## Fix block", code.code));
        let found = render(example, registry.as_deref());
        assert!(
            found.lines().any(|l| l.starts_with(code.code)),
            "{}: the example does not trigger it:\n{example}\n{found}",
            code.code
        );
        let found = render(fix, registry.as_deref());
        assert!(
            !found.lines().any(|l| l.starts_with(code.code)),
            "{}: the fix still triggers it:\n{fix}\n{found}",
            code.code
        );
    }
}

#[test]
fn codes_are_numbered_in_order_and_named_in_kebab_case() {
    for (i, c) in all_codes().iter().enumerate() {
        assert_eq!(c.code, format!("D{:03}", i + 1));
        assert!(
            c.name
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch == '-')
        );
        assert_eq!(super::code(c.code).map(|x| x.code), Some(c.code));
        assert_eq!(super::code(c.name).map(|x| x.code), Some(c.code));
        assert_eq!(
            super::code(&c.code.to_lowercase()).map(|x| x.code),
            Some(c.code)
        );
    }
    assert!(super::code("D999").is_none());
}

/// Renders `docs/dialect-diagnostics.md` from the code files; fails when the
/// committed page differs (run with `UPDATE_EXPECT=1` to rewrite it).
#[test]
fn docs_are_fresh() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/dialect-diagnostics.md");
    let mut page = String::from(
        "# Pattern Dialect diagnostics\n\n<!-- Generated from crates/prose-dialect/src/diagnostics/*.rs by the `docs_are_fresh` test; do not edit. -->\n\n\
         Every code the Pattern Dialect parser reports (see [dialect.md](dialect.md)). Messages are addressed\n\
         to the agent that wrote the action, in plain words.\n\n| Code | Name | Summary | Severity |\n|---|---|---|---|\n",
    );
    for c in all_codes() {
        page.push_str(&format!(
            "| [{0}](#{1}) | `{2}` | {3} | {4} |\n",
            c.code,
            c.code.to_lowercase(),
            c.name,
            c.summary,
            c.severity.as_str()
        ));
    }
    for c in all_codes() {
        // One level down: each code is a section of the page.
        let docs = c.docs().replace("\n## ", "\n### ");
        page.push_str(&format!(
            "\n<a id=\"{}\"></a>\n\n#{}\n**Severity:** {}.\n",
            c.code.to_lowercase(),
            docs,
            c.severity.as_str()
        ));
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current != page {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&path, page).unwrap();
        } else {
            panic!(
                "stale docs/dialect-diagnostics.md (run `UPDATE_EXPECT=1 cargo test -p prose-dialect docs_are_fresh`)"
            );
        }
    }
}
