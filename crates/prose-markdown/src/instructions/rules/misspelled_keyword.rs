//! # K001 `misspelled-keyword`
//!
//! **Misspelled keyword.** A `_word_` that is one or two letters away
//! from a keyword (or the keyword in other capitals), standing where that
//! keyword belongs: before the argument it takes (`_termiante_ "…"`,
//! `_rnu_ `…``, `_folow_:`), or inside an `_if_ … _then_` that needs it.
//!
//! ## Why is this bad?
//! A misspelled keyword is ordinary emphasis to the model: the instruction
//! it was meant to carry is lost, silently.
//!
//! Ordinary markdown is never reported: the word must be close to a
//! keyword *and* stand where the keyword would. `_really_`, `_note_`,
//! `_them_`, words that merely start like a keyword (`_terminated_`,
//! `_resumes_`), snake_case names, paths, URLs and code are left alone.
//!
//! ## Example
//! ```markdown
//! _if_ the build fails, _then_ _termiante_ "SGN_BUILD_FAILED".
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ the build fails, _then_ _terminate_ "SGN_BUILD_FAILED".
//! ```
//!
//! A quick fix replaces the word with the keyword.
//!
//! ## Severity
//! Warning: the detection is a judgement, however careful.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "K001",
    name: "misspelled-keyword",
    summary: "Misspelled keyword",
    severity: Severity::Warning,
    source: include_str!("misspelled_keyword.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for n in &ctx.ins.near_misses {
        let kw = n.keyword.written();
        acc.report(
            n.range,
            format!("`_{}_` is not a keyword: did you mean `{kw}`?", n.written),
        )
        .fix(format!("Change to `{kw}`"), n.range, kw.clone());
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::{check_code, check_fix};
    use expect_test::expect;

    #[test]
    fn typos_where_keywords_belong() {
        check_code(
            "K001",
            r#"_if_ x, _then_ _termiante_ "SGN_DONE".
_if_ y, _tehn_ _rnu_ `make`.

_iff_ z, _then_ _spwan_ `a.md`.
_if_ _instrcted_ like "go", _then_ _folow_:
1) a
_Terminate_ "x"
"#,
            expect![[r#"
                K001 1:16-1:27 warning: `_termiante_` is not a keyword: did you mean `_terminate_`?
                K001 2:9-2:15 warning: `_tehn_` is not a keyword: did you mean `_then_`?
                K001 2:16-2:21 warning: `_rnu_` is not a keyword: did you mean `_run_`?
                K001 4:1-4:6 warning: `_iff_` is not a keyword: did you mean `_if_`?
                K001 4:17-4:24 warning: `_spwan_` is not a keyword: did you mean `_spawn_`?
                K001 5:6-5:17 warning: `_instrcted_` is not a keyword: did you mean `_instructed_`?
                K001 5:36-5:43 warning: `_folow_` is not a keyword: did you mean `_follow_`?
                K001 7:1-7:12 warning: `_Terminate_` is not a keyword: did you mean `_terminate_`?
            "#]],
        );
    }

    #[test]
    fn ordinary_emphasis_is_left_alone() {
        check_code(
            "K001",
            r#"_if_ x, _then_ do it _really_ carefully; _note_ that _them_ and _the_ are words.
The session was _terminated_ and _resumes_ later; _fun_ times; _task_ "x"; _fellow_ engineers.
_if_ this is _it_, _then_ stop.
"#,
            expect![""],
        );
    }

    #[test]
    fn quick_fix() {
        check_fix(
            "K001",
            "_if_ x, _then_ _termiante_ \"SGN_DONE\".\n",
            expect![[r#"
                _if_ x, _then_ _terminate_ "SGN_DONE".
            "#]],
        );
    }
}
