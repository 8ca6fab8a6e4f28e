//! # E022 `input-after-executable`
//!
//! **Inputs must be declared before executable statements.** An `input`
//! comes after the first executable statement of the program, or sits
//! inside an indented body.
//!
//! Every statement is executable except comments, `use`, `import`,
//! `input`, `agent` and `block` definitions; `let` and `const` count as
//! executable even when their value is a literal.
//!
//! ## Why is this bad?
//! A caller supplies a program's inputs up front. An input declared later
//! is not part of that contract: when the run reaches it without a value,
//! execution stops and asks for one, which an unattended run cannot answer.
//!
//! ## Example
//! ```prose
//! input topic: "The subject to research"
//! let notes = session "Research {topic}"
//! input depth: "How deep to go"
//! ```
//!
//! ## Fix
//! ```prose
//! input topic: "The subject to research"
//! input depth: "How deep to go"
//! let notes = session "Research {topic}"
//! ```
//!
//! The diagnostic runs from the `input` keyword through the name and links
//! to the first line of the first executable statement.
//!
//! ## Specification
//! compiler.md, Input Declarations › Validation Rules: "Input after
//! executable" (Error, "Inputs must be declared before executable
//! statements"); Validation Rules: E022. Semantics: inputs "Are declared at
//! the top of the program (before executable statements)".
//!
//! ## Profiles
//! `default` reports a **hint**. prose.md ("Input Declarations", "Input
//! Binding Semantics") says inputs "can appear **anywhere** in the program"
//! and documents mid-program inputs as runtime prompts, including the
//! discretion form `input x: **…**`. compiler.md describes the contract
//! (inputs the caller supplies up front), prose.md what the VM does; 19
//! inputs in 10 official programs use the runtime prompt on purpose
//! (`examples/39-architect-by-simulation.prose:187`,
//! `examples/45-plugin-release.prose:90`). It stays a hint because it makes
//! an unattended run stop (spec-rows.md §3.3).

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E022",
    name: "input-after-executable",
    summary: "Inputs must be declared before executable statements",
    strict: Severity::Error,
    default: Level::On(Severity::Hint),
    source: include_str!("input_after_executable.rs"),
    check: Check::OpenProse(check),
};

/// The first line of `node`, without trailing whitespace or comment.
fn first_line(ctx: &Ctx<'_>, node: &SyntaxNode) -> TextRange {
    let range = node.text_range();
    let text = ctx.text_of(range);
    let mut end = prose_syntax::lines::line_end(text, 0);
    if let Some(hash) = node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == SyntaxKind::COMMENT)
    {
        let at = usize::from(hash.text_range().start() - range.start());
        end = end.min(at);
    }
    let len = text[..end].trim_end().len();
    TextRange::at(range.start(), (len as u32).into())
}

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let first_exec = ctx
        .source_file()
        .statements()
        .find(|s| s.is_executable())
        .map(|s| s.syntax().clone());
    // Where the first executable statement is shown (the same for every
    // input after it).
    let mut shown: Option<(TextRange, usize)> = None;
    for input in nodes::<ast::InputDecl>(ctx) {
        let Some(kw) = input.keyword() else { continue };
        let end = input
            .name()
            .map_or(kw.text_range().end(), |n| n.syntax().text_range().end());
        let range = TextRange::new(kw.text_range().start(), end);
        let name = input
            .name()
            .map(|n| format!(" `{}`", n.text()))
            .unwrap_or_default();
        let nested = input
            .syntax()
            .parent()
            .is_some_and(|p| p.kind() != SyntaxKind::SOURCE_FILE);
        let before = first_exec
            .as_ref()
            .filter(|f| f.text_range().start() < range.start());
        let mut related_locs = Vec::new();
        let place = if let Some(f) = before {
            let (line, number) = *shown
                .get_or_insert_with(|| (first_line(ctx, f), line_of(ctx, f.text_range().start())));
            related_locs.push(related(ctx, line, "first executable statement"));
            format!("after the executable statement at line {number}")
        } else if nested {
            "inside an indented body".to_string()
        } else {
            continue;
        };
        acc.report_related(
            range,
            format!(
                "Inputs must be declared before executable statements: input{name} is declared {place}; the run pauses here to ask for it unless the caller supplied it"
            ),
            related_locs,
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const LATE: &str = r#"use "@alice/research"
input topic: "t"
agent writer:
  model: opus
let notes = session "Research {topic}"  # first
input depth: "d"
if **more detail is needed**:
  input detail: **what else to cover**
block ask():
  input extra: "e"
"#;

    #[test]
    fn default_hints() {
        check_code(
            "E022",
            LATE,
            expect![[r#"
            E022 6:1-6:12 hint: Inputs must be declared before executable statements: input `depth` is declared after the executable statement at line 5; the run pauses here to ask for it unless the caller supplied it
              related 5:1-5:39: first executable statement
            E022 8:3-8:15 hint: Inputs must be declared before executable statements: input `detail` is declared after the executable statement at line 5; the run pauses here to ask for it unless the caller supplied it
              related 5:1-5:39: first executable statement
            E022 10:3-10:14 hint: Inputs must be declared before executable statements: input `extra` is declared after the executable statement at line 5; the run pauses here to ask for it unless the caller supplied it
              related 5:1-5:39: first executable statement
        "#]],
        );
    }

    #[test]
    fn strict_errors() {
        check_code_strict(
            "E022",
            LATE,
            expect![[r#"
            E022 6:1-6:12 error: Inputs must be declared before executable statements: input `depth` is declared after the executable statement at line 5; the run pauses here to ask for it unless the caller supplied it
              related 5:1-5:39: first executable statement
            E022 8:3-8:15 error: Inputs must be declared before executable statements: input `detail` is declared after the executable statement at line 5; the run pauses here to ask for it unless the caller supplied it
              related 5:1-5:39: first executable statement
            E022 10:3-10:14 error: Inputs must be declared before executable statements: input `extra` is declared after the executable statement at line 5; the run pauses here to ask for it unless the caller supplied it
              related 5:1-5:39: first executable statement
        "#]],
        );
    }

    #[test]
    fn inputs_first() {
        check_no(
            "E022",
            "# header\nuse \"@a/b\"\nimport \"s\" from \"./s\"\nagent a:\n  model: opus\ninput topic: \"t\"\nblock b():\n  session \"x\"\ninput depth: \"d\"\nsession \"go\"\n",
        );
    }
}
