//! Tests of `push_cache.rs`: every list serialised through the cache is
//! what converting and serialising the whole list gives.

use super::*;
use prose_ide::{DiagnosticCode, Related, Severity, Tag};

const PATH: &str = "/w/a.prose";

fn uri() -> Uri {
    "file:///w/a.prose".parse().unwrap()
}

/// Serialises `raw` for `text` through `cache` and checks the bytes
/// against serde's for the whole list converted; returns how many
/// diagnostics were converted.
fn check(
    cache: &mut JsonCache,
    text: &str,
    raw: &[prose_ide::Diagnostic],
    docs: Option<&str>,
) -> usize {
    check_list(cache, text, raw, docs).0
}

/// [`check`], also returning where the list's bytes were.
fn check_list(
    cache: &mut JsonCache,
    text: &str,
    raw: &[prose_ide::Diagnostic],
    docs: Option<&str>,
) -> (usize, *const u8) {
    let text = Arc::new(LineText::new(text.to_string()));
    check_after(cache, &text, raw, docs, None)
}

/// [`check_list`] of a text as the job has it, with the comparison of
/// the texts made `ahead` if any.
fn check_after(
    cache: &mut JsonCache,
    text: &Arc<LineText>,
    raw: &[prose_ide::Diagnostic],
    docs: Option<&str>,
    ahead: Option<&Ahead>,
) -> (usize, *const u8) {
    let uri = uri();
    let other: Uri = "file:///w/b.prose".parse().unwrap();
    let convert_one = |d: &prose_ide::Diagnostic| {
        convert::diagnostic(Encoding::Utf16, text, d, docs, |path, r| {
            if path == PATH {
                Some((uri.clone(), text.range(Encoding::Utf16, r)))
            } else {
                Some((other.clone(), ls_types::Range::default()))
            }
        })
    };
    let mut converted = 0;
    let doc = Doc {
        uri: &uri,
        path: PATH,
        text,
        encoding: Encoding::Utf16,
        docs_url: docs,
    };
    let ours = cache.serialise(&doc, raw, ahead, |d| {
        converted += 1;
        convert_one(d)
    });
    let whole: Vec<Diagnostic> = raw.iter().map(convert_one).collect();
    let theirs = serde_json::to_vec(&whole).unwrap();
    assert_eq!(
        String::from_utf8(ours.clone()).unwrap(),
        String::from_utf8(theirs).unwrap(),
        "text {:?}",
        text.text()
    );
    // Back from the client.
    let bytes = ours.as_ptr();
    cache.keep_list(&uri, ours);
    (converted, bytes)
}

fn at(start: u32, end: u32) -> TextRange {
    TextRange::new(start.into(), end.into())
}

fn diag(range: TextRange, message: &str, related: &[(&str, TextRange)]) -> prose_ide::Diagnostic {
    prose_ide::Diagnostic {
        code: DiagnosticCode("E019"),
        name: "duplicate-variable",
        severity: Severity::Error,
        message: message.into(),
        range,
        related: related
            .iter()
            .map(|&(path, range)| Related {
                path: path.into(),
                range,
                message: "first defined here".into(),
            })
            .collect(),
        tags: Vec::new(),
    }
}

/// A finding on the name of each line `let {name} = 1` of `text`,
/// saying the line, with a note on line 0 when the name ends in an odd
/// digit; `skip` leaves one line's finding out.
fn findings(text: &str, skip: Option<usize>) -> Vec<prose_ide::Diagnostic> {
    let t = LineText::new(text.to_string());
    let mut out = Vec::new();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if Some(i) == skip || !line.starts_with("let") {
            continue;
        }
        let start = t
            .offset(Encoding::Utf8, ls_types::Position::new(i as u32, 4))
            .unwrap();
        let name = line[4..].split(' ').next().unwrap();
        let odd = name.ends_with(['1', '3', '5', '7', '9']);
        let related: &[(&str, TextRange)] = if odd { &[(PATH, at(4, 6))] } else { &[] };
        let range = TextRange::at(start, (name.len() as u32).into());
        out.push(diag(
            range,
            &format!("{} \"q\" é", line.trim_end()),
            related,
        ));
    }
    out
}

