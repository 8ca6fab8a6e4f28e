//! Quick fixes inside string literals: E002 (double the backslash of an
//! unknown escape) and P104 (escape a `"""` that a fenced code block keeps
//! inside a multi-line string).

use super::{Acc, Cx, Fix, insert};

/// E002: `\.` becomes `\\.`, so the text holds the backslash the author
/// wrote in every reading. Preferred: it never changes what the runtime
/// reads.
pub(super) fn double_backslash(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let at = acc.diag.range.start();
    if cx.text[usize::from(at)..].starts_with('\\') {
        acc.fix("Double the backslash", Fix::Safe, vec![insert(at, "\\")]);
    }
}

/// P104: a backslash before the first quote of each group of three, so no
/// run of three quotes is left (`"""` becomes `\"""`).
pub(super) fn escape_fenced_quotes(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let range = acc.diag.range;
    let run = &cx.text[range];
    if run.is_empty() || !run.bytes().all(|b| b == b'"') {
        return;
    }
    let edits = (0..run.len())
        .step_by(3)
        .map(|i| insert(range.start() + text_size(i), "\\"))
        .collect();
    acc.fix("Escape the quotes: `\\\"\"\"`", Fix::Safe, edits);
}

fn text_size(i: usize) -> prose_syntax::TextSize {
    prose_syntax::TextSize::from(i as u32)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::tests::check_fix;

    #[test]
    fn doubles_the_backslash_of_an_unknown_escape() {
        check_fix(
            r#"session "Match *\$0.md files""#,
            "Double the backslash",
            expect![[r#"session "Match *\\.md files""#]],
        );
    }

    #[test]
    fn doubles_a_backslash_at_the_end_of_a_line() {
        check_fix(
            "agent a:\n  model: haiku\n  prompt: \"\"\"\n    curl -X POST $API \\$0\n      -d @body.json\n  \"\"\"\n",
            "Double the backslash",
            expect![[r#"
                agent a:
                  model: haiku
                  prompt: """
                    curl -X POST $API \\
                      -d @body.json
                  """
            "#]],
        );
    }

    #[test]
    fn escapes_a_triple_quote_inside_a_fence() {
        check_fix(
            r#"agent a:
  model: haiku
  prompt: """
    ```prose
    session "x"
      prompt: "$0""
        y
      """
    ```
  """
"#,
            "Escape the quotes: `\\\"\"\"`",
            expect![[r#"
                agent a:
                  model: haiku
                  prompt: """
                    ```prose
                    session "x"
                      prompt: \"""
                        y
                      """
                    ```
                  """
                --- still reported
                P104 `"""` inside a fenced code block ends the string by the grammar; it is read as text because the fence closes later on. Escape it: `\"""`
            "#]],
        );
    }
}
