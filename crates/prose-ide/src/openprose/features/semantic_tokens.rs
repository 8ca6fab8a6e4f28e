//! Semantic tokens: a classification of every meaningful token, for
//! highlighting that knows what a name refers to (an agent, a block, an
//! imported program, a parameter, a constant...), which a grammar-based
//! highlighter cannot tell apart.
//!
//! The result is sorted, never overlaps, and never spans lines: a token
//! that does (a `"""` string's text, a `***` discretion) is split at its
//! line breaks, as LSP clients require; blank pieces are left out.
//! Punctuation (`:`, `,`, brackets) is not classified.
//!
//! Classification of names comes from name resolution
//! ([`crate::semantics`]): definitions get `declaration` (and `definition`
//! for agents and blocks, which are defined with a body), names bound once
//! and never reassigned (constants, inputs, parameters, loop, index and
//! error variables, the pipeline's `item`) get `readonly`, at the
//! definition and at every reference. A bare word as a property value
//! (`model: opus`, `persist: project`) is an enum member.

use std::collections::HashMap;

use prose_syntax::{
    AstNode, NodeOrToken, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast,
};

use crate::semantics::{Def, DefKind, FileSemantics, RefKind, Reference};

/// What a token is. The discriminant is the index in [`TOKEN_KINDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SemanticTokenKind {
    Keyword,
    /// An agent name (LSP `class`).
    Agent,
    /// A block name (LSP `function`).
    Block,
    /// An imported program's alias or a skill (LSP `namespace`).
    Program,
    Variable,
    Parameter,
    /// A property key (agent, session, modifier, object field, field access).
    Property,
    /// A bare word as a property value: `opus`, `project`, `deny`.
    EnumMember,
    String,
    /// `\n`, `\"`, ... inside a string.
    Escape,
    /// The braces (and dots) of a `{name.field}` interpolation.
    Interpolation,
    /// The text of a `**discretion**` condition (its stars are operators).
    Discretion,
    Number,
    Comment,
    Operator,
    /// A word that qualifies what surrounds it: a Pattern Dialect
    /// permission marker (`?ask`, `!`).
    Modifier,
    /// A condition keyword of the instruction language (`_instructed_`,
    /// `_resumed_`: something that happened; LSP `event`).
    Condition,
    /// An action keyword of the instruction language (`_terminate_`,
    /// `_spawn_`: a short-hand for a longer instruction; LSP `macro`).
    Action,
    /// The text of a `like "…"` pattern and its `{*}` discards (LSP `regexp`).
    Pattern,
}

/// The token kinds' names, in discriminant order: the legend a server
/// advertises. Standard LSP names where one fits; the others are custom.
pub const TOKEN_KINDS: &[&str] = &[
    "keyword",
    "class",
    "function",
    "namespace",
    "variable",
    "parameter",
    "property",
    "enumMember",
    "string",
    "escapeSequence",
    "interpolation",
    "discretion",
    "number",
    "comment",
    "operator",
    "modifier",
    "event",
    "macro",
    "regexp",
];

impl SemanticTokenKind {
    /// The index of this kind in [`TOKEN_KINDS`].
    pub fn index(self) -> u32 {
        self as u32
    }

    /// The kind's name in the legend.
    pub fn name(self) -> &'static str {
        TOKEN_KINDS[self as usize]
    }
}

/// A set of token modifiers: bit `i` is [`TOKEN_MODIFIERS`]`[i]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TokenModifiers(pub u32);

/// The modifiers' names, in bit order: the legend a server advertises.
pub const TOKEN_MODIFIERS: &[&str] = &["declaration", "definition", "readonly"];

impl TokenModifiers {
    pub const NONE: TokenModifiers = TokenModifiers(0);
    /// The name being defined.
    pub const DECLARATION: TokenModifiers = TokenModifiers(1 << 0);
    /// The definition of an agent or block (a name with a body).
    pub const DEFINITION: TokenModifiers = TokenModifiers(1 << 1);
    /// A name that is never reassigned.
    pub const READONLY: TokenModifiers = TokenModifiers(1 << 2);

    pub fn contains(self, other: TokenModifiers) -> bool {
        self.0 & other.0 == other.0
    }

    /// The modifiers' names, in bit order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        TOKEN_MODIFIERS
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
    }
}

