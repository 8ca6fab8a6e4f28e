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
    injection::{Escape, GuestLanguage, GuestText, Injection},
};
use prose_markdown::instructions::FragmentKind;

/// The injections of an OpenProse file: one per prompt string.
///
/// Whether a string is a prompt and what its guest text is depend on its
/// statement alone, so the injections of each top-level statement are kept
/// while its tree is unchanged ([`crate::statement_memo`]): after an edit
/// only the statements it touched are walked again.
pub(crate) fn prompt_strings(db: &dyn Db, file: SourceFile) -> Vec<Injection> {
    let text = file.text(db);
    let root = parse(db, file).syntax_node();
    let per_statement = db.statement_memos().injections.each(file, &root, |stmt| {
        let start = stmt.text_range().start();
        let mut out = Vec::new();
        prose_syntax::walk::pre_order(stmt, |n| {
            if let Some(s) = ast::StringLit::cast(n.clone())
                && is_prompt(&s)
            {
                let mut inj = injection(text, &s);
                inj.map = inj.map.moved(start, TextSize::new(0));
                out.push(inj);
            }
        });
        out
    });
    let mut out = Vec::with_capacity(per_statement.iter().map(|(_, injs)| injs.len()).sum());
    out.extend(per_statement.iter().flat_map(|(start, injs)| {
        injs.iter().map(move |inj| Injection {
            map: inj.map.moved(TextSize::new(0), *start),
            ..inj.clone()
        })
    }));
    out
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
    let indent = if s.is_triple() {
        common_indent(&text[content])
    } else {
        0
    };
    let mut guest = GuestText::at(content.start());
    let mut opaque = Vec::new();
    let mut line_start = true;
    for element in s.syntax().children_with_tokens() {
        let range = element.text_range();
        match element {
            NodeOrToken::Token(t) => match t.kind() {
                SyntaxKind::STRING_TEXT => {
                    let mut at = range.start();
                    for line in t.text().split_inclusive('\n') {
                        let len = TextSize::of(line);
                        let skip = if line_start {
                            line.bytes()
                                .take(indent)
                                .take_while(|b| matches!(b, b' ' | b'\t'))
                                .count()
                        } else {
                            0
                        };
                        let skip = TextSize::new(skip as u32);
                        guest.copy(text, TextRange::new(at + skip, at + len));
                        line_start = line.ends_with('\n');
                        at += len;
                    }
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

/// The indentation (spaces and tabs) that every non-blank line after the
/// first shares.
fn common_indent(content: &str) -> usize {
    content
        .split('\n')
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0)
}
