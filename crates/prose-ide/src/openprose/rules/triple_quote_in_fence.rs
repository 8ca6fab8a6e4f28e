//! # P104 `triple-quote-in-fence`
//!
//! **`"""` inside a fenced code block of a multi-line string.** A prompt
//! shows an example in a Markdown fence (```` ``` ````), and the example
//! contains `"""`, which by the grammar ends the surrounding string.
//!
//! ## Example
//! ````prose
//! agent composer:
//!   model: haiku
//!   prompt: """
//!     Format the bounty as a program:
//!
//!     ```prose
//!     session "Record submission"
//!       prompt: """
//!         Record this bounty submission.
//!       """
//!     ```
//!   """
//! ````
//!
//! ## Fix
//! ````prose
//! agent composer:
//!   model: haiku
//!   prompt: """
//!     Format the bounty as a program:
//!
//!     ```prose
//!     session "Record submission"
//!       prompt: \"""
//!         Record this bounty submission.
//!       \"""
//!     ```
//!   """
//! ````
//!
//! `\"""` is an escaped quote followed by two quotes: the same three
//! characters of text, in every reading. The editor offers this fix.
//!
//! ## How the program is read
//! The author evidently meant the fence as text, and so does prose-lsp in
//! every profile: a run of three or more quotes inside a fence is text when
//! the fence visibly closes (a later line of at least as many backticks and
//! nothing else, with every line up to it indented at least as far as the
//! fence). A fence that never closes, or a line indented less than the fence
//! (where the closing `"""` usually sits), ends that reading, and the `"""`
//! closes the string as the grammar says. This gives one diagnostic on each
//! inner `"""` instead of a cascade of syntax errors on the prompt's lines
//! after it. See docs/syntax.md, "Strings".
//!
//! ## Specification
//! compiler.md, String Literals › Multi-line String Rules: a `"""` string
//! ends at the next `"""`. Not a validation-table row; this project reports
//! it as P104.
//!
//! ## Profiles
//! `strict`: an error, because by the specification the string ends there.
//! `default`: a warning. The runtime reads the prompt as its author meant
//! it (the language's own `common/bounty.prose:103` shows a whole program
//! in such a fence), but other tools that follow the grammar will not, so
//! the escape is worth writing.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P104",
    name: "triple-quote-in-fence",
    summary: "\"\"\" inside a fenced code block of a multi-line string",
    strict: Severity::Error,
    default: Level::On(Severity::Warning),
    source: include_str!("triple_quote_in_fence.rs"),
    check: Check::OpenProse(|ctx, acc| syntax_errors(ctx, acc, SyntaxErrorCode::P104)),
};

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_strict};
    use expect_test::expect;

    /// A prompt showing a program whose session has a `"""` prompt.
    const PROMPT: &str = r#"agent composer:
  model: haiku
  prompt: """
    Format the bounty as a program:

    ```prose
    input solution: "Your solution"

    session "Record submission"
      prompt: """
        Record this submission: {solution}
      """
    ```

    Return: { bounty_id, slug }
  """

session: composer
"#;

    #[test]
    fn one_warning_per_inner_quote_and_nothing_else() {
        check(
            PROMPT,
            expect![[r#"
                P104 10:15-10:18 warning: `"""` inside a fenced code block ends the string by the grammar; it is read as text because the fence closes later on. Escape it: `\"""`
                P101 11:34-11:42 hint: Undefined interpolation variable `solution`: `{solution}` is passed to the session as literal text; write `\{solution}` if that is meant
                P104 12:7-12:10 warning: `"""` inside a fenced code block ends the string by the grammar; it is read as text because the fence closes later on. Escape it: `\"""`
            "#]],
        );
    }

    #[test]
    fn strict_reports_errors_at_the_same_places() {
        check_strict(
            PROMPT,
            expect![[r#"
                P103 7:21-7:22 error: Unescaped quote in string: an unescaped `"`; write `\"`
                P103 7:35-7:36 error: Unescaped quote in string: an unescaped `"`; write `\"`
                P103 9:13-9:14 error: Unescaped quote in string: an unescaped `"`; write `\"`
                P103 9:31-9:32 error: Unescaped quote in string: an unescaped `"`; write `\"`
                P104 10:15-10:18 error: `"""` inside a fenced code block ends the string by the grammar; it is read as text because the fence closes later on. Escape it: `\"""`
                P101 11:34-11:42 error: Undefined interpolation variable `solution`: `{solution}` is passed to the session as literal text; write `\{solution}` if that is meant
                P104 12:7-12:10 error: `"""` inside a fenced code block ends the string by the grammar; it is read as text because the fence closes later on. Escape it: `\"""`
            "#]],
        );
    }

    #[test]
    fn an_unclosed_fence_does_not_hold_the_string_open() {
        // The author forgot the closing fence: the `"""` left of the fence
        // closes the string, and the program goes on.
        check(
            r#"agent a:
  model: haiku
  prompt: """
    Run:
    ```bash
    ls -la
  """

session: a
"#,
            expect![""],
        );
    }
}
