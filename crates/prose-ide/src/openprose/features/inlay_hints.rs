//! Inlay hints: small labels the editor draws inside the text, for facts
//! that are true but written elsewhere.
//!
//! - `session: writer` / `resume: writer` -> `session: writer: opus`: the
//!   model the agent runs on, unless the session sets its own `model:`;
//! - `do review("x", 2)` -> `do review(topic: "x", depth: 2)`: the block
//!   parameter each positional argument fills (not when the argument is a
//!   variable of the same name);
//! - `xs | map:` -> `xs | map(item):`: the implicit variable of `map`,
//!   `filter` and `pmap`.
//!
//! Hints are few on purpose: each says something the line does not.

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode, TextRange, TextSize,
    ast::{self, Expr},
};

use crate::{
    db::{Db, SourceFile, parse},
    features::hover::node_at,
    semantics::{DefKind, FileSemantics, file_semantics},
};

/// How a hint is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InlayKind {
    /// Written right after `offset`, no padding (`: opus`, `(item)`).
    Type,
    /// Written before an argument at `offset`, followed by a space (`topic:`).
    Parameter,
}

/// One hint: a label drawn at a byte offset.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InlayHint {
    pub offset: TextSize,
    pub label: String,
    pub kind: InlayKind,
}

pub(crate) fn inlay_hints(
    db: &dyn Db,
    file: SourceFile,
    range: Option<TextRange>,
) -> Vec<InlayHint> {
    let root = parse(db, file).syntax_node();
    let sema = file_semantics(db, file);
    let range = range.unwrap_or_else(|| root.text_range());
    let mut out = Vec::new();
    let mut cancel = crate::CancelCheck::default();
    for node in root.descendants() {
        cancel.tick();
        if node.text_range().intersect(range).is_none() {
            continue;
        }
        match node.kind() {
            SyntaxKind::SESSION_EXPR => {
                if let Some(s) = ast::SessionExpr::cast(node.clone())
                    && s.property("model").is_none()
                    && let Some(agent) = s.agent()
                {
                    model_hint(sema, &root, &agent, &mut out);
                }
            }
            SyntaxKind::RESUME_EXPR => {
                if let Some(r) = ast::ResumeExpr::cast(node.clone())
                    && r.property("model").is_none()
                    && let Some(agent) = r.agent()
                {
                    model_hint(sema, &root, &agent, &mut out);
                }
            }
            SyntaxKind::DO_CALL => {
                if let Some(call) = ast::DoCall::cast(node.clone()) {
                    parameter_hints(sema, &root, &call, &mut out);
                }
            }
            SyntaxKind::PIPE_OP => {
                if let Some(op) = ast::PipeOp::cast(node.clone())
                    && op.params().is_none()
                    && let Some(t) = op.op_token()
                    && matches!(
                        t.kind(),
                        SyntaxKind::MAP_KW | SyntaxKind::FILTER_KW | SyntaxKind::PMAP_KW
                    )
                {
                    out.push(InlayHint {
                        offset: t.text_range().end(),
                        label: "(item)".into(),
                        kind: InlayKind::Type,
                    });
                }
            }
            _ => {}
        }
    }
    out.retain(|h| range.contains_inclusive(h.offset));
    out.sort_by_key(|h| h.offset);
    out
}

/// `: opus` after an agent name whose definition sets a model.
fn model_hint(
    sema: &FileSemantics,
    root: &SyntaxNode,
    agent: &ast::NameRef,
    out: &mut Vec<InlayHint>,
) {
    let at = agent.syntax().text_range();
    let Some(def) = sema
        .refs
        .iter()
        .find(|r| r.range == at)
        .and_then(|r| r.target)
        .map(|t| sema.def(t))
    else {
        return;
    };
    if def.kind != DefKind::Agent {
        return;
    }
    let model = node_at::<ast::AgentDef>(root, def.range)
        .and_then(|a| a.property("model"))
        .and_then(|p| p.any_value())
        .and_then(|v| match v {
            Expr::NameRef(n) => Some(n.text()),
            Expr::String(s) => Some(s.value()),
            _ => None,
        });
    if let Some(model) = model.filter(|m| !m.trim().is_empty()) {
        out.push(InlayHint {
            offset: at.end(),
            label: format!(": {}", model.trim()),
            kind: InlayKind::Type,
        });
    }
}

