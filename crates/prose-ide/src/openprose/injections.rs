//! OpenProse as a host of injections: its prompt strings are text an agent
//! reads, so they carry the `_keyword_` instruction language (a session
//! that ends with `_terminate_ "SGN_DONE"`).
//!
//! Which strings are prompts: the prompt of a `session "…"`, the value of
//! every `prompt:` property (agents, sessions, `resume:`), and every
//! `"""` string (long texts handed to a session however they are bound).
//! The guest text is the string's value: escapes decoded (`\"` is `"`),
//! interpolations kept as written but opaque (the runtime puts a value
//! there, so the instruction checks and hovers leave them to OpenProse).
//! A `"""` string's lines lose the indentation they share, as a reader
//! sees the prompt (the program's indentation would otherwise make every
//! line an indented code block to markdown).

use prose_syntax::{AstNode, NodeOrToken, SyntaxKind, TextRange, TextSize, ast};

use crate::{
    db::{Db, SourceFile, parse},
    injection::{Escape, GuestLanguage, GuestText, Injection, memo},
};
use std::sync::Arc;

use prose_markdown::instructions::{self, FragmentKind};

/// The injections of an OpenProse file: one per prompt string, in text
/// order ([`statement_prompts`], flattened: what the guest features ask).
pub(crate) fn prompt_strings(db: &dyn Db, file: SourceFile) -> Vec<Injection> {
    let per_statement = statement_prompts(db, file);
    let mut out = Vec::with_capacity(per_statement.iter().map(|(_, p)| p.injections.len()).sum());
    out.extend(per_statement.iter().flat_map(|(start, prompts)| {
        prompts.injections.iter().map(move |inj| Injection {
            map: inj.map.moved(TextSize::new(0), *start),
            ..inj.clone()
        })
    }));
    out
}

/// The prompts of one top-level statement, relative to its start, with
/// what the host needs of their analyses after every edit.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct StatementPrompts {
    /// One injection per prompt string, in text order; host offsets from
    /// the statement's start.
    pub(crate) injections: Vec<Injection>,
    /// Which of them the instruction checks may report something in (a
    /// prompt that uses the language or nearly spells a keyword):
    /// indices into `injections`, most statements none.
    pub(crate) checked: Vec<usize>,
    /// The `_spawn_` files its prompts name (not templates), as written,
    /// in text order.
    pub(crate) spawns: Vec<String>,
}

/// The prompts of each top-level statement of an OpenProse file, with the
/// statement's start.
///
/// Whether a string is a prompt, its guest text and its analysis depend on
/// its statement alone, so each top-level statement's prompts are kept
/// while its tree is unchanged ([`crate::statement_memo`]): after an edit
/// only the statements it touched are walked again. The files a program
/// needs (`needed_files::guest_paths`) and the prompts' diagnostics
/// (`injection::features::diagnostics`) read this list, not the flattened
/// one, so an edit does not copy every prompt of the file.
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn statement_prompts(
    db: &dyn Db,
    file: SourceFile,
) -> Vec<(TextSize, Arc<StatementPrompts>)> {
    let text = file.text(db);
    let root = parse(db, file).syntax_node();
    db.statement_memos().injections.each(file, &root, |stmt| {
        let start = stmt.text_range().start();
        let mut injections = Vec::new();
        prose_syntax::walk::pre_order(stmt, |n| {
            if let Some(s) = ast::StringLit::cast(n.clone())
                && is_prompt(&s)
            {
                let mut inj = injection(text, &s);
                inj.map = inj.map.moved(start, TextSize::new(0));
                injections.push(inj);
            }
        });
        let mut checked = Vec::new();
        let mut spawns = Vec::new();
        for (i, inj) in injections.iter().enumerate().filter(|(_, i)| !i.plain()) {
            // The analysis `injection::guests` finds for it (kept by
            // text, so the findings of a checked prompt reuse it).
            let ins = memo::instructions(db, &inj.text, inj.plainness, FragmentKind::Prompt);
            if !instructions::check_finds_nothing(&ins) {
                checked.push(i);
            }
            spawns.extend(ins.paths_to_check());
        }
        StatementPrompts {
            injections,
            checked,
            spawns,
        }
    })
}

