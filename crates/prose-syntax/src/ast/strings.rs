//! String literals with their escapes ([`decode_escape`]) and
//! interpolations, and discretion markers (`**text**`).

use super::{AstNode, NameRef, support};
use crate::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

ast_node!(
    /// A string literal (single or triple quoted) with its pieces.
    StringLit, STRING
);
ast_node!(
    /// `{name}` or `{name.field}` inside a string.
    Interpolation, INTERPOLATION
);
ast_node!(
    /// `**text**` or `***text***`.
    DiscretionExpr, DISCRETION_EXPR
);

impl StringLit {
    pub fn open_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, STRING_OPEN)
    }
    pub fn is_triple(&self) -> bool {
        self.open_token().is_some_and(|t| t.text().len() == 3)
    }
    pub fn is_terminated(&self) -> bool {
        support::token(&self.0, STRING_CLOSE).is_some()
    }
    pub fn interpolations(&self) -> impl Iterator<Item = Interpolation> + use<> {
        support::children(&self.0)
    }
    /// The text between the quotes with escapes decoded; interpolations
    /// are kept as written (`{name}`).
    pub fn value(&self) -> String {
        let mut out = String::new();
        self.value_into(&mut out);
        out
    }
    /// [`StringLit::value`] into `out` (cleared first), read from the green
    /// tree: no handle per piece, and a buffer reused over many strings
    /// makes no new string.
    pub fn value_into(&self, out: &mut String) {
        out.clear();
        self.value_pieces(|piece| out.push_str(piece));
    }
    /// Calls `f` with each piece of [`StringLit::value`] in order (its
    /// text, escapes decoded, the interpolations' tokens), read from the
    /// green tree: for what is asked of a value without keeping it (its
    /// length, whether it is blank), with no copy.
    pub fn value_pieces(&self, mut f: impl FnMut(&str)) {
        for child in self.0.green().children() {
            match child {
                rowan::NodeOrToken::Token(t) => {
                    let kind = t.kind().0;
                    if kind == STRING_TEXT as u16 {
                        f(t.text());
                    } else if kind == STRING_ESCAPE as u16 {
                        f(decode_escape(t.text()));
                    }
                }
                rowan::NodeOrToken::Node(n) => green_tokens(n, &mut f),
            }
        }
    }
    /// The range of the content between the quotes.
    pub fn content_range(&self) -> crate::TextRange {
        let range = self.0.text_range();
        let start = self
            .open_token()
            .map_or(range.start(), |t| t.text_range().end());
        let end =
            support::token(&self.0, STRING_CLOSE).map_or(range.end(), |t| t.text_range().start());
        crate::TextRange::new(start, end.max(start))
    }
}

/// Calls `f` with the text of each token of `node` (an interpolation), in
/// order. Written with `write!` through the node's `Display`, each token
/// went through the formatting machinery: about 1,000 instructions an
/// interpolation, 0.6% of a corpus check. The recursion is as deep as the
/// grammar nests an interpolation's nodes (a name reference within it).
fn green_tokens(node: &rowan::GreenNodeData, f: &mut impl FnMut(&str)) {
    for child in node.children() {
        match child {
            rowan::NodeOrToken::Token(t) => f(t.text()),
            rowan::NodeOrToken::Node(n) => green_tokens(n, f),
        }
    }
}

/// The text an escape sequence stands for (`\\n` is a line break); an
/// unknown escape stands for itself.
pub fn decode_escape(escape: &str) -> &str {
    match escape {
        "\\n" => "\n",
        "\\t" => "\t",
        "\\\\" => "\\",
        "\\\"" => "\"",
        "\\{" => "{",
        "\\}" => "}",
        other => other,
    }
}

impl Interpolation {
    pub fn name_ref(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    /// The field path after the variable: `["b"]` for `{a.b}`.
    pub fn fields(&self) -> Vec<SyntaxToken> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == IDENT)
            .collect()
    }
}

impl DiscretionExpr {
    pub fn token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    pub fn is_multiline(&self) -> bool {
        self.token()
            .is_some_and(|t| t.text().starts_with("***") || crate::lines::has_line_break(t.text()))
    }
    /// The condition text between the markers, trimmed.
    pub fn text(&self) -> String {
        let Some(t) = self.token() else {
            return String::new();
        };
        let s = t.text();
        let open = s.bytes().take_while(|&b| b == b'*').count();
        let inner = &s[open..];
        let close = inner
            .bytes()
            .rev()
            .take_while(|&b| b == b'*')
            .count()
            .min(open);
        inner[..inner.len() - close].trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `value` read before it read the green tree: each piece's
    /// handle, in turn.
    fn value_by_handles(s: &StringLit) -> String {
        let mut out = String::new();
        for e in s.syntax().children_with_tokens() {
            match e {
                rowan::NodeOrToken::Token(t) => match t.kind() {
                    STRING_TEXT => out.push_str(t.text()),
                    STRING_ESCAPE => out.push_str(decode_escape(t.text())),
                    _ => {}
                },
                rowan::NodeOrToken::Node(n) => out.push_str(&n.text().to_string()),
            }
        }
        out
    }

    /// The value of every string of `text`, with the buffer reused, is
    /// what reading the handles gives.
    fn values_agree(text: &str) {
        let root = crate::parse(text).syntax_node();
        let mut buffer = String::from("left over");
        for s in root.descendants().filter_map(StringLit::cast) {
            s.value_into(&mut buffer);
            assert_eq!(buffer, value_by_handles(&s), "{s:?} in {text:?}");
        }
    }

    #[test]
    fn values_of_programs() {
        values_agree(
            "agent a:\n  skills: [\"web-search\", \"a\\\"b\\n{c}\\{\", \"x {y.z} w\", \"\", \"\"\"\n  t\n\"\"\"]\nsession \"unterminated\n",
        );
    }

    /// Every string of the official programs (when `PROSE_CORPUS` is set),
    /// hundreds of interpolations among them.
    #[test]
    fn values_of_the_corpus() {
        let Some(dir) = prose_test_support::corpus_dir() else {
            return;
        };
        for path in prose_test_support::prose_files(&dir) {
            values_agree(&std::fs::read_to_string(path).unwrap());
        }
    }

    proptest::proptest! {
        #[test]
        fn values_match_the_handles(
            text in "(session |skills: |\\[|\\]|\"|\"\"\"|a|b c|\\{|\\}|\\\\|\\\\n|\\\\q|\\.|, |\n|  ){0,30}"
        ) {
            values_agree(&text);
        }
    }
}
