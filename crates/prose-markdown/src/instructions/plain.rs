//! Plain text: a cheap test that a text holds nothing the instruction
//! analysis would find, so that [`analyze_instructions`] can skip its
//! markdown parse and lexical pass (most prompts an OpenProse program hands
//! over are such text).
//!
//! The test is conservative: it looks only for the characters and line
//! shapes every finding needs, and a text that has none of them gets the
//! analysis of the empty text. What each finding needs:
//!
//! - a keyword, a near-miss of one, a `_then_`: an `_` that does not
//!   follow a letter, a digit, an `_` or a non-ASCII byte (an `_` inside a
//!   word such as `topic_name` starts none);
//! - a signal: `SGN_`;
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
//! A text whose only such characters are `{` (a prompt that interpolates
//! `{topic}`, the most common kind in programs) is nearly as simple: its
//! analysis is the empty text's with the variables its braces make, all
//! free, outside statements, examples and patterns ([`brace_variables`]).
//! Nothing else the analysis finds needs anything but the characters
//! above: no code region, quote-free pattern or statement can make a brace
//! anything but a free variable.
//!
//! The tests check the claim on generated texts and on every line,
//! paragraph and whole text of the OpenProse corpora and the markdown test
//! data: a plain text's analysis equals the empty text's.
//!
//! [`analyze_instructions`]: super::analyze_instructions

use super::{
    Variable, VariableRole,
    scan::{Place, brace_at, is_word_byte},
};

/// How much of the instruction analysis a text needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Plainness {
    /// Nothing the analysis looks for: the empty text's analysis.
    Plain,
    /// Only braces: the empty text's analysis with the variables the braces name.
    Braces,
    /// The whole analysis.
    Rich,
}

/// How much of the analysis `text` needs (see the module's documentation),
/// in one pass over its bytes (most prompts of a program are read here
/// after every edit).
pub(crate) fn plainness(text: &str) -> Plainness {
    let b = text.as_bytes();
    let mut braces = false;
    // The run of spaces that ends here, and whether the line so far is
    // made of `-`, `=`, spaces and `>` (`marks`) with a `-` or `=` in it
    // (`rule`): a setext underline or a front matter fence.
    let (mut spaces, mut marks, mut rule) = (0, true, false);
    // A byte that matters only as "something else on the line", or a lone
    // space before one (no run of spaces to count, and the other byte
    // ends the line's chance of being an underline anyway).
    let ordinary = |i: usize| {
        !SPECIAL[usize::from(b[i])]
            || (b[i] == b' '
                && (i == 0 || b[i - 1] != b' ')
                && i + 1 < b.len()
                && !SPECIAL[usize::from(b[i + 1])])
    };
    let mut i = 0;
    while i < b.len() {
        // A run of such bytes (most of a prompt's words and the spaces
        // between them) is stepped over at once; it ends with a byte that
        // is not a space.
        if ordinary(i) {
            i += 1;
            while i < b.len() && ordinary(i) {
                i += 1;
            }
            (spaces, marks) = (0, false);
            continue;
        }
        let (at, c) = (i, b[i]);
        i += 1;
        if c == b' ' {
            spaces += 1;
            if spaces == 4 {
                return Plainness::Rich;
            }
            continue;
        }
        spaces = 0;
        match c {
            b'`' | b'~' | b'#' | b'<' | b'[' | b'\t' => return Plainness::Rich,
            // An `_` inside a word (`topic_name`) starts no `_keyword_`.
            b'_' if at == 0 || !is_word_byte(b[at - 1]) => return Plainness::Rich,
            b'S' if b[at..].starts_with(b"SGN_") => return Plainness::Rich,
            b'l' | b'L' if b.len() - at >= 4 && b[at..at + 4].eq_ignore_ascii_case(b"like") => {
                return Plainness::Rich;
            }
            b'{' => braces = true,
            b'-' | b'=' => {
                rule = true;
                continue;
            }
            b'>' => continue,
            b'\n' | b'\r' => {
                if marks && rule {
                    return Plainness::Rich;
                }
                (marks, rule) = (true, false);
                continue;
            }
            _ => {}
        }
        marks = false;
    }
    if marks && rule {
        Plainness::Rich
    } else if braces {
        Plainness::Braces
    } else {
        Plainness::Plain
    }
}

/// The bytes [`plainness`] looks at one by one; any other byte only ends a
/// run of spaces and makes its line more than an underline.
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let special = b" `~#<[\t_SlL{-=>\n\r";
    while k < special.len() {
        t[special[k] as usize] = true;
        k += 1;
    }
    t
};