impl std::ops::BitOr for TokenModifiers {
    type Output = TokenModifiers;
    fn bitor(self, rhs: TokenModifiers) -> TokenModifiers {
        TokenModifiers(self.0 | rhs.0)
    }
}

/// One classified piece of text, on a single line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: SemanticTokenKind,
    pub modifiers: TokenModifiers,
}

/// Classifies the tokens of `root` (those touching `range`, if given).
pub fn semantic_tokens(
    root: &SyntaxNode,
    sema: &FileSemantics,
    range: Option<TextRange>,
) -> Vec<SemanticToken> {
    let c = Classifier::new(sema);
    let mut out = Vec::new();
    // Only the part of the tree that covers the range is walked.
    let scope = match range {
        Some(r) if r.end() <= root.text_range().end() => root.covering_element(r),
        _ => root.clone().into(),
    };
    let tokens: Vec<SyntaxToken> = match scope {
        NodeOrToken::Node(n) => n
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .collect(),
        NodeOrToken::Token(t) => vec![t],
    };
    let mut cancel = crate::CancelCheck::default();
    for token in tokens {
        cancel.tick();
        if range.is_some_and(|r| !touches(r, token.text_range())) {
            continue;
        }
        if token.kind() == DISCRETION {
            discretion(&token, &mut out);
            continue;
        }
        if let Some((kind, modifiers)) = c.classify(&token) {
            push_lines(&mut out, &token, token.text_range(), kind, modifiers);
        }
    }
    if let Some(r) = range {
        out.retain(|t| touches(r, t.range));
    }
    out
}

/// Whether `piece` overlaps `range` (an empty range touches what contains it).
pub(crate) fn touches(range: TextRange, piece: TextRange) -> bool {
    if range.is_empty() {
        piece.contains_inclusive(range.start())
    } else {
        range.intersect(piece).is_some_and(|i| !i.is_empty())
    }
}

struct Classifier<'a> {
    defs: HashMap<TextRange, &'a Def>,
    refs: HashMap<TextRange, (&'a Reference, Option<&'a Def>)>,
}

impl<'a> Classifier<'a> {
    fn new(sema: &'a FileSemantics) -> Self {
        let defs = sema
            .defs
            .iter()
            // The implicit `item` is "defined" at the `map` keyword.
            .filter(|d| d.kind != DefKind::PipelineItem)
            .map(|d| (d.name_range, d))
            .collect();
        let refs = sema
            .refs
            .iter()
            .map(|r| (r.range, (r, r.target.map(|t| sema.def(t)))))
            .collect();
        Classifier { defs, refs }
    }

    fn classify(&self, token: &SyntaxToken) -> Option<(SemanticTokenKind, TokenModifiers)> {
        use SemanticTokenKind as K;
        let none = TokenModifiers::NONE;
        let kind = token.kind();
        let parent = token.parent()?;
        Some(match kind {
            COMMENT => (K::Comment, none),
            NUMBER => (K::Number, none),
            STRING_OPEN | STRING_CLOSE | STRING_TEXT => (K::String, none),
            STRING_ESCAPE => (K::Escape, none),
            INTERP_OPEN | INTERP_CLOSE => (K::Interpolation, none),
            DOT if parent.kind() == INTERPOLATION => (K::Interpolation, none),
            IDENT => return self.name(token, &parent),
            k if k.is_keyword() => (K::Keyword, none),
            k if is_operator(k) => (K::Operator, none),
            _ => return None,
        })
    }