/// `topic:` before each positional argument of `do block(...)`.
fn parameter_hints(
    sema: &FileSemantics,
    root: &SyntaxNode,
    call: &ast::DoCall,
    out: &mut Vec<InlayHint>,
) {
    let Some(name) = call.name_ref() else { return };
    let Some(def) = sema
        .refs
        .iter()
        .find(|r| r.range == name.syntax().text_range())
        .and_then(|r| r.target)
        .map(|t| sema.def(t))
    else {
        return;
    };
    if def.kind != DefKind::Block {
        return;
    }
    let Some(block) = node_at::<ast::BlockDef>(root, def.range) else {
        return;
    };
    let params = block.params().filter_map(|p| p.name()).map(|n| n.text());
    for (arg, param) in call.args().zip(params) {
        if arg.name().is_some() {
            continue;
        }
        let Some(value) = arg.value() else { continue };
        if let Expr::NameRef(n) = &value
            && n.text() == param
        {
            continue;
        }
        out.push(InlayHint {
            offset: value.syntax().text_range().start(),
            label: format!("{param}:"),
            kind: InlayKind::Parameter,
        });
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::fixture::Fixture;

    /// The text with every hint drawn in `[...]` (parameter hints with the
    /// space an editor adds).
    fn check(fixture: &str, expect: Expect) {
        let f = Fixture::parse(fixture);
        let (host, file) = f.host(None);
        let analysis = host.analysis();
        let mut text = analysis.file_text(file).unwrap();
        let hints = analysis.inlay_hints(file, None).unwrap();
        for h in hints.iter().rev() {
            let label = match h.kind {
                super::InlayKind::Type => format!("[{}]", h.label),
                super::InlayKind::Parameter => format!("[{}] ", h.label),
            };
            text.insert_str(usize::from(h.offset), &label);
        }
        expect.assert_eq(&text);
    }

    #[test]
    fn model_of_the_agent() {
        check(
            r#"agent writer:
  model: opus
agent plain:
  prompt: "x"
session: writer
  prompt: "a"
let s = session named: writer
resume: writer
session: writer
  model: haiku
session: plain
session: nobody
"#,
            expect![[r#"
                agent writer:
                  model: opus
                agent plain:
                  prompt: "x"
                session: writer[: opus]
                  prompt: "a"
                let s = session named: writer[: opus]
                resume: writer[: opus]
                session: writer
                  model: haiku
                session: plain
                session: nobody
            "#]],
        );
    }

    #[test]
    fn block_parameters() {
        check(
            r#"block review(topic, depth):
  session "{topic} {depth}"
let topic = "x"
do review(topic, 2)
do review("a", "b", "extra")
do review(
do missing(1)
"#,
            expect![[r#"
                block review(topic, depth):
                  session "{topic} {depth}"
                let topic = "x"
                do review(topic, [depth:] 2)
                do review([topic:] "a", [depth:] "b", "extra")
                do review(
                do missing(1)
            "#]],
        );
    }

    #[test]
    fn pipeline_item() {
        check(
            r#"let r = xs | filter:
    session "{item}"
  | map: session "{item}"
  | reduce(acc, x):
    session "{acc}{x}"
let p = xs | pmap:
  session "{item}"
"#,
            expect![[r#"
                let r = xs | filter[(item)]:
                    session "{item}"
                  | map[(item)]: session "{item}"
                  | reduce(acc, x):
                    session "{acc}{x}"
                let p = xs | pmap[(item)]:
                  session "{item}"
            "#]],
        );
    }

    #[test]
    fn only_within_the_range() {
        let f = Fixture::parse(
            "let a = xs | map:\n  session \"a\"\n$0let b = ys | map:\n  session \"b\"\n$0",
        );
        let (host, range) = f.selection();
        let hints = host
            .analysis()
            .inlay_hints(range.file, Some(range.range))
            .unwrap();
        expect![[r#"
            [
                InlayHint {
                    offset: 48,
                    label: "(item)",
                    kind: Type,
                },
            ]
        "#]]
        .assert_debug_eq(&hints);
    }

    #[test]
    fn broken_input() {
        check(
            "session: \nresume:\ndo (\nlet x = | map\nxs | map",
            expect![[r#"
                session: 
                resume:
                do (
                let x = | map
                xs | map[(item)]"#]],
        );
    }
}
