//! A long text parsed on two threads: its first half on the caller's
//! thread, its second half on another, then joined.
//!
//! The halves meet at a line start near the middle of the text
//! ([`split_point`]). Each is parsed alone, as a window of the file (the
//! second as starting after a line end), and their top-level children and
//! errors are put one after the other. That joined parse is right wherever
//! neither half saw the other: a statement cut at the seam, a string
//! running across it, a statement that reads ahead into the next one (an
//! `else`) are not. So the seam is checked as an edit is: the joined parse
//! is handed to [`crate::reparse`] as the parse of the same text before an
//! empty edit at the seam, which parses the statements around the seam
//! again (from the last top-level statement that starts before it, to the
//! first that starts after it) and keeps the rest only under the
//! conditions that make the rest equal to a parse of the whole text (see
//! `reparse.rs`: the window starts and ends at line starts after
//! significant line breaks, the statement after it comes out unchanged
//! with its errors, no error sits on a boundary, no fence is in the window
//! or, at column 0, within a fence's look-ahead before the seam
//! ([`crate::reparse::join_at_seam`])). When it cannot show that, it parses
//! the whole text itself: the result is always [`crate::parse`]'s, and
//! `tests/halves.rs` compares the two over the corpus, split at many line
//! starts.
//!
//! Only texts of [`PARALLEL_FROM`] bytes and more are split: below that a
//! second thread costs more than it saves.

use std::{
    panic::{self, AssertUnwindSafe},
    sync::atomic::{AtomicBool, Ordering},
};

use rowan::{GreenNode, NodeOrToken};
use text_size::TextSize;

use crate::{
    Parse, SyntaxError, parse_window,
    reparse::{Outcome, join_at_seam},
};

/// The length from which a text is parsed in halves.
pub(crate) const PARALLEL_FROM: usize = 64 * 1024;

/// The second half's thread stops when the caller's interrupt stops the
/// first half (its panic payload, never seen by the caller).
struct Stopped;

/// [`crate::parse_interruptible_parallel`] of a long `text`, on two threads when a
/// seam is found; `None` when the text has no line to split at.
pub(crate) fn parse(text: &str, interrupt: &dyn Fn()) -> Option<Parse> {
    let split = split_point(text)?;
    Some(parse_at(text, split, interrupt).0)
}

/// `text` parsed in halves that meet at `split`, a line start (right
/// after a `\n`) inside the text, and whether the halves were kept (else
/// the whole text was parsed again). `interrupt` is called on this
/// thread; when it unwinds, the other thread is stopped and joined first.
pub(crate) fn parse_at(text: &str, split: usize, interrupt: &dyn Fn()) -> (Parse, bool) {
    debug_assert!(split > 0 && split < text.len() && text.as_bytes()[split - 1] == b'\n');
    let stop = AtomicBool::new(false);
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| {
            let stopped = || {
                if stop.load(Ordering::Relaxed) {
                    panic::resume_unwind(Box::new(Stopped));
                }
            };
            panic::catch_unwind(AssertUnwindSafe(|| {
                parse_window(&text[split..], &stopped, true)
            }))
        });
        let first = panic::catch_unwind(AssertUnwindSafe(|| {
            parse_window(&text[..split], interrupt, false)
        }));
        match first {
            Ok(first) => (first, second.join()),
            Err(payload) => {
                stop.store(true, Ordering::Relaxed);
                let _ = second.join();
                panic::resume_unwind(payload)
            }
        }
    });
    let second = match second {
        Ok(Ok(second)) => second,
        // It never stops unless asked; a panic of the parser itself
        // is the caller's, as it would be on one thread.
        Ok(Err(payload)) | Err(payload) => panic::resume_unwind(payload),
    };
    let joined = join(&first, &second, split);
    let (parse, outcome) = join_at_seam(&joined, text, offset(split), interrupt);
    (parse, matches!(outcome, Outcome::Spliced { .. }))
}

/// The two halves' top-level children and errors, one after the other.
fn join(first: &Parse, second: &Parse, split: usize) -> Parse {
    let children = first
        .green()
        .children()
        .chain(second.green().children())
        .map(|c| match c {
            NodeOrToken::Node(n) => NodeOrToken::Node(n.to_owned()),
            NodeOrToken::Token(t) => NodeOrToken::Token(t.to_owned()),
        })
        .collect::<Vec<_>>();
    let green = GreenNode::new(first.green().kind(), children);
    let at = offset(split);
    let errors: Vec<SyntaxError> = first
        .errors()
        .iter()
        .cloned()
        .chain(second.errors().iter().map(|e| SyntaxError {
            range: e.range + at,
            ..e.clone()
        }))
        .collect();
    Parse {
        green,
        errors: errors.into(),
    }
}

