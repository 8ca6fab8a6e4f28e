//! Document symbols: the outline of a file, as a tree.
//!
//! - `use` imports (by the name they bind, with the path as detail) and
//!   legacy skill `import`s;
//! - inputs (with their description) and outputs;
//! - agents (with their model);
//! - blocks (with their parameters), holding the named things of their body;
//! - bindings that create a name: `let`, `const`, destructured names, an
//!   assignment to a new name, `session name:` (with its agent); a binding
//!   holds the named things of its value (`let r = parallel: ...`);
//! - loops, `parallel`, `try`/`catch`/`finally`, `if`/`elif`/`else` and
//!   `choice`, named by their header, only when they hold named things, so
//!   that plain control flow does not clutter the outline;
//! - the options of a `choice`, by label.
//!
//! Scoped variables (loop and block parameters) are not listed: they are
//! part of their construct's header.

use std::collections::HashSet;

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode, TextRange,
    ast::{self, Expr},
};

use crate::{
    db::{Db, SourceFile, parse},
    features::navigation::SymbolKind,
    semantics::{DefKind, file_semantics},
};

/// One entry of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentSymbol {
    pub name: String,
    /// A short description shown next to the name.
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole construct.
    pub full_range: TextRange,
    /// The name (or header keyword) inside `full_range`.
    pub selection_range: TextRange,
    pub children: Vec<DocumentSymbol>,
}

/// Details and container names longer than this are cut.
const MAX_DETAIL: usize = 60;

pub(crate) fn document_symbols(db: &dyn Db, file: SourceFile) -> Vec<DocumentSymbol> {
    let root = parse(db, file).syntax_node();
    let sema = file_semantics(db, file);
    let cx = Cx {
        new_names: sema
            .defs_of(DefKind::Assigned)
            .map(|(_, d)| d.name_range)
            .collect(),
    };
    cx.symbols_in(&root)
}

struct Cx {
    /// Assignment targets that create a name (not reassignments).
    new_names: HashSet<TextRange>,
}

fn symbol(
    name: String,
    kind: SymbolKind,
    node: &SyntaxNode,
    selection_range: TextRange,
    detail: Option<String>,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail,
        kind,
        full_range: node.text_range().cover(selection_range),
        selection_range,
        children,
    }
}

impl Cx {
    fn symbols_in(&self, node: &SyntaxNode) -> Vec<DocumentSymbol> {
        let mut out = Vec::new();
        for child in node.children() {
            self.symbols_of(&child, &mut out);
        }
        out
    }

