//! # P103 `unescaped-quote-in-string`
//!
//! **Unescaped `"` in a multi-line string.** A `"` inside a `"""` string is
//! not written `\"`. That includes the extra quotes of a closing run longer
//! than three: in `?"""""` the last three quotes close the string and the
//! first two are content.
//!
//! ## Example
//! ```prose
//! session """
//! Ask the user: "Is this what you meant?"
//! """
//! ```
//!
//! ## Fix
//! ```prose
//! session """
//! Ask the user: \"Is this what you meant?\"
//! """
//! ```
//!
//! The diagnostic is on each run of unescaped quotes, except a `"""` that a
//! fenced code block keeps inside the string: that one is
//! [P104](P104.md).
//!
//! ## Specification
//! compiler.md, Syntax Grammar: `character → escape | non-quote`, so a
//! string holds no bare `"`. Not a validation-table row; this project
//! reports it as P103, an error under `strict`.
//!
//! ## Profiles
//! Off in `default`. 81 strings in 17 official programs contain unescaped
//! quotes (849 quote characters, for example
//! `examples/28-gas-town.prose:255`), and once a `"""` string closes at the
//! *last* three quotes of a run (spec-rows.md §3.4) none of them is
//! ambiguous. `examples/39-architect-by-simulation.prose:184` ends a quoted
//! question with `?"""""`: the author's intent, a question in quotes, is
//! what the content keeps.

use super::program_shared::triple_strings;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P103",
    name: "unescaped-quote-in-string",
    summary: "Unescaped quote in a multi-line string",
    strict: Severity::Error,
    default: Level::Off,
    source: include_str!("unescaped_quote_in_string.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let fenced: Vec<TextRange> = ctx
        .parse()
        .errors()
        .iter()
        .filter(|e| e.code == SyntaxErrorCode::P104)
        .map(|e| e.range)
        .collect();
    for s in triple_strings(ctx).iter() {
        let mut runs: Vec<TextRange> = Vec::new();
        for t in s
            .syntax()
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == SyntaxKind::STRING_TEXT)
        {
            let base = t.text_range().start();
            // A `"` byte is always the character `"` in UTF-8.
            for i in memchr::memchr_iter(b'"', t.text().as_bytes()) {
                let at = TextRange::at(base + prose_syntax::TextSize::from(i as u32), 1.into());
                match runs.last_mut() {
                    Some(last) if last.end() == at.start() => *last = last.cover(at),
                    _ => runs.push(at),
                }
            }
        }
        for run in runs {
            // A `"""` kept inside a fenced code block is P104's.
            if fenced.contains(&run) {
                continue;
            }
            let n = usize::from(run.len());
            let what = if n == 1 {
                "an unescaped `\"`".to_string()
            } else {
                format!("{n} unescaped `\"`")
            };
            acc.report(
                run,
                format!("Unescaped quote in string: {what}; write `\\\"`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const QUOTES: &str = "session \"\"\"\nSay \"hi\" \\\" ok\nAll phases?\"\"\"\"\"\n";

    #[test]
    fn strict_reports_each_run() {
        check_code_strict(
            "P103",
            QUOTES,
            expect![[r#"
            P103 2:5-2:6 error: Unescaped quote in string: an unescaped `"`; write `\"`
            P103 2:8-2:9 error: Unescaped quote in string: an unescaped `"`; write `\"`
            P103 3:12-3:14 error: Unescaped quote in string: 2 unescaped `"`; write `\"`
        "#]],
        );
    }

    #[test]
    fn off_by_default() {
        check_code("P103", QUOTES, expect![[""]]);
    }

    #[test]
    fn escaped_quotes_and_single_line_strings() {
        check_no(
            "P103",
            "session \"\"\"\nSay \\\"hi\\\"\n\"\"\"\nsession \"a \\\"b\\\"\"\n",
        );
    }
}