/// Where to split `text`: the first line start at or after the middle
/// that follows an empty line (`\n\n`) and opens a statement (a keyword
/// that starts one, at column 0), with no fence at column 0 in reach
/// before it (the seam would be refused: `reparse.rs`), else the last one
/// before the middle; `None` when there is none (a text whose lines end
/// with `\r\n` has none: it is parsed on one thread). A line inside a
/// prompt may look the same; the seam is then not kept and the text is
/// parsed again, on one thread.
pub(crate) fn split_point(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // `at` follows a `\n\n`.
    let opens = |at: usize| {
        at < bytes.len()
            && opens_statement(&bytes[at..])
            && !crate::reparse::column_zero_fence_reaches(text, at)
    };
    let middle = bytes.len() / 2;
    memchr::memmem::find_iter(&bytes[middle..], b"\n\n")
        .map(|i| middle + i + 2)
        .find(|&at| opens(at))
        .or_else(|| {
            memchr::memmem::rfind_iter(&bytes[..middle], b"\n\n")
                .map(|i| i + 2)
                .find(|&at| opens(at))
        })
}

/// Whether a line starting with `line` opens a statement: one of the
/// keywords that begin one, followed by a space, a colon or the line's end.
fn opens_statement(line: &[u8]) -> bool {
    const OPENERS: &[&str] = &[
        "agent", "session", "let", "const", "block", "parallel", "loop", "repeat", "for", "input",
        "output", "use", "import", "if", "try", "do", "choice", "throw", "return",
    ];
    OPENERS.iter().any(|w| {
        line.starts_with(w.as_bytes())
            && matches!(line.get(w.len()), Some(b' ' | b':' | b'\n' | b'\r'))
    })
}

fn offset(n: usize) -> TextSize {
    TextSize::try_from(n).unwrap_or(TextSize::new(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_points() {
        let text = "agent a:\n  model: opus\n\nsession \"x\"\n\nelse:\n\nlet y = 1\n";
        // From the middle on: `else` goes on with what comes before it.
        assert_eq!(split_point(text), Some(text.find("let").unwrap()));
        let text = "session \"x\"\n\nlet y = 1\n\n  session \"z\"\n\nletter\n";
        assert_eq!(split_point(text), Some(text.find("let y").unwrap()));
        assert_eq!(split_point("session \"x\"\nsession \"y\"\n"), None);
        assert_eq!(split_point(""), None);
    }

    /// The halves of each program, joined at every line start, are its
    /// parse on one thread (the corpus is compared in `tests/halves.rs`).
    /// The second program has a fence at column 0 in a string, which
    /// closes only after later statements: lexed in the first half alone,
    /// the fence never closes and the string ends early.
    #[test]
    fn every_seam_of_a_program_gives_its_parse() {
        let programs = [
            "agent a:\n  model: opus\n\nsession: a\n  prompt: \"\"\"\n    one\n\n    two\n    \"\"\"\n\nif **done**:\n  session \"x\"\n\nelse:\n  session \"y\"\n\nlet z = session \"a\"\n  -> session \"b\"\n\n[\n\nsession \"c\"\n",
            "session \"\"\"\n```\n\"\"\"\n\nlet x = 1\n\nlet y = 2\n\nlet q = \"\"\"\n```\n\"\"\"\n\nlet z = 3\n",
            INDENTED_FENCE,
        ];
        for text in programs {
            let whole = parse_window(text, &crate::interrupt::never, false);
            for (i, _) in text.match_indices('\n') {
                if i + 1 < text.len() {
                    assert_eq!(
                        parse_at(text, i + 1, &crate::interrupt::never).0,
                        whole,
                        "split at {}",
                        i + 1
                    );
                }
            }
        }
    }

    /// A fence indented in a prompt: its look-ahead stops at the next line
    /// at column 0 (before the window, at the latest its first line), in
    /// the first half as in the whole text.
    const INDENTED_FENCE: &str = "session \"\"\"\n  ```\n  \"\"\"\n\nlet x = 1\n\nlet y = 2\n\nlet q = \"\"\"\n  ```\n  \"\"\"\n\nlet z = 3\n";

    /// A seam after an indented fence is kept.
    #[test]
    fn a_seam_after_an_indented_fence_is_kept() {
        let at = INDENTED_FENCE.find("let y").unwrap();
        let (parse, kept) = parse_at(INDENTED_FENCE, at, &crate::interrupt::never);
        assert!(kept);
        assert_eq!(
            parse,
            parse_window(INDENTED_FENCE, &crate::interrupt::never, false)
        );
    }

    /// An interrupt that unwinds stops both halves and reaches the caller
    /// with its own payload.
    #[test]
    fn an_interrupt_stops_both_halves() {
        let text = "let x = session \"a\"\n\n".repeat(20_000);
        let split = split_point(&text).unwrap();
        let stopped = panic::catch_unwind(|| parse_at(&text, split, &|| panic::panic_any("stop")));
        assert_eq!(*stopped.unwrap_err().downcast::<&str>().unwrap(), "stop");
    }
}
