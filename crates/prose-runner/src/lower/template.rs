//! Strings as templates: text pieces and `{name.field}` interpolations,
//! escapes decoded, and `"""` strings dedented.

use prose_syntax::{AstNode, NodeOrToken, SyntaxKind, ast};

use super::Cx;
use crate::ir::{Piece, Template};

/// Marks where an interpolation sits while a `"""` string is dedented.
const HOLE: char = '\u{E000}';

impl Cx {
    pub(crate) fn template(&self, s: &ast::StringLit) -> Template {
        let mut pieces: Vec<Piece> = Vec::new();
        let push_text = |pieces: &mut Vec<Piece>, t: &str| match pieces.last_mut() {
            Some(Piece::Text(last)) => last.push_str(t),
            _ => pieces.push(Piece::Text(t.to_string())),
        };
        for e in s.syntax().children_with_tokens() {
            match e {
                NodeOrToken::Token(t) => match t.kind() {
                    SyntaxKind::STRING_TEXT => push_text(&mut pieces, t.text()),
                    SyntaxKind::STRING_ESCAPE => {
                        push_text(&mut pieces, ast::decode_escape(t.text()))
                    }
                    _ => {}
                },
                NodeOrToken::Node(n) => {
                    let raw = n.text().to_string();
                    match ast::Interpolation::cast(n).and_then(|i| {
                        let name = i.name_ref()?.text();
                        let fields = i.fields().iter().map(|t| t.text().to_string()).collect();
                        Some((name, fields))
                    }) {
                        Some((name, fields)) => pieces.push(Piece::Var { name, fields, raw }),
                        None => push_text(&mut pieces, &raw),
                    }
                }
            }
        }
        let template = Template { pieces };
        if s.is_triple() {
            dedent_template(template)
        } else {
            template
        }
    }
}

/// A template from plain text (a discretion's): `{name}` and `{name.field}`
/// become interpolations, everything else is text.
pub fn braces(text: &str) -> Template {
    let mut pieces = Vec::new();
    let mut rest = text;
    let mut buf = String::new();
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}');
        let inner = close.map(|c| &after[..c]);
        let is_path = inner.is_some_and(|i| {
            !i.is_empty()
                && i.split('.').all(|seg| {
                    let mut ch = seg.chars();
                    ch.next().is_some_and(|c| c.is_alphabetic() || c == '_')
                        && ch.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                })
        });
        match (is_path, inner, close) {
            (true, Some(inner), Some(close)) => {
                buf.push_str(&rest[..open]);
                if !buf.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut buf)));
                }
                let mut segs = inner.split('.').map(str::to_string);
                let name = segs.next().unwrap_or_default();
                pieces.push(Piece::Var {
                    name,
                    fields: segs.collect(),
                    raw: format!("{{{inner}}}"),
                });
                rest = &after[close + 1..];
            }
            _ => {
                buf.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    buf.push_str(rest);
    if !buf.is_empty() {
        pieces.push(Piece::Text(buf));
    }
    Template { pieces }
}

/// Dedents a `"""` template: see [`dedent`].
fn dedent_template(t: Template) -> Template {
    let mut vars = Vec::new();
    let mut flat = String::new();
    for p in t.pieces {
        match p {
            Piece::Text(s) => flat.push_str(&s),
            var @ Piece::Var { .. } => {
                flat.push(HOLE);
                vars.push(var);
            }
        }
    }
    let flat = dedent(&flat);
    let mut pieces = Vec::new();
    let mut vars = vars.into_iter();
    for (i, part) in flat.split(HOLE).enumerate() {
        if i > 0
            && let Some(v) = vars.next()
        {
            pieces.push(v);
        }
        if !part.is_empty() {
            pieces.push(Piece::Text(part.to_string()));
        }
    }
    Template { pieces }
}

/// The text of a `"""` string as its author meant it: a first line that is
/// blank (the line break after the opening quotes) and a last line that is
/// blank (the indentation before the closing quotes) are dropped, and the
/// indentation common to the other non-blank lines is removed. Text written
/// right after the opening quotes stays as it is.
pub fn dedent(s: &str) -> String {
    let mut lines: Vec<&str> = s.split('\n').collect();
    if lines.len() > 1 && lines[0].trim().is_empty() {
        lines.remove(0);
    }
    if lines.len() > 1 && lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    // The first line keeps its text when it followed the quotes directly.
    let first_is_inline =
        !s.starts_with('\n') && !s.split('\n').next().unwrap_or("").trim().is_empty();
    let indent = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| !(l.trim().is_empty() || first_is_inline && *i == 0))
        .map(|(_, l)| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if first_is_inline && i == 0 {
                l.trim_end().to_string()
            } else {
                let cut = indent.min(l.len() - l.trim_start_matches([' ', '\t']).len());
                l[cut..].trim_end().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::dedent;

    #[test]
    fn braces_in_plain_text() {
        let t = super::braces("Plan {plan.steps} ok? {not json: 1} {}");
        assert_eq!(t.raw(), "Plan {plan.steps} ok? {not json: 1} {}");
        assert!(
            matches!(&t.pieces[1], crate::ir::Piece::Var { name, fields, .. } if name == "plan" && fields == &["steps"])
        );
        assert_eq!(t.pieces.len(), 3);
    }

    #[test]
    fn dedents_like_the_author_meant() {
        assert_eq!(
            dedent("\n  You are a writer.\n    Indented.\n  "),
            "You are a writer.\n  Indented."
        );
        assert_eq!(
            dedent("Execute phase:\n{item}\n\nDone."),
            "Execute phase:\n{item}\n\nDone."
        );
        assert_eq!(
            dedent("inline first\n    then more\n    lines"),
            "inline first\nthen more\nlines"
        );
        assert_eq!(dedent("single"), "single");
    }
}
