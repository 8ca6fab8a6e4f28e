//! # P001 `tab-indentation`
//!
//! **Tab in indentation.** The indentation of a line contains a tab
//! character. OpenProse indents with spaces.
//!
//! ## Why is this bad?
//! Indentation decides which block a line belongs to, and a tab's width
//! depends on the editor. The parser counts a tab as advancing to the next
//! multiple of 4 columns, so a file that mixes tabs and spaces can look
//! right in one editor and mean something else to the runtime.
//!
//! ## Example
//! ```prose
//! agent writer:
//! 	model: sonnet
//! ```
//!
//! ## Fix
//! ```prose
//! agent writer:
//!   model: sonnet
//! ```
//!
//! The diagnostic covers the tab characters of the line's leading
//! whitespace (from the first tab to the last one), once per line. Lines
//! inside a string or a discretion block are content, not indentation, and
//! are never reported; blank lines are ignored. A comment line indented
//! with a tab is reported like any other line.
//!
//! ## Specification
//! compiler.md, File Format: "Indentation: Spaces (Python-like)". The
//! specification has no validation row or code for it; this project code
//! enforces the File Format table (spec-rows.md §2.5, §3.11).
//!
//! ## Profiles
//! `strict`: error, as the File Format table requires spaces. `default`:
//! warning. The parser accepts tabs (4-column stops), so a tab-indented file
//! still runs; what is at risk is the reader's view of the block structure,
//! which deserves a warning rather than an error that stops an otherwise
//! clear program. None of the 65 official programs contains a tab.

use crate::openprose::rules::prelude::*;
use prose_syntax::TextSize;

pub(crate) const RULE: Rule = Rule {
    code: "P001",
    name: "tab-indentation",
    summary: "Tab character in indentation",
    strict: Severity::Error,
    default: Level::On(Severity::Warning),
    source: include_str!("tab_indentation.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let text = ctx.text();
    if memchr::memchr(b'\t', text.as_bytes()).is_none() {
        return;
    }
    // The leading whitespace of the current line, while no other token
    // has been seen on it.
    let mut indent: Option<(usize, usize)> = Some((0, 0));
    for token in ctx
        .syntax()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        let range = token.text_range();
        let (start, end) = (usize::from(range.start()), usize::from(range.end()));
        if start == end {
            continue;
        }
        match token.kind() {
            SyntaxKind::NEWLINE => indent = Some((end, end)),
            SyntaxKind::WHITESPACE => {
                let t = token.text();
                if prose_syntax::lines::has_line_break(t) {
                    indent = Some((start + prose_syntax::lines::line_start(t, t.len()), end));
                } else if let Some((s, e)) = indent
                    && e == start
                {
                    indent = Some((s, end));
                }
            }
            _ => {
                if let Some((s, e)) = indent.take() {
                    let lead = &text[s..e];
                    if let (Some(first), Some(last)) = (lead.find('\t'), lead.rfind('\t')) {
                        let r = TextRange::new(
                            TextSize::from((s + first) as u32),
                            TextSize::from((s + last + 1) as u32),
                        );
                        acc.report(r, "Tab in indentation; indent with spaces");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no, check_strict};
    use expect_test::expect;

    #[test]
    fn tabs_in_leading_whitespace() {
        check_code(
            "P001",
            "agent a:\n\tmodel: opus\n  \t# note\n\t\t\nsession \"x\"\n\tcontext: [a,\n \t\tb]\n",
            expect![[r#"
                P001 2:1-2:2 warning: Tab in indentation; indent with spaces
                P001 3:3-3:4 warning: Tab in indentation; indent with spaces
                P001 6:1-6:2 warning: Tab in indentation; indent with spaces
                P001 7:2-7:4 warning: Tab in indentation; indent with spaces
            "#]],
        );
    }

    #[test]
    fn strict_is_an_error() {
        check_code_strict(
            "P001",
            "agent a:\n\tmodel: opus\n",
            expect![[r#"
            P001 2:1-2:2 error: Tab in indentation; indent with spaces
        "#]],
        );
    }

    #[test]
    fn tabs_inside_strings_and_after_code_are_fine() {
        check_no(
            "P001",
            "let y = \"\"\"\n\tindented content\n\"\"\"\nsession \"a\tb\"\t# tab after code\n",
        );
    }

    #[test]
    fn consistent_tabs_still_parse() {
        // Tabs are 4-column stops: a file indented only with tabs parses,
        // and P001 is the only diagnostic (once per line).
        check_strict(
            "agent a:\n\tmodel: opus\n\tpermissions:\n\t\tbash: deny\nsession: a\n",
            expect![[r#"
                P001 2:1-2:2 error: Tab in indentation; indent with spaces
                P001 3:1-3:2 error: Tab in indentation; indent with spaces
                P001 4:1-4:3 error: Tab in indentation; indent with spaces
            "#]],
        );
    }
}
