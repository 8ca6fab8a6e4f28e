//! # K008 `follow-without-list`
//!
//! **`_follow_` without a numbered list.** `_follow_` introduces tasks
//! performed one by one, in order: a numbered list (`1)`, `2)` or `1.`,
//! `2.`) on the lines right after it.
//!
//! ## Why is this bad?
//! Without a numbered list the model does not know which tasks to follow
//! or in what order; a bulleted list gives no order.
//!
//! ## Example
//! ```markdown
//! _if_ _instructed_ like "release", _then_ _follow_:
//! - bump the version
//! - tag the commit
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ _instructed_ like "release", _then_ _follow_:
//! 1) bump the version
//! 2) tag the commit
//! ```
//!
//! ## Severity
//! Warning: the steps may still be clear from the text.

use super::prelude::*;
use crate::instructions::blocks::LineKind;

pub(crate) const RULE: Rule = Rule {
    code: "K008",
    name: "follow-without-list",
    summary: "`_follow_` without a numbered list",
    severity: Severity::Warning,
    source: include_str!("follow_without_list.rs"),
};

const GENERIC: &str =
    "`_follow_` needs a numbered list of tasks (`1)`, `2)`) on the lines after it";

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let lines = &ctx.ins.blocks().lines;
    for k in ctx
        .ins
        .statements()
        .filter(|k| k.keyword == Keyword::Follow)
    {
        let li = ctx.ins.blocks().line_at(usize::from(k.range.start()));
        let Some(ni) = ctx.ins.blocks().next_non_blank(li) else {
            acc.report(k.range, GENERIC);
            continue;
        };
        // The list belongs to `_follow_` when it comes right after it, or
        // after `_follow_:`.
        let this = &lines[li];
        let introduces = ni == li + 1 || ctx.text[this.start..this.end].trim_end().ends_with(':');
        let msg = match lines[ni].kind {
            LineKind::Item { ordered: true } if introduces => continue,
            LineKind::Item { ordered: false } if introduces => {
                "`_follow_` needs a numbered list (`1)`, `2)`): a bulleted list gives no order"
            }
            _ => GENERIC,
        };
        acc.report(k.range, msg);
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::check_code;
    use expect_test::expect;

    #[test]
    fn lists_after_follow() {
        check_code(
            "K008",
            "_follow_:\n1) a\n2) b\n\n_follow_:\n\n1. a\n\n_follow_:\n- a\n\n_follow_ the plan.\n\n- _then_ _follow_:\n    1) nested\n",
            expect![[r#"
                K008 9:1-9:9 warning: `_follow_` needs a numbered list (`1)`, `2)`): a bulleted list gives no order
                K008 12:1-12:9 warning: `_follow_` needs a numbered list of tasks (`1)`, `2)`) on the lines after it
            "#]],
        );
    }
}
