//! Where a `"""` string ends, when its text shows a fenced code block.
//!
//! Prompts often show an example program in a Markdown fence, and that
//! program has its own `"""` strings:
//!
//! ````text
//! agent composer:
//!   prompt: """
//!     Format the bounty as a program:
//!     ```prose
//!     session "Record submission"
//!       prompt: """
//!         Record this submission.
//!       """
//!     ```
//!   """
//! ````
//!
//! By the grammar the first inner `"""` closes the outer string, and every
//! line after it is read as statements (a cascade of errors on prompt
//! text). The author evidently meant the fence to be text. So a run of three
//! or more quotes **inside a fence** is read as text when the fence visibly
//! closes: a later line of at least as many backticks and nothing else (or
//! the string's own closing `"""` right after them), with
//! every non-blank line up to it indented at least as far as the fence's
//! opening line. A fence that never closes, or a line indented less than the
//! fence (the usual place of the closing `"""`), ends that reading, and a
//! `"""` there closes the string as the grammar says. Each quote run read as
//! text is reported (P104), once, with the fix: escape it as `\"""`, which
//! means the same in every reading.
//!
//! The look-ahead for a fence's closing line stops after [`LOOKAHEAD_LINES`]
//! lines, so the scan stays linear on any input.

use crate::lexer::line_len;

/// How many lines the look-ahead for a fence's closing line reads.
pub(crate) const LOOKAHEAD_LINES: usize = 500;

/// An open fence: the column of its backticks and how many there are;
/// whether it visibly closes, once asked.
#[derive(Clone, Copy)]
struct Fence {
    indent: usize,
    ticks: usize,
    closes: Option<bool>,
}

/// Length of a triple-quoted string body (`bytes` starts after the opening
/// `"""`) including its closing delimiter, and whether it was closed.
/// `inner(at, len)` is called for each run of quotes read as text because it
/// sits inside a fenced code block.
pub(crate) fn scan_triple(bytes: &[u8], inner: &mut dyn FnMut(usize, usize)) -> (usize, bool) {
    let mut i = 0;
    let mut fence: Option<Fence> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => {
                let run = bytes[i..].iter().take_while(|&&b| b == b'"').count();
                if run >= 3 {
                    let kept = match fence.as_mut() {
                        Some(f) => *f.closes.get_or_insert_with(|| {
                            let next_line = i + run + line_len(&bytes[i + run..]);
                            fence_closes(bytes, next_line, f.indent, f.ticks)
                        }),
                        None => false,
                    };
                    if !kept {
                        return (i + run, true);
                    }
                    inner(i, run);
                }
                i += run;
            }
            b'\n' => {
                i += 1;
                fence = line_start(&bytes[i..], fence);
            }
            _ => {
                i += 1 + memchr::memchr3(b'"', b'\\', b'\n', &bytes[i + 1..])
                    .unwrap_or(bytes.len() - i - 1)
            }
        }
    }
    (bytes.len(), false)
}

/// The fence state after the start of the line `line`: a less indented
/// line abandons an open fence, a closing line closes it, a line of three or
/// more backticks opens one.
fn line_start(line: &[u8], fence: Option<Fence>) -> Option<Fence> {
    let (indent, rest) = indentation(line);
    if rest.first().is_none_or(|&b| b == b'\n' || b == b'\r') {
        return fence;
    }
    let ticks = rest.iter().take_while(|&&b| b == b'`').count();
    match fence {
        Some(f) if indent < f.indent => (ticks >= 3).then_some(Fence {
            indent,
            ticks,
            closes: None,
        }),
        Some(f) if closes(rest, ticks, f.ticks) => None,
        Some(f) => Some(f),
        None if ticks >= 3 => Some(Fence {
            indent,
            ticks,
            closes: None,
        }),
        None => None,
    }
}

/// Whether a fence at `indent` with `ticks` backticks closes at or after
/// the line starting at `from` (or the one after, when `from` is a line
/// end), before any non-blank line indented less than the fence.
fn fence_closes(bytes: &[u8], mut from: usize, indent: usize, ticks: usize) -> bool {
    for _ in 0..LOOKAHEAD_LINES {
        // Step past the line end to the next line.
        match bytes.get(from) {
            None => return false,
            Some(b'\r') if bytes.get(from + 1) == Some(&b'\n') => from += 2,
            Some(b'\n' | b'\r') => from += 1,
            Some(_) => {}
        }
        let line = &bytes[from..];
        let (col, rest) = indentation(line);
        let len = line_len(line);
        from += len;
        if rest.first().is_none_or(|&b| b == b'\n' || b == b'\r') {
            continue;
        }
        if col < indent {
            return false;
        }
        let n = rest.iter().take_while(|&&b| b == b'`').count();
        if closes(rest, n, ticks) {
            return true;
        }
    }
    false
}

