//! Workspace symbols: find agents, blocks, inputs, outputs and program-wide
//! variables by name across every file of the workspace.
//!
//! A name matches when the query's characters appear in it in order,
//! ignoring case (`rvw` finds `reviewer`). Results are ranked: exact name,
//! then prefix, then substring, then scattered match; files of the
//! workspace before fetched copies of imported programs and files outside
//! it; then by name and path. At most [`MAX_RESULTS`] are returned. A name
//! bound several times in one file (a variable set in both arms of an
//! `if`) is listed once, at its first binding. Variables bound inside a
//! `block` body and scoped variables (loop, parameter, ...) are not listed.

use std::collections::HashSet;

use crate::{
    features::navigation::{Nav, NavigationTarget, SymbolKind},
    semantics::DefKind,
};

/// The most results one query returns.
pub const MAX_RESULTS: usize = 128;

pub(crate) fn workspace_symbols(nav: &Nav<'_>, query: &str) -> Vec<NavigationTarget> {
    let query: Vec<char> = query.trim().to_lowercase().chars().collect();
    let mut found = Vec::new();
    for f in nav.workspace_files() {
        let foreign = nav.foreign_reason(f).is_some();
        let path = nav.path(f);
        let sema = nav.sema(f);
        let mut seen = HashSet::new();
        for (i, d) in sema.defs.iter().enumerate() {
            let listed = match d.kind {
                DefKind::Agent | DefKind::Block | DefKind::Input | DefKind::Output => true,
                k => k.is_flat_binding() && !d.in_block_def,
            };
            if !listed || d.name.is_empty() || !seen.insert((SymbolKind::of(d.kind), &d.name)) {
                continue;
            }
            let Some(score) = score(&d.name, &query) else {
                continue;
            };
            let Some(target) = nav.def_target(f, crate::semantics::DefId(i as u32)) else {
                continue;
            };
            found.push((
                (
                    score,
                    foreign,
                    d.name.to_lowercase(),
                    path,
                    d.name_range.start(),
                ),
                target,
            ));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found.truncate(MAX_RESULTS);
    found.into_iter().map(|(_, t)| t).collect()
}

/// How well `name` matches the lowercase `query` (lower is better).
fn score(name: &str, query: &[char]) -> Option<u8> {
    if query.is_empty() {
        return Some(0);
    }
    let lower = name.to_lowercase();
    let q: String = query.iter().collect();
    if lower == q {
        return Some(0);
    }
    if lower.starts_with(&q) {
        return Some(1);
    }
    if lower.contains(&q) {
        return Some(2);
    }
    let mut rest = query.iter().peekable();
    for c in lower.chars() {
        if rest.peek() == Some(&&c) {
            rest.next();
        }
    }
    rest.peek().is_none().then_some(3)
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::{features::navigation::mark, fixture::Fixture};

    fn check(fixture: &str, query: &str, expect: Expect) {
        let (host, _) = Fixture::parse(fixture).host(None);
        let analysis = host.analysis();
        let mut out = String::new();
        for t in analysis.workspace_symbols(query).unwrap() {
            let path = analysis.file_path(t.file).unwrap();
            let text = analysis.file_text(t.file).unwrap();
            let focus = t.focus_range.expect("symbols have names");
            out.push_str(&format!("{:?} {}\n", t.kind, mark(&path, &text, focus)));
        }
        expect.assert_eq(&out);
    }

    const WORKSPACE: &str = r#"#- /ws/main.prose
use "./lib/review.prose"
input topic: "t"
agent reviewer:
  model: opus
let review_notes = session: reviewer
if **x**:
  let review_notes = session "again"
for item in xs:
  session "{item}"
output verdict = do check(review_notes)
#- /ws/lib/review.prose
block check(subject):
  let inner_review = session "{subject}"
output review = session "r"
#- /ws/.prose/imports/bob--rev/program.prose
agent rev:
  model: haiku
"#;

    #[test]
    fn ranked_matches_across_files() {
        check(
            WORKSPACE,
            "rev",
            expect![[r#"
                Agent /ws/.prose/imports/bob--rev/program.prose:1 agent <rev>:
                Output /ws/lib/review.prose:3 output <review> = session "r"
                Variable /ws/main.prose:5 let <review_notes> = session: reviewer
                Agent /ws/main.prose:3 agent <reviewer>:
            "#]],
        );
        check(
            WORKSPACE,
            "RVN",
            expect![[r#"
                Variable /ws/main.prose:5 let <review_notes> = session: reviewer
            "#]],
        );
    }

    #[test]
    fn everything_for_an_empty_query() {
        check(
            WORKSPACE,
            "",
            expect![[r#"
                Block /ws/lib/review.prose:1 block <check>(subject):
                Output /ws/lib/review.prose:3 output <review> = session "r"
                Variable /ws/main.prose:5 let <review_notes> = session: reviewer
                Agent /ws/main.prose:3 agent <reviewer>:
                Input /ws/main.prose:2 input <topic>: "t"
                Output /ws/main.prose:10 output <verdict> = do check(review_notes)
                Agent /ws/.prose/imports/bob--rev/program.prose:1 agent <rev>:
            "#]],
        );
        check(WORKSPACE, "zzz", expect![[""]]);
    }

    #[test]
    fn caps_results() {
        let mut text = String::new();
        for i in 0..200 {
            text.push_str(&format!("let v{i} = {i}\n"));
        }
        let (host, _) = Fixture::parse(&text).host(None);
        let symbols = host.analysis().workspace_symbols("v").unwrap();
        assert_eq!(symbols.len(), super::MAX_RESULTS);
    }
}
