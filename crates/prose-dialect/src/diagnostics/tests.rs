//! Shared checks of the diagnostic codes: every documented example triggers
//! its code and every fix does not. (The pages in `docs/diagnostics/` are
//! rendered, and kept fresh, with every language's codes by `prose-ide`.)

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

#[test]
fn every_example_triggers_its_code_and_every_fix_does_not() {
    for code in all_codes() {
        let docs = code.docs();
        assert!(
            docs.starts_with(&format!("# {} `{}`\n", code.code, code.name)),
            "{}: the docs start with `# CODE `name``",
            code.code
        );
        let blocks = code.example_blocks();
        let registry = (!blocks.is_empty()).then(|| blocks.join("\n"));
        let example = prose_rule_docs::fenced_block(&docs, "Example", "dialect")
            .unwrap_or_else(|| panic!("{}: no ## Example block", code.code));
        let fix = prose_rule_docs::fenced_block(&docs, "Fix", "dialect")
            .unwrap_or_else(|| panic!("{}: no ## Fix block", code.code));
        let found = render(&example, registry.as_deref());
        assert!(
            found.lines().any(|l| l.starts_with(code.code)),
            "{}: the example does not trigger it:\n{example}\n{found}",
            code.code
        );
        let found = render(&fix, registry.as_deref());
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
