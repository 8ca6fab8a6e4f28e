//! Plain text: a cheap test that a text holds nothing the instruction
//! analysis would find, so that [`analyze_instructions`] can skip its
//! markdown parse and lexical pass (most prompts an OpenProse program hands
//! over are such text).
//!
//! The test is conservative: it looks only for the characters and line
//! shapes every finding needs, and a text that has none of them gets the
//! analysis of the empty text. What each finding needs:
//!
//! - a keyword, a near-miss of one, a signal (`SGN_*`), a `_then_`: `_`;
//! - a `{variable}`: `{`;
//! - a `like` pattern: the word `like` (looked for in any case);
//! - the markdown facts the analysis keeps (code regions, fences,
//!   headings): `` ` `` (code spans, fences), `~` (fences), `#` (headings),
//!   `<` (HTML, autolinks), `[` (links, images, reference definitions),
//!   four spaces in a row or a tab (indented code, also inside a quote or a
//!   list item), and a line made of `-` or `=` alone after any quote
//!   markers (a setext heading's underline, a front matter fence).
//!
//! Lines end at `\n` or `\r`, as in CommonMark.
//!
//! The tests check the claim on generated texts and on every line,
//! paragraph and whole text of the OpenProse corpora and the markdown test
//! data: a plain text's analysis equals the empty text's.
//!
//! [`analyze_instructions`]: super::analyze_instructions

/// Whether `text` holds nothing the instruction analysis looks for (see the
/// module's documentation).
pub(crate) fn is_plain(text: &str) -> bool {
    let b = text.as_bytes();
    if b.iter()
        .any(|c| matches!(c, b'_' | b'{' | b'`' | b'~' | b'#' | b'<' | b'[' | b'\t'))
    {
        return false;
    }
    if b.windows(4)
        .any(|w| w == b"    " || w.eq_ignore_ascii_case(b"like"))
    {
        return false;
    }
    !text.split(['\n', '\r']).any(underline)
}

/// A line made of `-` or `=` (and spaces) alone, after any quote markers.
fn underline(line: &str) -> bool {
    let content = line.trim_matches(|c| c == ' ' || c == '>');
    !content.is_empty()
        && content
            .bytes()
            .all(|c| matches!(c, b'-' | b'=' | b' ' | b'>'))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::is_plain;
    use crate::instructions::{FragmentKind, structure::analyze};

    /// A plain text's analysis is the empty text's, for both kinds.
    fn holds(text: &str) {
        if is_plain(text) {
            for kind in [FragmentKind::Prompt, FragmentKind::File] {
                assert_eq!(analyze(text, kind), analyze("", kind), "{text:?}");
            }
        }
    }

    #[test]
    fn what_is_not_plain() {
        for text in [
            "_if_ x",
            "a {b} c",
            "x like \"y\"",
            "x LIKE \"y\"",
            "a `b` c",
            "~~~\nx\n~~~",
            "# Title",
            "a <b> c",
            "see [x](y)",
            "a\n\n    code",
            "a\n\t- item",
            "> x\n>     code",
            "-     code",
            "a\tb",
            "Title\r---",
            "> Title\n> ---",
            "Title\n---",
            "Title\n=",
            "---\nk: v\n---\nx",
            "SGN_DONE",
        ] {
            assert!(!is_plain(text), "{text:?}");
        }
        for text in [
            "",
            "Research the topic and write a summary.",
            "Check: is it done? Answer yes or no.\n\n- one\n- two\n1) three",
            "   three spaces\n* star *bold* **x** --- a-b = c",
        ] {
            assert!(is_plain(text), "{text:?}");
            holds(text);
        }
    }

    /// Every line, paragraph and whole text of the OpenProse corpora (beside
    /// the repository, when present) and of the markdown test data.
    #[test]
    fn plain_texts_of_real_files_analyse_as_empty() {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![manifest.join("tests/data")];
        dirs.extend(
            ["openprose-examples", "openprose-history"]
                .map(|d| manifest.join("../../../shared/corpus").join(d)),
        );
        let mut files = Vec::new();
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if let Ok(text) = std::fs::read_to_string(&path) {
                    files.push(text);
                }
            }
        }
        assert!(
            !files.is_empty(),
            "no test data under {}",
            manifest.display()
        );
        let (mut plain, mut texts) = (0, 0);
        for file in &files {
            let pieces = file
                .split('\n')
                .chain(file.split("\n\n"))
                .chain(std::iter::once(file.as_str()));
            for text in pieces {
                texts += 1;
                if is_plain(text) {
                    plain += 1;
                    holds(text);
                }
            }
        }
        assert!(plain * 4 > texts, "only {plain} of {texts} texts are plain");
    }

    /// Pieces of everything the analysis looks for.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "word ", "Do it. ", "_if_ ", "_then_", "_x_ ", "SGN_A ", "{v} ", "like ", "\"q\" ",
            "`c` ", "```\n", "~~~\n", "# ", "<b> ", "[l](u) ", "- ", "1) ", "* ", "**b** ", "---",
            "=", "\n", "\n\n", "    ", "\t", "   ", "-", ": ", "(", ")", "|", "\\", "&amp; ", "“",
            "”", "é", "\r\n", "> ",
        ])
    }

    /// Pieces of plain text, with the shapes nearest to what is not.
    fn plain_piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "word ", "Do it. ", "\"q\" ", "- ", "1) ", "2. ", "* ", "+ ", "**b** ", "---", "===",
            "=", "-", "\n", "\n\n", "\r", "\r\n", "   ", "  ", " ", ": ", "(", ")", "|", "\\",
            "&amp; ", "“", "”", "é", "> ", ">", "lik", "e ", "!", "*", "***", "--- a", "x\n---",
        ])
    }

    proptest! {
        #[test]
        fn generated_texts_that_are_plain_analyse_as_empty(
            pieces in prop::collection::vec(piece(), 0..24),
        ) {
            holds(&pieces.concat());
        }

        #[test]
        fn generated_plain_looking_texts_analyse_as_empty(
            pieces in prop::collection::vec(plain_piece(), 0..32),
        ) {
            holds(&pieces.concat());
        }
    }
}
