//! # E002 `unknown-escape`
//!
//! **Unknown escape sequence in string.** A backslash inside a string is
//! followed by a character that is not one of the escapes OpenProse knows.
//!
//! Valid escapes: `\\` (backslash), `\"` (quote), `\n` (newline), `\t`
//! (tab), and `\{` / `\}` (literal braces, so `{name}` is not
//! interpolated).
//!
//! ## Why is this bad?
//! The runtime cannot know whether `\.` means a backslash and a dot or just
//! a dot; the specification makes it an error rather than guess.
//!
//! ## Example
//! ```prose
//! session "Match files like *\.md"
//! ```
//!
//! ## Fix
//! ```prose
//! session "Match files like *\\.md"
//! ```
//!
//! ## Fix (quick fix)
//! Double the backslash (`\\.`): the text then holds exactly the backslash
//! the author wrote, in every reading. The editor offers this fix on every
//! unknown escape.
//!
//! ## Specification
//! compiler.md, String Literals: "Unknown escape sequence" (Error) and rule
//! 2 "Unknown escape sequences are errors"; Validation Rules: E002. `\}`
//! is accepted alongside the documented `\{` (project decision: an escaped
//! closing brace is the natural partner of an escaped opening one).
//!
//! ## Profiles
//! `strict` reports every unknown escape as an error, as the specification
//! says.
//!
//! `default` reports an unknown escape **inside a `"""` string** as a
//! **hint**, and keeps the error in `"…"` strings. Triple-quoted prompts
//! embed shell commands, regular expressions and JSON for the agent to
//! read: `\` at the end of a line (a shell continuation), `\.`, `\d`,
//! `\$`. The runtime hands the prompt to a model as written, so the
//! backslash reaches the agent exactly as the author meant it; nothing
//! goes wrong at run time, and an error on each such line (57 of them in
//! the language's own `common/` library, for example
//! `common/auditor.prose:177`, a `curl` command continued over three lines)
//! would bury the real problems. The hint stays visible in the editor, with
//! the quick fix, for authors who want programs that are valid by the
//! letter of the specification. The same reasoning covers the official
//! `lib/profiler.prose:264` (a regular expression `\.md` in a prompt,
//! where line 98 of the same program writes `\\.md`). A one-line `"…"`
//! string is a short literal where an unknown escape is more likely a typo
//! (`"C:\data"`), and stays an error.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E002",
    name: "unknown-escape",
    summary: "Unknown escape sequence in string",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("unknown_escape.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for e in ctx
        .parse()
        .errors()
        .iter()
        .filter(|e| e.code == SyntaxErrorCode::E002)
    {
        let in_triple = node_at(ctx, e.range)
            .and_then(|n| n.ancestors().find_map(ast::StringLit::cast))
            .is_some_and(|s| s.is_triple());
        if in_triple {
            acc.report_calibrated(
                e.range,
                e.message.clone(),
                Vec::new(),
                Level::On(Severity::Hint),
            );
        } else {
            acc.report(e.range, e.message.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_strict};
    use expect_test::expect;

    #[test]
    fn reports_the_escape_only() {
        check(
            r#"session "a\.b \{ok\} \n""#,
            expect![[r#"
                E002 1:11-1:13 error: Unknown escape sequence `\.`: write `\\.` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
            "#]],
        );
    }

    /// A prompt that shows a shell command and a regular expression.
    const PROMPT: &str = r#"agent auditor:
  model: sonnet
  prompt: """
    Post the report:
    curl -X POST "$API/reports" \
      -H "Content-Type: application/json" \
      -d @report.json
    Match versions with `v\d+\.\d+` and keep the `\$HOME` literal.
  """
"#;

    #[test]
    fn triple_quoted_prompts_get_hints_by_default() {
        check(
            PROMPT,
            expect![[r#"
                E002 5:33-5:34 hint: Unknown escape sequence: a backslash at the end of a line; write `\\` to keep it; valid escapes are \\, \", \n, \t, \{ and \}
                E002 6:43-6:44 hint: Unknown escape sequence: a backslash at the end of a line; write `\\` to keep it; valid escapes are \\, \", \n, \t, \{ and \}
                E002 8:27-8:29 hint: Unknown escape sequence `\d`: write `\\d` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
                E002 8:30-8:32 hint: Unknown escape sequence `\.`: write `\\.` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
                E002 8:32-8:34 hint: Unknown escape sequence `\d`: write `\\d` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
                E002 8:51-8:53 hint: Unknown escape sequence `\$`: write `\\$` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
            "#]],
        );
    }

    #[test]
    fn strict_keeps_the_spec_error() {
        check_strict(
            PROMPT,
            expect![[r#"
                P103 5:18-5:19 error: Unescaped quote in string: an unescaped `"`; write `\"`
                P103 5:31-5:32 error: Unescaped quote in string: an unescaped `"`; write `\"`
                E002 5:33-5:34 error: Unknown escape sequence: a backslash at the end of a line; write `\\` to keep it; valid escapes are \\, \", \n, \t, \{ and \}
                P103 6:10-6:11 error: Unescaped quote in string: an unescaped `"`; write `\"`
                P103 6:41-6:42 error: Unescaped quote in string: an unescaped `"`; write `\"`
                E002 6:43-6:44 error: Unknown escape sequence: a backslash at the end of a line; write `\\` to keep it; valid escapes are \\, \", \n, \t, \{ and \}
                E002 8:27-8:29 error: Unknown escape sequence `\d`: write `\\d` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
                E002 8:30-8:32 error: Unknown escape sequence `\.`: write `\\.` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
                E002 8:32-8:34 error: Unknown escape sequence `\d`: write `\\d` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
                E002 8:51-8:53 error: Unknown escape sequence `\$`: write `\\$` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
            "#]],
        );
    }

    #[test]
    fn one_line_strings_stay_errors() {
        check(
            r#"session "Save to C:\data"
"#,
            expect![[r#"
                E002 1:20-1:22 error: Unknown escape sequence `\d`: write `\\d` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
            "#]],
        );
    }
}
