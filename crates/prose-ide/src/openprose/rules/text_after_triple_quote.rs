//! # P102 `text-after-triple-quote`
//!
//! **Text after the opening `"""`.** A multi-line string has text on the
//! same line as its opening delimiter.
//!
//! ## Example
//! ```prose
//! session """Review the draft.
//! Point out every unclear sentence.
//! """
//! ```
//!
//! ## Fix
//! ```prose
//! session """
//! Review the draft.
//! Point out every unclear sentence.
//! """
//! ```
//!
//! The diagnostic covers that text, from its first non-blank character to
//! the end of the line (or to the closing `"""` of a one-line string).
//! The text is kept as content either way (spec-rows.md §3.4).
//!
//! ## Specification
//! compiler.md, String Literals › Multi-line String Rules 1: "Opening `"""`
//! must be followed by a newline". Not a validation-table row; this project
//! reports it as P102, an error under `strict`.
//!
//! ## Profiles
//! Off in `default`. 97 strings in 9 official programs put text right
//! after the opening delimiter (for example
//! `examples/29-captains-chair.prose:24`), and the reading is never
//! ambiguous: the text is the start of the content.

use super::program_shared::triple_strings;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P102",
    name: "text-after-triple-quote",
    summary: "Text after the opening \"\"\" of a multi-line string",
    strict: Severity::Error,
    default: Level::Off,
    source: include_str!("text_after_triple_quote.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let text = ctx.text();
    for s in triple_strings(ctx).iter() {
        let content = s.content_range();
        let body = &text[content];
        let line = &body[..prose_syntax::lines::line_end(body, 0)];
        if line.trim().is_empty() {
            continue;
        }
        let start = line.len() - line.trim_start().len();
        let len = line.trim_end().len();
        let at = content.start() + prose_syntax::TextSize::from(start as u32);
        acc.report(
            TextRange::new(
                at,
                content.start() + prose_syntax::TextSize::from(len as u32),
            ),
            "Text after the opening `\"\"\"`: the opening delimiter must be followed by a newline",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const TEXT: &str =
        "session \"\"\"Review the draft.\nmore\n\"\"\"\nsession \"\"\"one line\"\"\"\n";

    #[test]
    fn strict_reports_the_rest_of_the_line() {
        check_code_strict(
            "P102",
            TEXT,
            expect![[r#"
            P102 1:12-1:29 error: Text after the opening `"""`: the opening delimiter must be followed by a newline
            P102 4:12-4:20 error: Text after the opening `"""`: the opening delimiter must be followed by a newline
        "#]],
        );
    }

    #[test]
    fn off_by_default() {
        check_code("P102", TEXT, expect![[""]]);
    }

    #[test]
    fn newline_after_delimiter() {
        check_no(
            "P102",
            "session \"\"\"   \nReview.\n\"\"\"\nsession \"single-line \\\"quotes\\\"\"\n",
        );
    }
}
