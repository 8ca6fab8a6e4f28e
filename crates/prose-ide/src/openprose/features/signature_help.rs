//! Signature help: while typing the arguments of `do name(...)` or of a
//! program call `name(...)`, what the callee expects and which argument the
//! cursor is on.
//!
//! - `do block(a, b)`: the block's parameters, filled by position; the
//!   active one is the argument the cursor is in (counted by commas);
//! - `program(input: value, ...)`: the inputs of the imported program (from
//!   its contract, each with its description). The active one is the input
//!   named by the argument under the cursor, else the first input not given
//!   yet (matching what is typed so far, if anything).
//!
//! An unclosed argument list still counts up to the end of its line, so help
//! appears while the call is being typed. Calls of a program that is not
//! available locally get no help: its inputs are unknown.

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast::{self, Expr},
};

use crate::{
    contract::program_contract,
    db::{Db, SourceFile, Workspace, parse},
    features::hover::{called_program, excerpt, leading_comments, node_at},
    semantics::{DefKind, FileSemantics, file_semantics},
};

/// What a call expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHelp {
    /// The signature as shown: `block review(topic, depth)`, `research(topic, depth)`.
    pub label: String,
    pub parameters: Vec<Parameter>,
    /// Index into `parameters`; `None` when the cursor is past the last one.
    pub active_parameter: Option<usize>,
    /// Markdown about the callee.
    pub docs: Option<String>,
}

/// One parameter of a signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameter {
    /// Byte range of the parameter's name within [`SignatureHelp::label`].
    pub range: TextRange,
    /// What to pass (an input's description).
    pub docs: Option<String>,
}

pub(crate) fn signature_help(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Option<SignatureHelp> {
    let root = parse(db, file).syntax_node();
    let list = enclosing_arg_list(file.text(db), &root, offset)?;
    let sema = file_semantics(db, file);
    let owner = list.parent()?;
    if let Some(call) = ast::DoCall::cast(owner.clone()) {
        block_signature(file.text(db), sema, &root, &call, &list, offset)
    } else if let Some(call) = ast::CallExpr::cast(owner) {
        program_signature(db, ws, file, sema, &root, &call, &list, offset)
    } else {
        None
    }
}

/// The innermost argument list whose parentheses hold `offset`.
fn enclosing_arg_list(text: &str, root: &SyntaxNode, offset: TextSize) -> Option<SyntaxNode> {
    if offset > root.text_range().end() {
        return None;
    }
    let mut tokens: Vec<SyntaxToken> = root.token_at_offset(offset).collect();
    // After `f(a, ` with trailing spaces, the spaces may lie outside the list.
    if let Some(prev) = tokens.first().and_then(|t| previous_on_line(t, offset)) {
        tokens.push(prev);
    }
    tokens.iter().find_map(|t| {
        t.parent_ancestors()
            .filter(|n| n.kind() == SyntaxKind::ARG_LIST)
            .find(|list| holds(text, list, offset))
    })
}

/// The last non-whitespace token before `offset` on the same line.
fn previous_on_line(token: &SyntaxToken, offset: TextSize) -> Option<SyntaxToken> {
    let mut t = if token.text_range().end() <= offset {
        token.clone()
    } else {
        token.prev_token()?
    };
    while t.kind() == SyntaxKind::WHITESPACE && !prose_syntax::lines::has_line_break(t.text()) {
        t = t.prev_token()?;
    }
    (t.kind() != SyntaxKind::NEWLINE && !prose_syntax::lines::has_line_break(t.text())).then_some(t)
}

/// Whether `offset` lies between the list's `(` and its `)` (or, when the
/// `)` is missing, before the end of the line).
fn holds(text: &str, list: &SyntaxNode, offset: TextSize) -> bool {
    let child = |kind| {
        list.children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| t.kind() == kind)
    };
    let Some(open) = child(SyntaxKind::L_PAREN) else {
        return false;
    };
    if offset < open.text_range().end() {
        return false;
    }
    match child(SyntaxKind::R_PAREN) {
        Some(close) => offset <= close.text_range().start(),
        None => {
            let end = usize::from(list.text_range().end());
            let off = usize::from(offset);
            off <= end
                || text
                    .get(end..off)
                    .is_some_and(|gap| !prose_syntax::lines::has_line_break(gap))
        }
    }
}