/// The column where `line`'s text starts (a tab counts as one column, as
/// the fence's own line does) and the text from there.
fn indentation(line: &[u8]) -> (usize, &[u8]) {
    let n = line
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    (n, &line[n..])
}

/// Whether a line whose text `rest` starts with `ticks` backticks closes a
/// fence of `fence_ticks`: at least as many backticks, then nothing, or
/// the `"""` that also closes the string (```` ```""" ````).
fn closes(rest: &[u8], ticks: usize, fence_ticks: usize) -> bool {
    ticks >= fence_ticks && {
        let after = &rest[ticks..];
        is_blank_to_eol(after) || after.starts_with(b"\"\"\"")
    }
}

/// Whether only blanks come before the end of the line.
fn is_blank_to_eol(rest: &[u8]) -> bool {
    rest.iter()
        .take_while(|&&b| b != b'\n' && b != b'\r')
        .all(|&b| b == b' ' || b == b'\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The string's content and the inner runs read as text.
    fn scan(text: &str) -> (String, bool, Vec<(usize, usize)>) {
        let mut runs = Vec::new();
        let body = text.strip_prefix("\"\"\"").unwrap();
        let (len, closed) = scan_triple(body.as_bytes(), &mut |at, n| runs.push((at, n)));
        (body[..len].to_string(), closed, runs)
    }

    #[test]
    fn a_closed_fence_keeps_its_quotes() {
        let text = "\"\"\"\n  Show:\n  ```prose\n  session \"a\"\n    prompt: \"\"\"\n      x\n    \"\"\"\n  ```\n  done\n\"\"\"\nrest \"\"\"";
        let (content, closed, runs) = scan(text);
        assert!(closed);
        assert!(content.ends_with("  done\n\"\"\""), "{content:?}");
        assert_eq!(runs.len(), 2);
    }

    #[test]
    fn a_less_indented_quote_closes_the_string() {
        // The fence was never closed: the closing `"""` sits left of it.
        let text = "\"\"\"\n    ```bash\n    ls\n  \"\"\"\nagent b:\n  ```\n";
        let (content, closed, runs) = scan(text);
        assert!(closed);
        assert_eq!(content, "\n    ```bash\n    ls\n  \"\"\"");
        assert!(runs.is_empty());
    }

    #[test]
    fn a_fence_without_a_closing_line_is_not_a_fence() {
        let text = "\"\"\"\n```\n\"\"\"\nsession \"x\"\n";
        let (content, closed, runs) = scan(text);
        assert!(closed);
        assert_eq!(content, "\n```\n\"\"\"");
        assert!(runs.is_empty());
    }

    #[test]
    fn quotes_outside_a_fence_close_as_always() {
        let (content, closed, runs) = scan("\"\"\"\n```\ncode\n```\n\"\"\"");
        assert!(closed);
        assert_eq!(content, "\n```\ncode\n```\n\"\"\"");
        assert!(runs.is_empty());
    }

    #[test]
    fn a_shorter_backtick_line_does_not_close_a_longer_fence() {
        let text = "\"\"\"\n````md\n```\n\"\"\"\n```\n````\n\"\"\"";
        let (content, _, runs) = scan(text);
        assert_eq!(runs, vec![(12, 3)]);
        assert!(content.ends_with("````\n\"\"\""));
    }

    #[test]
    fn a_fence_closed_together_with_the_string() {
        // ```` ```""" ```` ends the fence and the string on one line.
        let text = "\"\"\"Run:\n```bash\nls\n```\"\"\"\nsession \"x\"\n```\n";
        let (content, closed, runs) = scan(text);
        assert!(closed);
        assert_eq!(content, "Run:\n```bash\nls\n```\"\"\"");
        assert!(runs.is_empty());
    }

    #[test]
    fn escaped_quotes_are_not_runs() {
        let (_, closed, runs) = scan("\"\"\"\n```\n\\\"\"\"\n```\n\"\"\"");
        assert!(closed);
        assert!(runs.is_empty());
    }

    #[test]
    fn the_look_ahead_is_bounded() {
        let mut text = String::from("\"\"\"\n```\n\"\"\"\n");
        text.push_str(&"line\n".repeat(LOOKAHEAD_LINES + 5));
        text.push_str("```\n\"\"\"");
        let (content, _, runs) = scan(&text);
        assert_eq!(content, "\n```\n\"\"\"");
        assert!(runs.is_empty());
    }
}