    fn symbols_of(&self, node: &SyntaxNode, out: &mut Vec<DocumentSymbol>) {
        use SyntaxKind::*;
        let named = |n: Option<ast::Name>| n.filter(|n| !n.text().is_empty());
        match node.kind() {
            USE_STMT => {
                let Some(u) = ast::UseStmt::cast(node.clone()) else {
                    return;
                };
                let path = u.path();
                let (name, at) = match (named(u.alias()), &path) {
                    (Some(a), _) => (a.text(), a.syntax().text_range()),
                    (None, Some(p)) => match crate::imports::implicit_name(&p.value()) {
                        Some(n) => (n, p.syntax().text_range()),
                        None => return,
                    },
                    (None, None) => return,
                };
                let detail = path.map(|p| p.value());
                out.push(symbol(
                    name,
                    SymbolKind::Program,
                    node,
                    at,
                    detail,
                    Vec::new(),
                ));
            }
            IMPORT_STMT => {
                let Some(i) = ast::ImportStmt::cast(node.clone()) else {
                    return;
                };
                let Some(name) = i.name().filter(|n| !n.value().trim().is_empty()) else {
                    return;
                };
                let detail = i.source().map(|s| s.value());
                out.push(symbol(
                    name.value(),
                    SymbolKind::Skill,
                    node,
                    name.syntax().text_range(),
                    detail,
                    Vec::new(),
                ));
            }
            INPUT_DECL => {
                let Some(i) = ast::InputDecl::cast(node.clone()) else {
                    return;
                };
                let Some(name) = named(i.name()) else { return };
                let detail = match i.description() {
                    Some(Expr::String(s)) => Some(s.value()),
                    Some(Expr::Discretion(d)) => Some(d.text()),
                    _ => None,
                };
                out.push(symbol(
                    name.text(),
                    SymbolKind::Input,
                    node,
                    name.syntax().text_range(),
                    detail.and_then(|d| short(&d)),
                    Vec::new(),
                ));
            }
            OUTPUT_DECL => {
                let children = self.symbols_in(node);
                match ast::OutputDecl::cast(node.clone()).and_then(|o| named(o.name())) {
                    Some(name) => out.push(symbol(
                        name.text(),
                        SymbolKind::Output,
                        node,
                        name.syntax().text_range(),
                        None,
                        children,
                    )),
                    None => out.extend(children),
                }
            }
            AGENT_DEF => {
                let Some(a) = ast::AgentDef::cast(node.clone()) else {
                    return;
                };
                let Some(name) = named(a.name()) else { return };
                let model = a
                    .property("model")
                    .and_then(|p| p.any_value())
                    .map(|v| v.syntax().text().to_string())
                    .and_then(|m| short(&m));
                out.push(symbol(
                    name.text(),
                    SymbolKind::Agent,
                    node,
                    name.syntax().text_range(),
                    model,
                    Vec::new(),
                ));
            }
            BLOCK_DEF => {
                let Some(b) = ast::BlockDef::cast(node.clone()) else {
                    return;
                };
                let children = b
                    .body()
                    .map_or_else(Vec::new, |body| self.symbols_in(body.syntax()));
                let Some(name) = named(b.name()) else {
                    out.extend(children);
                    return;
                };
                let params = b.param_list().map(|p| p.syntax().text().to_string());
                out.push(symbol(
                    name.text(),
                    SymbolKind::Block,
                    node,
                    name.syntax().text_range(),
                    params.and_then(|p| short(&p)),
                    children,
                ));
            }
            LET_STMT | CONST_STMT => {
                let Some(l) = ast::LetStmt::cast(node.clone()) else {
                    return;
                };
                let kind = if l.is_const() {
                    SymbolKind::Constant
                } else {
                    SymbolKind::Variable
                };
                let children = self.symbols_in(node);
                if let Some(name) = named(l.name()) {
                    out.push(symbol(
                        name.text(),
                        kind,
                        node,
                        name.syntax().text_range(),
                        None,
                        children,
                    ));
                    return;
                }
                for n in l.pattern().into_iter().flat_map(|p| p.names()) {
                    if !n.text().is_empty() {
                        out.push(symbol(
                            n.text(),
                            kind,
                            node,
                            n.syntax().text_range(),
                            None,
                            Vec::new(),
                        ));
                    }
                }
                out.extend(children);
            }
            ASSIGN_STMT => {
                let children = self.symbols_in(node);
                let target = ast::AssignStmt::cast(node.clone())
                    .and_then(|a| a.target())
                    .filter(|t| self.new_names.contains(&t.syntax().text_range()));
                match target {
                    Some(t) => out.push(symbol(
                        t.text(),
                        SymbolKind::Variable,
                        node,
                        t.syntax().text_range(),
                        None,
                        children,
                    )),
                    None => out.extend(children),
                }
            }
            SESSION_EXPR => {
                let Some(s) = ast::SessionExpr::cast(node.clone()) else {
                    return;
                };
                if let Some(name) = named(s.name()) {
                    out.push(symbol(
                        name.text(),
                        SymbolKind::Session,
                        node,
                        name.syntax().text_range(),
                        s.agent().map(|a| a.text()),
                        Vec::new(),
                    ));
                }
            }
            OPTION_CLAUSE => {
                let Some(o) = ast::OptionClause::cast(node.clone()) else {
                    return;
                };
                let children = self.symbols_in(node);
                let (name, at) = match (o.label(), o.keyword()) {
                    (Some(l), _) if !l.value().trim().is_empty() => {
                        (l.value(), l.syntax().text_range())
                    }
                    (_, Some(k)) => ("option".to_string(), k.text_range()),
                    (_, None) => {
                        out.extend(children);
                        return;
                    }
                };
                out.push(DocumentSymbol {
                    name: short(&name).unwrap_or_else(|| "option".into()),
                    detail: None,
                    kind: SymbolKind::ChoiceOption,
                    full_range: node.text_range().cover(at),
                    selection_range: at,
                    children,
                });
            }
            FOR_EXPR | PARALLEL_EXPR | REPEAT_EXPR | LOOP_EXPR | TRY_STMT | CATCH_CLAUSE
            | FINALLY_CLAUSE | IF_STMT | ELIF_CLAUSE | ELSE_CLAUSE | CHOICE_STMT => {
                let children = self.symbols_in(node);
                if children.is_empty() {
                    return;
                }
                let at = node
                    .children_with_tokens()
                    .filter_map(|e| e.into_token())
                    .find(|t| !t.kind().is_trivia() && t.kind() != NEWLINE)
                    .map_or(node.text_range(), |t| t.text_range());
                out.push(DocumentSymbol {
                    name: header(node),
                    detail: None,
                    kind: SymbolKind::Control,
                    full_range: node.text_range(),
                    selection_range: at,
                    children,
                });
            }
            // Property values, prompts and argument lists hold no bindings.
            PROPERTY_BLOCK | STRING | MODIFIER_LIST | PARAM_LIST | NAME | NAME_REF => {}
            _ => out.extend(self.symbols_in(node)),
        }
    }
}