#[test]
fn converts_only_what_changed_and_writes_what_serde_writes() {
    let text: String = (0..12).map(|i| format!("let x{} = 1\n", i % 10)).collect();
    let mut cache = JsonCache::default();
    let mut seq =
        |text: &str, raw: &[prose_ide::Diagnostic], docs| check(&mut cache, text, raw, docs);
    assert_eq!(seq(&text, &findings(&text, None), None), 12);
    // The same text and list: nothing converted.
    assert_eq!(seq(&text, &findings(&text, None), None), 0);
    // A character typed on line 5: that line's finding only.
    let typed = text.replacen("let x5", "let x5z", 1);
    assert_eq!(seq(&typed, &findings(&typed, None), None), 1);
    assert_eq!(seq(&text, &findings(&text, None), None), 1);
    // Lines added: the findings after them move down, none converted.
    let added = text.replacen("let x3", "\nlet x3", 1);
    assert_eq!(seq(&added, &findings(&added, None), None), 0);
    let added_again = added.replacen("let x7", "# \nlet x7", 1);
    assert_eq!(seq(&added_again, &findings(&added_again, None), None), 0);
    // A finding gone (x2), one changed (x5): those between the common
    // prefix (x0, x1) and suffix (x6 on) of the lists are converted.
    let mut fewer = findings(&added_again, Some(2));
    fewer[4].message = "changed".into();
    assert_eq!(seq(&added_again, &fewer, None), 3);
    // A note into another file is converted every time.
    let mut elsewhere = findings(&added_again, None);
    elsewhere[0].related.push(Related {
        path: "/w/b.prose".into(),
        range: at(0, 1),
        message: "there".into(),
    });
    assert_eq!(seq(&added_again, &elsewhere, None), 6);
    assert_eq!(seq(&added_again, &elsewhere, None), 1);
    // Tags and severity count (with the note in another file, the
    // common prefix is empty: all up to the last change are converted).
    elsewhere[4].tags.push(Tag::Unnecessary);
    elsewhere[8].severity = Severity::Warning;
    assert_eq!(seq(&added_again, &elsewhere, None), 9);
    // Another docs URL starts over.
    let docs = Some("file:///docs/");
    assert_eq!(seq(&added_again, &elsewhere, docs), 12);
    // Everything deleted, then back.
    assert_eq!(seq("", &[], docs), 0);
    assert_eq!(seq(&text, &findings(&text, None), docs), 12);
}

/// Typing and erasing within lines, a character at a time, never back to
/// a text seen before: the list changes in place between the diagnostics
/// kept (in the buffer given back, not a new one), a finding gone or back
/// included, and stays what serde writes after each change of its length.
#[test]
fn typing_within_lines_changes_the_list_in_place() {
    let mut text: String = (0..12).map(|i| format!("let x{i} = 1\n")).collect();
    let mut cache = JsonCache::default();
    let (all, mut bytes) = check_list(&mut cache, &text, &findings(&text, None), None);
    assert_eq!(all, 12);
    let steps = [
        ("let x5 ", "let x5a ", 1),
        ("let x5a ", "let x5ab ", 1),
        // x2's finding gone, then back.
        ("let x2 ", "xlet x2 ", 0),
        ("let x9 ", "let x9é ", 1),
        ("xlet x2 ", "let x2 ", 1),
        ("let x5ab ", "let x5 ", 1),
        // Next to the first finding (whose line the notes point into),
        // and the last.
        ("let x1 ", "let x1q ", 1),
        ("let x11 ", "let x11 z", 1),
        ("let x11 z", "let x11 ", 1),
        ("let x4 ", "let x ", 1),
    ];
    for (from, to, converted) in steps {
        text = text.replacen(from, to, 1);
        let (n, at) = check_list(&mut cache, &text, &findings(&text, None), None);
        assert_eq!(n, converted, "{from:?} -> {to:?}");
        assert_eq!(at, bytes, "{from:?} -> {to:?}: a new buffer");
        bytes = at;
    }
}