    fn name(
        &self,
        token: &SyntaxToken,
        parent: &SyntaxNode,
    ) -> Option<(SemanticTokenKind, TokenModifiers)> {
        use SemanticTokenKind as K;
        let none = TokenModifiers::NONE;
        let range = token.text_range();
        match parent.kind() {
            NAME => {
                if let Some(def) = self.defs.get(&range) {
                    let (kind, mods) = def_style(def.kind);
                    return Some((kind, mods | TokenModifiers::DECLARATION));
                }
                // Names that define nothing: `f(name: value)`, `{ key: value }`.
                match parent.parent().map(|p| p.kind()) {
                    Some(ARG) => Some((K::Parameter, none)),
                    Some(OBJECT_FIELD) => Some((K::Property, none)),
                    _ => Some((K::Variable, TokenModifiers::DECLARATION)),
                }
            }
            NAME_REF => {
                if let Some((r, def)) = self.refs.get(&range) {
                    return Some(match r.kind {
                        RefKind::Agent => (K::Agent, none),
                        RefKind::Block => (K::Block, none),
                        RefKind::Program => (K::Program, none),
                        RefKind::Variable(_) => {
                            def.map_or((K::Variable, none), |d| def_style(d.kind))
                        }
                    });
                }
                let grand = parent.parent()?;
                match grand.kind() {
                    // An unknown pipeline operator (`xs | sort:`).
                    PIPE_OP => None,
                    FIELD_EXPR => {
                        let is_field = ast::FieldExpr::cast(grand)
                            .and_then(|f| f.field())
                            .is_some_and(|f| f.syntax() == parent);
                        Some((if is_field { K::Property } else { K::Variable }, none))
                    }
                    _ if parent.ancestors().any(|a| a.kind() == PROPERTY) => {
                        Some((K::EnumMember, none))
                    }
                    _ => Some((K::Variable, none)),
                }
            }
            // Keys: `model:`, `on-fail:`, and the fields of `{a.b}`.
            PROPERTY | MODIFIER | INTERPOLATION => Some((K::Property, none)),
            _ => None,
        }
    }
}

/// How a definition of `kind` (and every reference to it) is shown.
fn def_style(kind: DefKind) -> (SemanticTokenKind, TokenModifiers) {
    use SemanticTokenKind as K;
    let def = TokenModifiers::DEFINITION;
    let ro = TokenModifiers::READONLY;
    let none = TokenModifiers::NONE;
    match kind {
        DefKind::Agent => (K::Agent, def),
        DefKind::Block => (K::Block, def),
        DefKind::Program | DefKind::Skill => (K::Program, none),
        DefKind::Param | DefKind::ReduceVar => (K::Parameter, ro),
        DefKind::Input
        | DefKind::Const
        | DefKind::LoopVar
        | DefKind::IndexVar
        | DefKind::CatchVar
        | DefKind::PipelineItem => (K::Variable, ro),
        DefKind::Output
        | DefKind::Let
        | DefKind::Assigned
        | DefKind::SessionName
        | DefKind::Destructured => (K::Variable, none),
    }
}

fn is_operator(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        EQ | ARROW
            | PIPE
            | PLUS
            | MINUS
            | STAR
            | SLASH
            | PERCENT
            | EQ2
            | NEQ
            | LT
            | LTEQ
            | GT
            | GTEQ
            | AMP2
            | PIPE2
            | BANG
            | QUESTION
    )
}

/// A discretion: its stars are operators, the text between is `Discretion`.
fn discretion(token: &SyntaxToken, out: &mut Vec<SemanticToken>) {
    let text = token.text();
    let start = token.text_range().start();
    let open = text.bytes().take_while(|&b| b == b'*').count();
    let close = text[open..]
        .bytes()
        .rev()
        .take_while(|&b| b == b'*')
        .count();
    let at = |from: usize, to: usize| {
        TextRange::new(
            start + TextSize::from(from as u32),
            start + TextSize::from(to as u32),
        )
    };
    let none = TokenModifiers::NONE;
    push_lines(out, token, at(0, open), SemanticTokenKind::Operator, none);
    push_lines(
        out,
        token,
        at(open, text.len() - close),
        SemanticTokenKind::Discretion,
        none,
    );
    push_lines(
        out,
        token,
        at(text.len() - close, text.len()),
        SemanticTokenKind::Operator,
        none,
    );
}

/// The lines of `text`, each with its line break (`\n`, `\r\n` or a
/// lone `\r`).
fn split_lines_inclusive(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .bytes()
            .position(prose_syntax::lines::is_line_break)
            .map_or(rest.len(), |i| {
                i + prose_syntax::lines::break_len(&rest.as_bytes()[i..])
            });
        let (line, tail) = rest.split_at(end);
        rest = tail;
        Some(line)
    })
}