/// A construct's header without its body: `for item in items`, `if **done**`.
fn header(node: &SyntaxNode) -> String {
    let mut text = String::new();
    for e in node.children_with_tokens() {
        if let Some(n) = e.as_node()
            && matches!(
                n.kind(),
                SyntaxKind::BLOCK
                    | SyntaxKind::PROPERTY_BLOCK
                    | SyntaxKind::ELIF_CLAUSE
                    | SyntaxKind::ELSE_CLAUSE
                    | SyntaxKind::CATCH_CLAUSE
                    | SyntaxKind::FINALLY_CLAUSE
            )
        {
            break;
        }
        match e {
            prose_syntax::NodeOrToken::Node(n) => text.push_str(&n.text().to_string()),
            prose_syntax::NodeOrToken::Token(t) => text.push_str(t.text()),
        }
    }
    let text = text.trim().trim_end_matches(':').trim_end();
    short(text).unwrap_or_else(|| {
        node.first_token()
            .map_or_else(String::new, |t| t.text().to_string())
    })
}

/// `text` on one line, whitespace collapsed, cut at [`MAX_DETAIL`]
/// characters; `None` when empty.
fn short(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let one_line = words.join(" ");
    if one_line.is_empty() {
        return None;
    }
    if one_line.chars().count() <= MAX_DETAIL {
        return Some(one_line);
    }
    let cut: String = one_line.chars().take(MAX_DETAIL - 1).collect();
    Some(format!("{}…", cut.trim_end()))
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::DocumentSymbol;
    use crate::fixture::Fixture;

    fn check(text: &str, expect: Expect) {
        let (host, file) = Fixture::parse(text).host(None);
        let analysis = host.analysis();
        let source = analysis.file_text(file).unwrap();
        let symbols = analysis.document_symbols(file).unwrap();
        let mut out = String::new();
        fn render(out: &mut String, text: &str, s: &DocumentSymbol, depth: usize) {
            assert!(s.full_range.contains_range(s.selection_range), "{s:?}");
            let sel =
                &text[usize::from(s.selection_range.start())..usize::from(s.selection_range.end())];
            out.push_str(&format!(
                "{}{:?} {}{} [{:?} {sel:?}]\n",
                "  ".repeat(depth),
                s.kind,
                s.name,
                s.detail
                    .as_ref()
                    .map_or(String::new(), |d| format!(" ({d})")),
                s.full_range,
            ));
            for c in &s.children {
                assert!(s.full_range.contains_range(c.full_range), "{c:?} in {s:?}");
                render(out, text, c, depth + 1);
            }
        }
        for s in &symbols {
            render(&mut out, &source, s, 0);
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn declarations() {
        check(
            r#"use "@alice/research"
use "@bob/critique" as critic
import "web-search" from "github:anthropic/skills"
input topic: "The subject to research"
input depth: **how deep to go, from a quick skim to an exhaustive survey of everything**

agent writer:
  model: opus
  prompt: "You write"
agent helper:
  prompt: "You help"

block review(draft, focus):
  let notes = session "Review {draft}"
  output verdict = session "Decide"

let draft = session: writer
const STYLE = "plain"
let { summary, sources } = research(topic: topic)
output final = do review(draft, "tone")
session review_one: helper
draft = session "Again"
"#,
            expect![[r#"
                Program research (@alice/research) [0..22 "\"@alice/research\""]
                Program critic (@bob/critique) [22..52 "critic"]
                Skill web-search (github:anthropic/skills) [52..103 "\"web-search\""]
                Input topic (The subject to research) [103..142 "topic"]
                Input depth (how deep to go, from a quick skim to an exhaustive survey o…) [142..231 "depth"]
                Agent writer (opus) [232..282 "writer"]
                Agent helper [282..317 "helper"]
                Block review ((draft, focus)) [318..421 "review"]
                  Variable notes [348..385 "notes"]
                  Output verdict [387..421 "verdict"]
                Variable draft [422..450 "draft"]
                Constant STYLE [450..472 "STYLE"]
                Variable summary [472..522 "summary"]
                Variable sources [472..522 "sources"]
                Output final [522..562 "final"]
                Session review_one (helper) [562..588 "review_one"]
            "#]],
        );
    }

    #[test]
    fn containers_only_with_named_things() {
        check(
            r#"for item in items:
  session "plain"
parallel:
  a = session "A"
  b = session "B"
if **urgent**:
  let plan = session "fast"
elif **later**:
  session "nothing named"
else:
  let plan = session "slow"
try:
  session "x"
catch as err:
  let recovery = session "recover"
loop until **done** (max: 3):
  session "step"
"#,
            expect![[r#"
                Control parallel [37..83 "parallel"]
                  Variable a [49..65 "a"]
                  Variable b [67..83 "b"]
                Control if **urgent** [83..202 "if"]
                  Variable plan [100..126 "plan"]
                  Control else [168..202 "else"]
                    Variable plan [176..202 "plan"]
                Control try [202..270 "try"]
                  Control catch as err [221..270 "catch"]
                    Variable recovery [237..270 "recovery"]
            "#]],
        );
    }

    #[test]
    fn choice_options_and_binding_values() {
        check(
            r#"let result = choice **the best approach**:
  option "Quick fix":
    let patch = session "patch"
  option "Rewrite":
    session "rewrite"
let r = parallel:
  x = session "X"
"#,
            expect![[r#"
                Variable result [0..139 "result"]
                  Control choice **the best approach** [13..139 "choice"]
                    ChoiceOption Quick fix [45..97 "\"Quick fix\""]
                      Variable patch [69..97 "patch"]
                    ChoiceOption Rewrite [99..139 "\"Rewrite\""]
                Variable r [139..175 "r"]
                  Control parallel [147..175 "parallel"]
                    Variable x [159..175 "x"]
            "#]],
        );
    }

    #[test]
    fn broken_and_empty_files() {
        check("", expect![[""]]);
        check(
            "agent :\n  model: opus\nlet = 1\nuse \"\"\ninput : \"x\"\n",
            expect![[""]],
        );
        check(
            "  let stray = session \"x\"\nblock (p):\n  let inner = 1\n",
            expect![[r#"
                Variable stray [2..26 "stray"]
                Variable inner [39..53 "inner"]
            "#]],
        );
    }
}