/// Twelve `let` lines, and the same with a character typed on line 5.
fn lets_and_typed() -> (String, String) {
    let text: String = (0..12).map(|i| format!("let x{i} = 1\n")).collect();
    let typed = text.replacen("let x5", "let x5z", 1);
    (text, typed)
}

/// The comparison of the texts made ahead (by the language server's fork)
/// for the cached text and the new one is the one used; one made for
/// other texts, or for another document, is not.
#[test]
fn a_comparison_made_ahead_is_used_for_its_texts_only() {
    let (text, typed) = lets_and_typed();
    let mut cache = JsonCache::default();
    assert_eq!(check(&mut cache, &text, &findings(&text, None), None), 12);
    let other: Uri = "file:///w/b.prose".parse().unwrap();
    let new = Arc::new(LineText::new(typed.clone()));
    assert!(cache.ahead(&other, &new).is_none());
    let ahead = cache.ahead(&uri(), &new).unwrap();
    ahead.compare();
    let raw = findings(&typed, None);
    assert_eq!(check_after(&mut cache, &new, &raw, None, Some(&ahead)).0, 1);
    // One claiming that nothing changed, for the typed text and the
    // first: the findings after x5 moved by a byte are not taken for the
    // cached ones (the list is right all the same).
    let back = Arc::new(LineText::new(text.clone()));
    let claimed = Ahead {
        uri: uri(),
        old: new.clone(),
        new: back.clone(),
        change: OnceLock::from(Change {
            before: u64::MAX,
            after: None,
            delta: 0,
            lines: 0,
        }),
    };
    let raw = findings(&text, None);
    assert_eq!(
        check_after(&mut cache, &back, &raw, None, Some(&claimed)).0,
        7
    );
    // The first comparison again, now for texts the cache does not hold.
    let again = Arc::new(LineText::new(typed.clone()));
    let raw = findings(&typed, None);
    assert_eq!(
        check_after(&mut cache, &again, &raw, None, Some(&ahead)).0,
        1
    );
    // Made for these texts, but of another document.
    let wrong = Ahead {
        uri: other,
        old: again.clone(),
        ..claimed
    };
    let raw = findings(&text, None);
    assert_eq!(
        check_after(&mut cache, &back, &raw, None, Some(&wrong)).0,
        1
    );
}

/// A list that does not come back to the cache (its run was superseded
/// before it was published, or it was another document's) leaves the
/// next list to be converted whole, and right.
#[test]
fn a_list_not_given_back_is_converted_again() {
    let (text, typed) = lets_and_typed();
    let mut cache = JsonCache::default();
    assert_eq!(check(&mut cache, &text, &findings(&text, None), None), 12);
    assert_eq!(check(&mut cache, &typed, &findings(&typed, None), None), 1);
    let lost = serde_json::to_vec(&Vec::<Diagnostic>::new()).unwrap();
    let other: Uri = "file:///w/b.prose".parse().unwrap();
    for given_back in [None, Some((other, lost.clone())), Some((uri(), lost))] {
        // Serialised (converted to something else than `check` expects,
        // which a reuse would show), then not given back, another
        // document's list given, or a list of another length.
        let list = findings(&text, None);
        let lines = Arc::new(LineText::new(text.clone()));
        let ours = cache.serialise(
            &Doc {
                uri: &uri(),
                path: PATH,
                text: &lines,
                encoding: Encoding::Utf16,
                docs_url: None,
            },
            &list,
            None,
            |_| Diagnostic::default(),
        );
        assert!(!ours.is_empty());
        if let Some((uri, list)) = given_back {
            cache.keep_list(&uri, list);
        }
        assert_eq!(check(&mut cache, &typed, &findings(&typed, None), None), 12);
    }
}

