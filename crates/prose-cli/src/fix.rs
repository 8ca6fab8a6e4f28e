//! `prose check --fix`: applies the safe quick fixes of a file.
//!
//! The fixes come from `Analysis::code_actions`, the same ones the editor
//! offers; only those marked `is_safe` (one obvious outcome; see
//! `prose_ide::features::code_actions`) are applied, whatever the file's
//! language. A pass applies every safe fix whose edits do not overlap
//! those already taken (in diagnostic order), then the file is analysed
//! again and the next pass picks up what is left, until nothing changes
//! (at most [`MAX_PASSES`]).
//!
//! A file is left exactly as it was when its fixes, together, would give
//! it an error it did not have (a syntax error, or one more error of any
//! code): a fix must never make a file worse.

use std::collections::BTreeMap;

use prose_ide::{
    AnalysisHost, Diagnostic, FileId, FileRange, Severity, TextRange, TextSize,
    features::{code_actions::CodeAction, rename::TextEdit},
};

use crate::{check::uncancelled, line_index::LineIndex, report::Fixed};

/// Passes over one file before giving up on reaching a fixed point.
pub const MAX_PASSES: usize = 10;

/// What fixing one file did.
#[derive(Debug)]
pub struct FileFix {
    /// The fixes applied (none when refused).
    pub fixed: Vec<Fixed>,
    pub original: String,
    /// The text after the fixes (the original when none applied or refused).
    pub text: String,
    /// Why the fixes were not kept: the first error they would have added.
    pub refused: Option<String>,
}

/// Applies the safe fixes of the file `id` (analysis key `key`, shown as
/// `path`) in `host`. The host ends up holding the returned text.
pub fn fix_file(host: &mut AnalysisHost, id: FileId, key: &str, path: &str) -> FileFix {
    let analysis = host.analysis();
    let original = uncancelled(analysis.file_text(id));
    let before = uncancelled(analysis.diagnostics(id));
    drop(analysis);
    let mut text = original.clone();
    let mut fixed = Vec::new();
    for _ in 0..MAX_PASSES {
        let whole = TextRange::up_to(TextSize::of(text.as_str()));
        let actions = uncancelled(host.analysis().code_actions(FileRange {
            file: id,
            range: whole,
        }));
        let chosen = choose(actions, id);
        if chosen.is_empty() {
            break;
        }
        let index = LineIndex::new(&text);
        let mut edits: Vec<&TextEdit> = Vec::new();
        for (action, action_edits) in &chosen {
            let range = action.diagnostic_range.unwrap_or_default();
            fixed.push(Fixed {
                path: path.to_string(),
                code: action.diagnostic_code.unwrap_or("-"),
                title: action.title.clone(),
                start: index.line_col(range.start().into()),
                end: index.line_col(range.end().into()),
            });
            edits.extend(action_edits.iter());
        }
        let next = apply(&text, edits);
        if next == text {
            break;
        }
        text = next;
        host.set_file_text(key, text.clone());
    }
    if text == original {
        return FileFix {
            fixed: Vec::new(),
            text,
            original,
            refused: None,
        };
    }
    let after = uncancelled(host.analysis().diagnostics(id));
    if let Some(added) = added_error(&before, &after) {
        host.set_file_text(key, original.clone());
        return FileFix {
            fixed: Vec::new(),
            text: original.clone(),
            original,
            refused: Some(format!("the fixes would add error {added}")),
        };
    }
    FileFix {
        fixed,
        original,
        text,
        refused: None,
    }
}

/// The first code `after` has more errors of than `before`, as
/// `CODE: message` (the message of its first error).
fn added_error(before: &[Diagnostic], after: &[Diagnostic]) -> Option<String> {
    let before = error_counts(before);
    let (code, _) = error_counts(after)
        .into_iter()
        .find(|(code, n)| before.get(code).copied().unwrap_or(0) < *n)?;
    let d = after
        .iter()
        .find(|d| d.code.as_str() == code && d.severity == Severity::Error)?;
    Some(format!("{code}: {}", d.message))
}

/// How many errors each code has.
fn error_counts(diagnostics: &[Diagnostic]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        *counts.entry(d.code.as_str()).or_insert(0) += 1;
    }
    counts
}