fn is_prompt(s: &ast::StringLit) -> bool {
    if s.is_triple() {
        return true;
    }
    let Some(parent) = s.syntax().parent() else {
        return false;
    };
    match parent.kind() {
        SyntaxKind::SESSION_EXPR => true,
        SyntaxKind::PROPERTY => ast::Property::cast(parent).is_some_and(|p| p.key() == "prompt"),
        _ => false,
    }
}

fn injection(text: &str, s: &ast::StringLit) -> Injection {
    let content = s.content_range();
    let (indent, pieces) = if s.is_triple() {
        let lines = &text[content];
        let indent = common_indent(lines);
        // Each line a piece when their indentation is left out, else
        // the lines run on as one.
        let pieces = if indent > 0 {
            memchr::memchr_iter(b'\n', lines.as_bytes()).count() + 1
        } else {
            1
        };
        (indent, pieces)
    } else {
        (0, 1)
    };
    // The guest text is the content at most (less the indentation and
    // what escapes write shorter).
    let mut guest = GuestText::with_room(content.start(), content.len().into(), pieces);
    let mut opaque = Vec::new();
    let mut line_start = true;
    for element in s.syntax().children_with_tokens() {
        let range = element.text_range();
        match element {
            NodeOrToken::Token(t) => match t.kind() {
                SyntaxKind::STRING_TEXT => {
                    copy_lines(&mut guest, text, range, indent, &mut line_start);
                }
                SyntaxKind::STRING_ESCAPE => {
                    guest.replace(range, prose_syntax::ast::decode_escape(t.text()));
                    line_start = false;
                }
                _ => {}
            },
            NodeOrToken::Node(_) => {
                let start = guest.text.len();
                guest.copy(text, range);
                opaque.push(TextRange::new(
                    (start as u32).into(),
                    (guest.text.len() as u32).into(),
                ));
                line_start = false;
            }
        }
    }
    let mut inj = Injection::new(
        GuestLanguage::Instructions {
            fragment: FragmentKind::Prompt,
            always: false,
        },
        guest,
        Escape::OpenProseString {
            triple: s.is_triple(),
        },
    );
    inj.opaque = opaque;
    inj
}

/// Copies the string text at `range` of `text` into `guest`, leaving out
/// up to `indent` spaces and tabs where a line starts (`line_start`: the
/// text copied before ended a line), and notes whether it ends one. With
/// nothing to leave out the lines run on as one piece, copied at once;
/// otherwise the lines are found with `memchr` (split one by one, they
/// cost a corpus check about 1% of its instructions).
fn copy_lines(
    guest: &mut GuestText,
    text: &str,
    range: TextRange,
    indent: usize,
    line_start: &mut bool,
) {
    let bytes = &text.as_bytes()[usize::from(range.start())..usize::from(range.end())];
    if bytes.is_empty() {
        return;
    }
    if indent == 0 {
        guest.copy(text, range);
        *line_start = bytes.ends_with(b"\n");
        return;
    }
    let (mut from, start) = (0, range.start());
    while from < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |i| from + i + 1);
        let skip = if *line_start {
            bytes[from..end]
                .iter()
                .take(indent)
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count()
        } else {
            0
        };
        let offset = |i: usize| start + TextSize::new(i as u32);
        guest.copy(text, TextRange::new(offset(from + skip), offset(end)));
        *line_start = bytes[end - 1] == b'\n';
        from = end;
    }
}