/// Whether `text` holds nothing the instruction analysis looks for.
#[cfg(test)]
pub(crate) fn is_plain(text: &str) -> bool {
    plainness(text) == Plainness::Plain
}

/// The variables of a text that is [`Plainness::Braces`]: each `{…}` the
/// lexical pass takes for a variable, in order, free and outside any
/// statement, example or pattern.
pub(crate) fn brace_variables(text: &str) -> Vec<Variable> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'{', &text.as_bytes()[from..]) {
        let i = from + k;
        from = i + 1;
        if let Some(br) = brace_at(text, i, Place::Prose) {
            from = usize::from(br.range.end());
            out.push(Variable {
                name: br.name,
                range: br.range,
                role: VariableRole::Free,
                discard: br.discard,
                choice: br.choice,
                instruction: br.words > 4,
                in_example: false,
                in_pattern: false,
                in_statement: false,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Plainness, is_plain, plainness};
    use crate::instructions::{
        FragmentKind, analyze_instructions, scan::is_word_byte, structure::analyze,
    };

    /// A line made of `-` or `=` (and spaces) alone, after any quote markers.
    fn underline(line: &str) -> bool {
        let content = line.trim_matches(|c| c == ' ' || c == '>');
        !content.is_empty()
            && content
                .bytes()
                .all(|c| matches!(c, b'-' | b'=' | b' ' | b'>'))
    }

    /// The plainness of `text` found as the module's documentation lists
    /// it, one look after another: what the one pass must answer.
    fn plainness_by_looks(text: &str) -> Plainness {
        let b = text.as_bytes();
        let word_start = |i: usize| i == 0 || !is_word_byte(b[i - 1]);
        let rich = b
            .iter()
            .any(|c| matches!(c, b'`' | b'~' | b'#' | b'<' | b'[' | b'\t'))
            || memchr::memchr_iter(b'_', b).any(word_start)
            || memchr::memmem::find(b, b"SGN_").is_some()
            || b.windows(4)
                .any(|w| w == b"    " || w.eq_ignore_ascii_case(b"like"))
            || text.split(['\n', '\r']).any(underline);
        if rich {
            Plainness::Rich
        } else if b.contains(&b'{') {
            Plainness::Braces
        } else {
            Plainness::Plain
        }
    }

    /// A plain text's analysis is the empty text's, and what
    /// `analyze_instructions` answers is the whole analysis (the empty
    /// text's with the brace variables, for a text of braces), for both
    /// kinds.
    fn holds(text: &str) {
        assert_eq!(plainness(text), plainness_by_looks(text), "{text:?}");
        for kind in [FragmentKind::Prompt, FragmentKind::File] {
            let whole = analyze(text, kind);
            if is_plain(text) {
                assert_eq!(whole, analyze("", kind), "{text:?}");
            }
            assert_eq!(analyze_instructions(text, kind), whole, "{text:?}");
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
        let real = crate::instructions::tests::real_texts();
        let (mut plain, mut braces, texts) = (0, 0, real.len());
        for text in &real {
            assert_eq!(plainness(text), plainness_by_looks(text), "{text:?}");
            match plainness(text) {
                Plainness::Plain => plain += 1,
                Plainness::Braces => braces += 1,
                Plainness::Rich => continue,
            }
            holds(text);
        }
        assert!(plain * 4 > texts, "only {plain} of {texts} texts are plain");
        assert!(
            braces >= 100,
            "only {braces} of {texts} texts are of braces"
        );
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
            "word ",
            "Do it. ",
            "\"q\" ",
            "- ",
            "1) ",
            "2. ",
            "* ",
            "+ ",
            "**b** ",
            "---",
            "===",
            "=",
            "-",
            "\n",
            "\n\n",
            "\r",
            "\r\n",
            "   ",
            "  ",
            " ",
            ": ",
            "(",
            ")",
            "|",
            "\\",
            "&amp; ",
            "“",
            "”",
            "é",
            "> ",
            ">",
            "lik",
            "e ",
            "!",
            "*",
            "***",
            "--- a",
            "x\n---",
            "{v} ",
            "{a b} ",
            "{*} ",
            "{x|y} ",
            "{one two three four five} ",
            "{",
            "}",
            "{ }",
            "{\"q\"}",
            "{a:b}",
            "{{x}}",
            "{A  B}",
            "topic_name ",
            "{topic_name} ",
            "a__b ",
            "x_",
            "_",
            "é_b ",
            "1_2 ",
            "SGN",
            "SGN_",
            "_if_",
            "word_if_ ",
            "a_then_ ",
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