#[test]
fn line_breaks_of_every_kind_around_the_change() {
    // `\r\n`, a lone `\r` and `\n`, and empty lines, with edits that
    // join or split them.
    let text = "let a1 = 1\r\nlet b2 = 1\rlet c3 = 1\n\nlet d4 = 1\r\n\r\n\rlet e5 = 1\n";
    let mut cache = JsonCache::default();
    let mut texts = vec![text.to_string()];
    for at in 0..=text.len() {
        for insert in ["\n", "\r", "x", "😀", ""] {
            let mut t = text.to_string();
            if insert.is_empty() {
                if at < t.len() {
                    t.remove(at);
                }
            } else {
                t.insert_str(at, insert);
            }
            texts.push(t);
            texts.push(text.to_string());
        }
    }
    for t in &texts {
        // Findings at every line start and on both sides of each break,
        // with notes before and after.
        let len = t.len() as u32;
        let mut raw = Vec::new();
        for s in 0..len {
            if s % 3 == 0 {
                let end = (s + 2).min(len);
                raw.push(diag(
                    at(s, end),
                    "m",
                    &[(PATH, at(len.saturating_sub(3), len)), (PATH, at(0, 1))],
                ));
            }
        }
        raw.push(diag(at(len, len), "end", &[]));
        check(&mut cache, t, &raw, None);
    }
}

/// The analysis's diagnostics of `text`.
fn analysed(host: &mut prose_ide::AnalysisHost, text: &str) -> Vec<prose_ide::Diagnostic> {
    let file = host.set_file_text(PATH, text);
    host.analysis().diagnostics(file).unwrap()
}

/// Edits at line starts and inside lines of the examples, the parser's
/// test data and both corpora (typing, new lines, deletions, wide
/// characters; a third of them with `\r\n` line breaks too): each push through
/// the cache is what serde writes for the whole list converted. A `#`
/// typed at a line start converts only a few diagnostics.
#[test]
fn the_cached_lists_of_edited_programs_are_what_serde_writes() {
    let mut reused_somewhere = false;
    for (i, path) in crate::test_programs().into_iter().enumerate() {
        let plain = std::fs::read_to_string(&path).unwrap();
        // Every third program with `\r\n` line breaks too.
        let crlf = (i % 3 == 0).then(|| plain.replace('\n', "\r\n"));
        for text in std::iter::once(plain).chain(crlf) {
            let mut host = prose_ide::AnalysisHost::new();
            let mut cache = JsonCache::default();
            let base = analysed(&mut host, &text);
            check(&mut cache, &text, &base, None);
            let starts: Vec<usize> = std::iter::once(0)
                .chain(prose_syntax::lines::line_starts(&text))
                .filter(|&s| s < text.len())
                .collect();
            for &at in starts.iter().step_by(starts.len() / 3 + 1) {
                let mid = (at + 3..text.len())
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(at);
                let edits = [
                    (at, 0, "#"),
                    (at, 0, "\n"),
                    (at, 0, "x é"),
                    (mid, 0, "😀"),
                    (mid, 0, "\r\n  "),
                    (at, text[at..].find('\n').map_or(0, |n| n + 1), ""),
                ];
                for (from, len, insert) in edits {
                    let mut edited = text.clone();
                    edited.replace_range(from..from + len, insert);
                    let raw = analysed(&mut host, &edited);
                    let converted = check(&mut cache, &edited, &raw, None);
                    if insert == "#" && raw.len() > 20 && converted < raw.len() / 2 {
                        reused_somewhere = true;
                    }
                    check(&mut cache, &text, &analysed(&mut host, &text), None);
                }
            }
        }
    }
    assert!(reused_somewhere, "no edit reused the cached diagnostics");
}
