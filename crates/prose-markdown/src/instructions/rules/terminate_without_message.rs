//! # K004 `terminate-without-message`
//!
//! **`_terminate_` without a quoted message.** `_terminate_` is followed
//! by the exact reply in double quotes: `_terminate_ "SGN_DONE"`.
//!
//! ## Why is this bad?
//! The caller tests the reply against patterns (`_subreplied_ like
//! "SGN_PENDING ({identifier})"`): a reply left to the model's wording
//! does not match them. An unquoted signal, or a message in backticks,
//! is reported with a quick fix that quotes it.
//!
//! A message described in words, as the seed does (`_terminate_ using
//! that same previous reply as a msg`), is accepted after `using` or
//! `with`.
//!
//! ## Example
//! ```markdown
//! _if_ the tests pass, _then_ _terminate_ SGN_DONE.
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ the tests pass, _then_ _terminate_ "SGN_DONE".
//! ```
//!
//! ## Severity
//! Warning: the session still ends, with a reply nobody can rely on.

use super::prelude::*;
use crate::instructions::structure::{code_span_after, quote_after};

pub(crate) const RULE: Rule = Rule {
    code: "K004",
    name: "terminate-without-message",
    summary: "`_terminate_` without a quoted message",
    severity: Severity::Warning,
    source: include_str!("terminate_without_message.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let text = ctx.text;
    for k in ctx
        .ins
        .statements()
        .filter(|k| k.keyword == Keyword::Terminate)
    {
        let end = usize::from(k.range.end());
        if quote_after(text, ctx.ins.lexed(), end).is_some() {
            continue;
        }
        let rest = text[end..].trim_start_matches([' ', '\t', ':']);
        let next_word = rest
            .split(|c: char| !c.is_ascii_alphabetic())
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if next_word == "using" || next_word == "with" {
            continue;
        }
        let at = end + (text[end..].len() - rest.len());
        if let Some(span) = code_span_after(text, &ctx.ins.md, end) {
            let whole = range(usize::from(span.start()) - 1, usize::from(span.end()) + 1);
            let inner = slice(text, span).to_string();
            acc.report(k.range, "Quote the message of `_terminate_` in double quotes, not backticks: the caller matches the exact reply")
                .fix("Quote the message", whole, format!("\"{inner}\""));
            continue;
        }
        if let Some(sig) = ctx
            .ins
            .signals
            .iter()
            .find(|s| usize::from(s.range.start()) == at)
        {
            acc.report(
                k.range,
                format!(
                    "Quote the message: `_terminate_ \"{}\"` (the caller matches the exact reply)",
                    sig.name
                ),
            )
            .fix("Quote the message", sig.range, format!("\"{}\"", sig.name));
            continue;
        }
        acc.report(
            k.range,
            "`_terminate_` needs the exact reply in double quotes (`_terminate_ \"SGN_DONE\"`): the caller matches it",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::{check_code, check_fix};
    use expect_test::expect;

    #[test]
    fn missing_or_unquoted_messages() {
        check_code(
            "K004",
            "- _terminate_.\n- _terminate_ SGN_DONE\n- _terminate_ `SGN_X`\n- _terminate_ now\n- _terminate_ \"ok\"\n- _terminate_: \u{201c}ok\u{201d}\n- _terminate_ using that same previous reply as a msg again.\n",
            expect![[r#"
                K004 1:3-1:14 warning: `_terminate_` needs the exact reply in double quotes (`_terminate_ "SGN_DONE"`): the caller matches it
                K004 2:3-2:14 warning: Quote the message: `_terminate_ "SGN_DONE"` (the caller matches the exact reply)
                K004 3:3-3:14 warning: Quote the message of `_terminate_` in double quotes, not backticks: the caller matches the exact reply
                K004 4:3-4:14 warning: `_terminate_` needs the exact reply in double quotes (`_terminate_ "SGN_DONE"`): the caller matches it
            "#]],
        );
    }

    #[test]
    fn quick_fixes_quote() {
        check_fix(
            "K004",
            "_terminate_ SGN_DONE.\n",
            expect![[r#"
            _terminate_ "SGN_DONE".
        "#]],
        );
        check_fix(
            "K004",
            "_terminate_ `SGN_DONE`.\n",
            expect![[r#"
            _terminate_ "SGN_DONE".
        "#]],
        );
    }
}