/// `do name(...)`: the block's parameters by position.
fn block_signature(
    text: &str,
    sema: &FileSemantics,
    root: &SyntaxNode,
    call: &ast::DoCall,
    list: &SyntaxNode,
    offset: TextSize,
) -> Option<SignatureHelp> {
    let name = call.name_ref()?;
    let r = sema
        .refs
        .iter()
        .find(|r| r.range == name.syntax().text_range())?;
    let def = sema.def(r.target?);
    if def.kind != DefKind::Block {
        return None;
    }
    let block = node_at::<ast::BlockDef>(root, def.range)?;
    let params: Vec<String> = block
        .params()
        .filter_map(|p| p.name())
        .map(|n| n.text())
        .collect();
    let mut label = format!("block {}(", def.name);
    let mut parameters = Vec::new();
    for (i, p) in params.iter().enumerate() {
        if i > 0 {
            label.push_str(", ");
        }
        let start = TextSize::of(label.as_str());
        label.push_str(p);
        parameters.push(Parameter {
            range: TextRange::at(start, TextSize::of(p.as_str())),
            docs: None,
        });
    }
    label.push(')');
    let index = commas_before(list, offset);
    Some(SignatureHelp {
        label,
        active_parameter: (index < parameters.len()).then_some(index),
        parameters,
        docs: leading_comments(text, def.range.start()),
    })
}

/// How many of the list's own commas come before `offset`.
fn commas_before(list: &SyntaxNode, offset: TextSize) -> usize {
    list.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == SyntaxKind::COMMA && t.text_range().end() <= offset)
        .count()
}

