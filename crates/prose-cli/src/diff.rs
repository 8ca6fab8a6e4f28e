//! Unified diffs of the changes `prose fmt --diff` and
//! `prose check --fix --diff` would write.

/// The unified diff (three lines of context) turning `old` into `new`,
/// with `--- path` / `+++ path` headers (apply it with `patch -p0` from
/// the directory the paths are relative to); empty when they are equal.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(path, path)
        .to_string()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::unified;

    #[test]
    fn headers_hunks_and_a_missing_final_newline() {
        assert_eq!(unified("a.prose", "x\n", "x\n"), "");
        expect![[r#"
            --- a.prose
            +++ a.prose
            @@ -1,3 +1,3 @@
             agent a:
            -    model: opus
            +  model: opus
             session: a
            \ No newline at end of file
        "#]]
        .assert_eq(&unified(
            "a.prose",
            "agent a:\n    model: opus\nsession: a",
            "agent a:\n  model: opus\nsession: a",
        ));
    }
}