/// Pushes `range` (a part of `token`) split at line breaks, each piece
/// without its line break; blank pieces are dropped, and discretion text
/// loses its surrounding blanks.
fn push_lines(
    out: &mut Vec<SemanticToken>,
    token: &SyntaxToken,
    range: TextRange,
    kind: SemanticTokenKind,
    modifiers: TokenModifiers,
) {
    let base = token.text_range().start();
    let text = &token.text()[range - base];
    let mut offset = range.start();
    for line in split_lines_inclusive(text) {
        let content = line.trim_end_matches(['\n', '\r']);
        let (lead, piece) = if kind == SemanticTokenKind::Discretion {
            let trimmed = content.trim_start();
            (content.len() - trimmed.len(), trimmed.trim_end())
        } else {
            (0, content)
        };
        if !piece.trim().is_empty() {
            let from = offset + TextSize::from(lead as u32);
            out.push(SemanticToken {
                range: TextRange::at(from, TextSize::of(piece)),
                kind,
                modifiers,
            });
        }
        offset += TextSize::of(line);
    }
}

/// Renders tokens of `text` as `line:col text kind [modifiers]`, one per
/// line, checking that they are sorted, disjoint and on one line each (the
/// tests of every language).
#[cfg(test)]
pub(crate) fn render_tokens(text: &str, tokens: &[SemanticToken]) -> String {
    let mut out = String::new();
    let mut last_end = 0.into();
    for t in tokens {
        assert!(t.range.start() >= last_end, "overlap or disorder at {t:?}");
        last_end = t.range.end();
        let piece = &text[t.range];
        assert!(!piece.contains('\n'), "token spans lines: {t:?}");
        let before = &text[..usize::from(t.range.start())];
        let line = before.matches('\n').count() + 1;
        let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        let mods: Vec<_> = t.modifiers.names().collect();
        out.push_str(&format!("{line}:{col} {piece} {}", t.kind.name()));
        if !mods.is_empty() {
            out.push_str(&format!(" [{}]", mods.join(" ")));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};
    use prose_syntax::TextRange;

    use super::{TOKEN_KINDS, TOKEN_MODIFIERS, TokenModifiers, render_tokens};
    use crate::fixture::Fixture;

    /// Renders the tokens of the program `text` (see [`render_tokens`]).
    fn render(text: &str, range: Option<TextRange>) -> String {
        let (host, file) = Fixture::parse(text).host(None);
        render_tokens(text, &host.analysis().semantic_tokens(file, range).unwrap())
    }

    fn check(text: &str, expect: Expect) {
        expect.assert_eq(&render(text, None));
    }

    #[test]
    fn legend_matches_the_enum() {
        use super::SemanticTokenKind as K;
        assert_eq!(K::Pattern.index() as usize, TOKEN_KINDS.len() - 1);
        assert_eq!(K::Condition.name(), "event");
        assert_eq!(K::Modifier.name(), "modifier");
        assert_eq!(K::Agent.name(), "class");
        assert_eq!(
            TokenModifiers::READONLY.names().collect::<Vec<_>>(),
            [TOKEN_MODIFIERS[2]]
        );
    }

    #[test]
    fn agents_blocks_programs_and_properties() {
        check(
            r#"use "@acme/lib" as lib
agent writer:
  model: opus
block review(draft):
  session: writer
    prompt: "Review {draft.text}"
do review(lib(topic: "x"))
"#,
            expect![[r#"
                1:1 use keyword
                1:5 " string
                1:6 @acme/lib string
                1:15 " string
                1:17 as keyword
                1:20 lib namespace [declaration]
                2:1 agent keyword
                2:7 writer class [declaration definition]
                3:3 model property
                3:10 opus enumMember
                4:1 block keyword
                4:7 review function [declaration definition]
                4:14 draft parameter [declaration readonly]
                5:3 session keyword
                5:12 writer class
                6:5 prompt property
                6:13 " string
                6:14 Review  string
                6:21 { interpolation
                6:22 draft parameter [readonly]
                6:27 . interpolation
                6:28 text property
                6:32 } interpolation
                6:33 " string
                7:1 do keyword
                7:4 review function
                7:11 lib namespace
                7:15 topic parameter
                7:22 " string
                7:23 x string
                7:24 " string
            "#]],
        );
    }

    #[test]
    fn variables_and_their_modifiers() {
        check(
            r#"input topic: "t"
const k = 3
let x = session "a {topic}"
for item, i in [x, k]:
  x = item
let r = [1] | map:
  session "{item}"
try:
  throw "no"
catch as err:
  session "{err} {missing}"
"#,
            expect![[r#"
                1:1 input keyword
                1:7 topic variable [declaration readonly]
                1:14 " string
                1:15 t string
                1:16 " string
                2:1 const keyword
                2:7 k variable [declaration readonly]
                2:9 = operator
                2:11 3 number
                3:1 let keyword
                3:5 x variable [declaration]
                3:7 = operator
                3:9 session keyword
                3:17 " string
                3:18 a  string
                3:20 { interpolation
                3:21 topic variable [readonly]
                3:26 } interpolation
                3:27 " string
                4:1 for keyword
                4:5 item variable [declaration readonly]
                4:11 i variable [declaration readonly]
                4:13 in keyword
                4:17 x variable
                4:20 k variable [readonly]
                5:3 x variable
                5:5 = operator
                5:7 item variable [readonly]
                6:1 let keyword
                6:5 r variable [declaration]
                6:7 = operator
                6:10 1 number
                6:13 | operator
                6:15 map keyword
                7:3 session keyword
                7:11 " string
                7:12 { interpolation
                7:13 item variable [readonly]
                7:17 } interpolation
                7:18 " string
                8:1 try keyword
                9:3 throw keyword
                9:9 " string
                9:10 no string
                9:12 " string
                10:1 catch keyword
                10:7 as keyword
                10:10 err variable [declaration readonly]
                11:3 session keyword
                11:11 " string
                11:12 { interpolation
                11:13 err variable [readonly]
                11:16 } interpolation
                11:18 { interpolation
                11:19 missing variable
                11:26 } interpolation
                11:27 " string
            "#]],
        );
    }

    #[test]
    fn multi_line_tokens_are_split_per_line() {
        check(
            "# one\nif ***\n  is it\n  done? ***:\n  session \"\"\"\n  line \\n one\n\n  line two\"\"\"\n",
            expect![[r#"
                1:1 # one comment
                2:1 if keyword
                2:4 *** operator
                3:3 is it discretion
                4:3 done? discretion
                4:9 *** operator
                5:3 session keyword
                5:11 """ string
                6:1   line  string
                6:8 \n escapeSequence
                6:10  one string
                8:1   line two string
                8:11 """ string
            "#]],
        );
    }

    #[test]
    fn operators_and_discretions() {
        check(
            "let a = **done** and not (x >= 2) ? -1 : ****\nlet s = session \"a\" -> session \"b\"\n",
            expect![[r#"
                1:1 let keyword
                1:5 a variable [declaration]
                1:7 = operator
                1:9 ** operator
                1:11 done discretion
                1:15 ** operator
                1:18 and keyword
                1:22 not keyword
                1:27 x variable
                1:29 >= operator
                1:32 2 number
                1:35 ? operator
                1:37 - operator
                1:38 1 number
                1:42 **** operator
                2:1 let keyword
                2:5 s variable [declaration]
                2:7 = operator
                2:9 session keyword
                2:17 " string
                2:18 a string
                2:19 " string
                2:21 -> operator
                2:24 session keyword
                2:32 " string
                2:33 b string
                2:34 " string
            "#]],
        );
    }

    #[test]
    fn a_range_selects_the_tokens_it_touches() {
        let text = "agent a:\n  model: opus\nsession: a\n";
        let start = text.find("model").unwrap() as u32;
        let range = TextRange::new(start.into(), (start + 9).into());
        expect![[r#"
            2:3 model property
            2:10 opus enumMember
        "#]]
        .assert_eq(&render(text, Some(range)));
        // A range past the end of the file is the whole file.
        let all = render(text, Some(TextRange::new(0.into(), 1000.into())));
        assert_eq!(all, render(text, None));
    }

    #[test]
    fn broken_and_half_typed_input() {
        for text in [
            "",
            "session \"unterminated {x",
            "agent",
            "if **open",
            "let = ",
            "\"\"\"\nnever closed",
            "parallel (\"first\"\n  session",
        ] {
            render(text, None);
        }
        check(
            "session: \nlet x = y.\n",
            expect![[r#"
                1:1 session keyword
                2:1 let keyword
                2:5 x variable [declaration]
                2:7 = operator
                2:9 y variable
            "#]],
        );
    }
}