/// `program(input: value, ...)`: the program's inputs.
#[allow(clippy::too_many_arguments)]
fn program_signature(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    sema: &FileSemantics,
    root: &SyntaxNode,
    call: &ast::CallExpr,
    list: &SyntaxNode,
    offset: TextSize,
) -> Option<SignatureHelp> {
    let (name, program) = called_program(db, ws, file, sema, root, call)?;
    let contract = program_contract(db, program?);
    let mut inputs: Vec<(&str, &str)> = Vec::new();
    for (n, d) in &contract.inputs {
        if !inputs.iter().any(|(seen, _)| seen == n) {
            inputs.push((n, d));
        }
    }
    let mut label = format!("{name}(");
    let mut parameters = Vec::new();
    for (i, (input, desc)) in inputs.iter().enumerate() {
        if i > 0 {
            label.push_str(", ");
        }
        let start = TextSize::of(label.as_str());
        label.push_str(input);
        let desc = excerpt(desc, 200);
        parameters.push(Parameter {
            range: TextRange::at(start, TextSize::of(*input)),
            docs: (!desc.is_empty()).then_some(desc),
        });
    }
    label.push(')');

    let args: Vec<ast::Arg> = ast::ArgList::cast(list.clone())?.args().collect();
    let given: Vec<String> = args
        .iter()
        .filter_map(|a| a.name())
        .map(|n| n.text())
        .collect();
    let current = args
        .iter()
        .find(|a| a.syntax().text_range().contains_inclusive(offset));
    let missing = |prefix: &str| {
        inputs
            .iter()
            .position(|(n, _)| n.starts_with(prefix) && !given.iter().any(|g| g == n))
    };
    let active = match current {
        Some(arg) => match (arg.name(), arg.value()) {
            (Some(n), _) => inputs.iter().position(|(i, _)| *i == n.text()),
            // `prog(to|`: an input name being typed.
            (None, Some(Expr::NameRef(typed))) => missing(&typed.text()).or_else(|| missing("")),
            (None, _) => missing(""),
        },
        None => missing(""),
    };

    let outputs: Vec<String> = contract.outputs.iter().map(|o| format!("`{o}`")).collect();
    let docs = if outputs.is_empty() {
        format!("Calls the imported program `{name}`; it declares no outputs.")
    } else {
        format!(
            "Calls the imported program `{name}`; the result has {}.",
            outputs.join(", ")
        )
    };
    Some(SignatureHelp {
        label,
        parameters,
        active_parameter: active,
        docs: Some(docs),
    })
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::fixture::Fixture;

    /// Renders the label with the active parameter in `<...>`, then the
    /// parameter docs and the signature docs.
    fn check(fixture: &str, expect: Expect) {
        let f = Fixture::parse(fixture);
        let (host, pos) = f.position();
        let actual = match host.analysis().signature_help(pos).unwrap() {
            None => "no signature\n".to_string(),
            Some(help) => {
                let mut label = help.label.clone();
                if let Some(p) = help.active_parameter.map(|i| &help.parameters[i]) {
                    let (s, e) = (usize::from(p.range.start()), usize::from(p.range.end()));
                    label = format!("{}<{}>{}", &label[..s], &label[s..e], &label[e..]);
                }
                let mut out = format!("{label}\n");
                for p in &help.parameters {
                    let name =
                        &help.label[usize::from(p.range.start())..usize::from(p.range.end())];
                    if let Some(d) = &p.docs {
                        out.push_str(&format!("  {name}: {d}\n"));
                    }
                }
                if let Some(d) = &help.docs {
                    out.push_str(&format!("docs: {d}\n"));
                }
                out
            }
        };
        expect.assert_eq(&actual);
    }

    const BLOCK: &str =
        "# Reviews one topic.\nblock review(topic, depth):\n  session \"{topic} {depth}\"\n";

    #[test]
    fn block_parameters_by_position() {
        check(
            &format!("{BLOCK}do review($0\n"),
            expect![[r#"
                block review(<topic>, depth)
                docs: Reviews one topic.
            "#]],
        );
        check(
            &format!("{BLOCK}do review(\"x\", $0)\n"),
            expect![[r#"
                block review(topic, <depth>)
                docs: Reviews one topic.
            "#]],
        );
        check(
            &format!("{BLOCK}do review(\"x\", 2, $0)\n"),
            expect![[r#"
                block review(topic, depth)
                docs: Reviews one topic.
            "#]],
        );
        check(
            "block go:\n  session \"x\"\ndo go($0)\n",
            expect![[r#"
                block go()
            "#]],
        );
    }

    #[test]
    fn unclosed_list_counts_to_the_end_of_the_line() {
        check(
            &format!("{BLOCK}do review(\"x\",  $0\n"),
            expect![[r#"
                block review(topic, <depth>)
                docs: Reviews one topic.
            "#]],
        );
        check(
            &format!("{BLOCK}do review(\"x\"\n$0session \"y\"\n"),
            expect![[r#"
                no signature
            "#]],
        );
    }

    #[test]
    fn outside_the_parentheses() {
        check(
            &format!("{BLOCK}do review$0(\"x\")\n"),
            expect![[r#"
            no signature
        "#]],
        );
        check(
            &format!("{BLOCK}do review(\"x\")$0\n"),
            expect![[r#"
            no signature
        "#]],
        );
        check(
            "do nowhere($0)\n",
            expect![[r#"
            no signature
        "#]],
        );
    }

    const PROGRAM: &str = r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
input depth: "shallow, medium or deep"
input style: "How to write it up"
output findings = session "Research {topic}"
#- /ws/main.prose
use "@alice/research"
"#;

    #[test]
    fn program_inputs() {
        check(
            &format!("{PROGRAM}let r = research($0)\n"),
            expect![[r#"
                research(<topic>, depth, style)
                  topic: What to research
                  depth: shallow, medium or deep
                  style: How to write it up
                docs: Calls the imported program `research`; the result has `findings`.
            "#]],
        );
        check(
            &format!("{PROGRAM}let r = research(topic: \"x\", $0)\n"),
            expect![[r#"
                research(topic, <depth>, style)
                  topic: What to research
                  depth: shallow, medium or deep
                  style: How to write it up
                docs: Calls the imported program `research`; the result has `findings`.
            "#]],
        );
        check(
            &format!("{PROGRAM}let r = research(depth: \"deep\", topic: \"x$0\")\n"),
            expect![[r#"
                research(<topic>, depth, style)
                  topic: What to research
                  depth: shallow, medium or deep
                  style: How to write it up
                docs: Calls the imported program `research`; the result has `findings`.
            "#]],
        );
        check(
            &format!("{PROGRAM}let r = research(topic: \"x\", st$0\n"),
            expect![[r#"
                research(topic, depth, <style>)
                  topic: What to research
                  depth: shallow, medium or deep
                  style: How to write it up
                docs: Calls the imported program `research`; the result has `findings`.
            "#]],
        );
        check(
            &format!("{PROGRAM}let r = research(topic: 1, depth: 2, style: 3, $0)\n"),
            expect![[r#"
                research(topic, depth, style)
                  topic: What to research
                  depth: shallow, medium or deep
                  style: How to write it up
                docs: Calls the imported program `research`; the result has `findings`.
            "#]],
        );
    }

    #[test]
    fn nested_call_wins() {
        check(
            &format!("{PROGRAM}{BLOCK}do review(research(depth: $0), 2)\n"),
            expect![[r#"
                research(topic, <depth>, style)
                  topic: What to research
                  depth: shallow, medium or deep
                  style: How to write it up
                docs: Calls the imported program `research`; the result has `findings`.
            "#]],
        );
    }

    #[test]
    fn unavailable_program_has_no_signature() {
        check(
            "use \"@bob/x\"\nlet r = x(a: $0)\n",
            expect![[r#"
            no signature
        "#]],
        );
    }

    #[test]
    fn never_panics_on_broken_input() {
        for text in [
            "do b(\nlet r = prog(topic: x, \nblock b(p:\n",
            "block b(a, b):\n  x\ndo b(,,\ndo b(1, (2, [3\n",
            "use \"./p.prose\" as p\nlet x = p(a: , b c)\nx = p(",
            "",
        ] {
            let mut host = crate::AnalysisHost::new();
            let file = host.set_file_text("/ws/main.prose", text);
            let analysis = host.analysis();
            for offset in 0..=text.len() + 2 {
                let pos = crate::FilePosition {
                    file,
                    offset: (offset as u32).into(),
                };
                let _ = analysis.signature_help(pos).unwrap();
            }
        }
    }
}