/// The safe actions to apply in one pass, each with its edits (all in the
/// file `id`): in the given order, skipping any whose edits overlap edits
/// already taken, or that edits another file.
fn choose(actions: Vec<CodeAction>, id: FileId) -> Vec<(CodeAction, Vec<TextEdit>)> {
    let mut taken: Vec<TextRange> = Vec::new();
    let mut chosen = Vec::new();
    for action in actions.into_iter().filter(|a| a.is_safe) {
        let [(file, edits)] = action.edit.edits.as_slice() else {
            continue;
        };
        if *file != id
            || edits.is_empty()
            || edits.iter().enumerate().any(|(i, e)| {
                taken
                    .iter()
                    .chain(edits[..i].iter().map(|e| &e.range))
                    .any(|t| conflict(*t, e.range))
            })
        {
            continue;
        }
        taken.extend(edits.iter().map(|e| e.range));
        let edits = edits.clone();
        chosen.push((action, edits));
    }
    chosen
}

/// Whether two edits cannot both apply: their ranges overlap, or they
/// start at the same offset (two insertions there have no order).
fn conflict(a: TextRange, b: TextRange) -> bool {
    a.start() == b.start() || (a.start() < b.end() && b.start() < a.end())
}

/// `text` with the non-conflicting `edits` applied.
fn apply(text: &str, mut edits: Vec<&TextEdit>) -> String {
    edits.sort_by_key(|e| e.range.start());
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
        out.push_str(&text[at..start]);
        out.push_str(&e.new_text);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;

    fn fix(text: &str) -> FileFix {
        let mut host = AnalysisHost::new();
        let id = host.set_file_text("/ws/a.prose", text);
        fix_file(&mut host, id, "/ws/a.prose", "a.prose")
    }

    fn titles(f: &FileFix) -> Vec<String> {
        f.fixed
            .iter()
            .map(|x| format!("{}:{} {} {}", x.start.line, x.start.column, x.code, x.title))
            .collect()
    }

    #[test]
    fn applies_every_safe_fix_and_only_those() {
        // Safe: the model and key spellings, the tabs, `persist: false`,
        // the agent's name. Not safe: `max: 10` for the loop (P705).
        let f = fix(
            "agent writer:\n\tmodel: opsu\n\tpromt: \"p\"\n\tpersist: false\nloop:\n  session: writer\nsession: wrtier\n",
        );
        expect![[r#"
            agent writer:
                model: opus
                prompt: "p"
            loop:
              session: writer
            session: writer
        "#]]
        .assert_eq(&f.text);
        expect![[r#"
            [
                "2:1 P001 Indent with spaces",
                "2:9 E008 Change to `opus`",
                "3:1 P001 Indent with spaces",
                "3:2 W005 Change to `prompt`",
                "4:1 P001 Indent with spaces",
                "7:10 E007 Change to `writer`",
                "4:14 P301 Remove `persist:`",
            ]
        "#]]
        .assert_debug_eq(&titles(&f));
        assert_eq!(f.refused, None);
    }

    /// A file whose fixes would add an error (here: as if a fix had
    /// produced a syntax error) is refused.
    #[test]
    fn an_added_error_is_found() {
        let mut host = AnalysisHost::new();
        let id = host.set_file_text("/ws/a.prose", "session \"x\"\nlet b = c\n");
        let before = host.analysis().diagnostics(id).unwrap();
        host.set_file_text("/ws/a.prose", "session \"x\" foo\nlet b = c\n");
        let after = host.analysis().diagnostics(id).unwrap();
        assert_eq!(
            added_error(&before, &after).as_deref(),
            Some("E004: Unexpected `foo`: expected end of line")
        );
        assert_eq!(added_error(&after, &after), None);
        assert_eq!(added_error(&after, &before), None);
    }

    #[test]
    fn nothing_to_fix() {
        let f = fix("session \"x\" foo\n");
        assert!(f.fixed.is_empty());
        assert_eq!(f.text, f.original);
    }

    #[test]
    fn conflicts() {
        let r = |a: u32, b: u32| TextRange::new(a.into(), b.into());
        assert!(conflict(r(0, 3), r(2, 5)));
        assert!(conflict(r(2, 2), r(2, 5)));
        assert!(conflict(r(3, 3), r(2, 5)));
        assert!(!conflict(r(5, 5), r(2, 5)));
        assert!(!conflict(r(0, 2), r(2, 5)));
    }
}