/// The indentation (spaces and tabs) that every non-blank line after the
/// first shares (a line is blank when `str::trim` leaves nothing of it).
/// One pass over the bytes: most lines are told apart from a blank one by
/// their first byte after the indentation, and only a line whose byte there
/// is not plain ASCII text is trimmed (the lines of a corpus check's
/// prompts were split and trimmed one by one: 1.4% of its instructions).
fn common_indent(content: &str) -> usize {
    let b = content.as_bytes();
    let Some(first_break) = memchr::memchr(b'\n', b) else {
        return 0;
    };
    let mut least: Option<usize> = None;
    let mut at = first_break + 1;
    loop {
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
        let indent = b[at..end]
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count();
        let blank = match b.get(at + indent) {
            _ if at + indent == end => true,
            Some(&c) if c.is_ascii() && !char::from(c).is_whitespace() => false,
            // Another ASCII space (`\r`, form feed) or a character past
            // ASCII: what `trim` makes of the rest of the line.
            _ => content[at + indent..end].trim().is_empty(),
        };
        if !blank {
            least = Some(least.map_or(indent, |l| l.min(indent)));
            if least == Some(0) {
                return 0;
            }
        }
        if end == b.len() {
            break;
        }
        at = end + 1;
    }
    least.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{prompt_strings, statement_prompts};
    use crate::injection::GuestText;
    use crate::{
        AnalysisHost, FileId,
        injection::{Guest, guests, injections},
    };
    use prose_markdown::instructions::check_finds_nothing;
    use prose_syntax::{SyntaxKind, TextRange, TextSize};

    /// The indentation every non-blank line after the first shares, as the
    /// lines split and trimmed one by one find it: what `common_indent`'s
    /// one pass must answer.
    fn common_indent_by_lines(content: &str) -> usize {
        content
            .split('\n')
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
            .min()
            .unwrap_or(0)
    }

    #[test]
    fn common_indent_reads_the_lines_after_the_first() {
        for (text, indent) in [
            ("", 0),
            ("one line", 0),
            ("\n    a\n  b\n", 2),
            ("x\n    a\n\n      \n\t\tb", 2),
            ("x\n    a\n \u{a0}\n    b", 4),
            ("x\n    a\n  \u{a0}z\n", 2),
            ("x\n   \r\n    a\r\n", 4),
            ("x\n   \u{b}\n    a", 4),
            ("x\na\n    b", 0),
        ] {
            assert_eq!(super::common_indent(text), indent, "{text:?}");
            assert_eq!(common_indent_by_lines(text), indent, "{text:?}");
        }
    }

    /// `copy_lines` as the text is split into lines and each copied: what
    /// its runs of lines must make.
    fn copy_lines_one_by_one(
        guest: &mut GuestText,
        text: &str,
        range: TextRange,
        indent: usize,
        line_start: &mut bool,
    ) {
        let mut at = range.start();
        for line in text[range].split_inclusive('\n') {
            let len = TextSize::of(line);
            let skip = if *line_start {
                line.bytes()
                    .take(indent)
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .count()
            } else {
                0
            };
            guest.copy(
                text,
                TextRange::new(at + TextSize::new(skip as u32), at + len),
            );
            *line_start = line.ends_with('\n');
            at += len;
        }
    }

    /// Every string text of the sample programs, and of strings of mixed
    /// indentation, escapes, interpolations and line ends, copied after a
    /// piece and with each indentation from 0 to 5, at a line's start or
    /// not, makes the same guest text and pieces as its lines copied one
    /// by one.
    #[test]
    fn string_text_is_copied_as_its_lines() {
        let mut texts: Vec<String> = crate::openprose::rule_tests::sample_texts();
        for body in [
            "    a\n      b {x}\n    c\\n d\n    ",
            "\ta\n\t\tb\r\n\n\t{y} c\n",
            "  one\n  \\t{z}two\n   \n  three",
            "    \n    \n",
        ] {
            texts.push(format!("session \"\"\"\n{body}\"\"\"\n"));
        }
        let mut tokens = 0;
        for text in &texts {
            let root = prose_syntax::parse(text).syntax_node();
            let strings = root
                .descendants_with_tokens()
                .filter_map(|e| e.into_token());
            for t in strings.filter(|t| t.kind() == SyntaxKind::STRING_TEXT) {
                tokens += 1;
                for indent in 0..=5 {
                    for start in [true, false] {
                        let run = |copy: fn(&mut GuestText, &str, TextRange, usize, &mut bool)| {
                            let mut guest = GuestText::at(0.into());
                            guest.copy(text, TextRange::empty(t.text_range().start()));
                            let mut line_start = start;
                            copy(&mut guest, text, t.text_range(), indent, &mut line_start);
                            (guest.text, guest.map, line_start)
                        };
                        let (a, b) = (run(super::copy_lines), run(copy_lines_one_by_one));
                        assert_eq!(a, b, "{t:?} {indent} {start}");
                    }
                }
            }
        }
        assert!(tokens > 40, "{tokens} string texts");
    }

    proptest::proptest! {
        /// On texts of spaces, tabs, line breaks, other ASCII and Unicode
        /// spaces and letters, the one pass agrees with the lines split.
        #[test]
        fn common_indent_is_the_lines_least(
            text in "[ \t\n\r\u{b}\u{c}\u{a0}\u{3000}ab]{0,40}"
        ) {
            proptest::prop_assert_eq!(
                super::common_indent(&text),
                common_indent_by_lines(&text)
            );
        }
    }

    const PROGRAM: &str = "agent writer:\n  model: sonnet\n  prompt: \"You write. _terminate_ \\\"DONE\\\"\"\n\nsession \"Plain words\"\n\nsession \"Stop and _termiante_ \\\"SGN_X\\\".\"\n\nsession \"Draft the plan. _spawn_ `notes.md` and _spawn_ `{x}.md`\"\n\nlet x = session: writer\n  prompt: \"\"\"\n    Polish {x}.\n    _if_ it is long, _then_ _termiante_\n    \"\"\"\n";

    /// Which prompts each statement keeps as checked, and the `_spawn_`
    /// files it keeps, are what the guests' own analyses say; the kept
    /// prompts, moved to their statements, are the file's injections.
    fn agree(host: &AnalysisHost, file: FileId, what: &str) {
        let analysis = host.analysis();
        analysis
            .with_db(|db| {
                let file = analysis.source_file(file);
                let all = injections(db, file, None);
                assert_eq!(*all, prompt_strings(db, file), "{what}");
                let (mut checked, mut spawns) = (Vec::new(), Vec::new());
                for (i, guest) in guests(db, file, None).iter().enumerate() {
                    let Guest::Instructions(Some(ins)) = guest else {
                        panic!("a prompt's guest is its instructions: {what}");
                    };
                    if !check_finds_nothing(ins) {
                        checked.push(i);
                    }
                    spawns.extend(ins.paths_to_check());
                }
                let mut kept_checked = Vec::new();
                let mut before = 0;
                let mut last = None;
                for (start, prompts) in statement_prompts(db, file) {
                    assert!(last < Some(*start), "{what}");
                    last = Some(*start);
                    kept_checked.extend(prompts.checked.iter().map(|i| before + i));
                    before += prompts.injections.len();
                }
                assert_eq!(before, all.len(), "{what}");
                assert_eq!(kept_checked, checked, "{what}");
                let kept_spawns: Vec<String> = statement_prompts(db, file)
                    .iter()
                    .flat_map(|(_, p)| p.spawns.iter().cloned())
                    .collect();
                assert_eq!(kept_spawns, spawns, "{what}");
            })
            .unwrap();
    }

    /// For every sample program, opened and then edited in the middle
    /// (two statements come in, then go: one whose prompt spawns a file,
    /// one whose prompt misspells a keyword), the kept analyses agree with
    /// the guests'.
    #[test]
    fn kept_analyses_agree_with_the_guests() {
        let mut programs = crate::openprose::rule_tests::sample_programs();
        programs.push(("the test's program".into(), PROGRAM.into()));
        let mut checked = 0;
        for (path, text) in programs {
            let mut host = AnalysisHost::new();
            let file = host.set_file_text("/ws/a.prose", text.clone());
            agree(&host, file, &path);
            let half = &text.as_bytes()[..text.len() / 2];
            let mid = half.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let edited = format!(
                "{}session \"_spawn_ `b.md`\"\nsession \"Stop and _termiante_ \\\"SGN_X\\\".\"\n{}",
                &text[..mid],
                &text[mid..]
            );
            host.set_file_text("/ws/a.prose", edited);
            agree(&host, file, &format!("{path}, edited"));
            host.set_file_text("/ws/a.prose", text.clone());
            agree(&host, file, &format!("{path}, edited back"));
            checked += 1;
        }
        assert!(checked > 10, "the sample programs are there");
    }

    /// The test's program has prompts of each sort: plain, using the
    /// language, with a near-miss, spawning files.
    #[test]
    fn the_program_has_prompts_of_each_sort() {
        let mut host = AnalysisHost::new();
        let file = host.set_file_text("/ws/a.prose", PROGRAM);
        let analysis = host.analysis();
        let (checked, spawns) = analysis
            .with_db(|db| {
                let kept = statement_prompts(db, analysis.source_file(file));
                let checked: Vec<Vec<usize>> =
                    kept.iter().map(|(_, p)| p.checked.clone()).collect();
                let spawns: Vec<String> = kept.iter().flat_map(|(_, p)| p.spawns.clone()).collect();
                (checked, spawns)
            })
            .unwrap();
        assert_eq!(checked, [vec![0], vec![], vec![0], vec![0], vec![0]]);
        assert_eq!(spawns, ["notes.md"]);
    }
}
