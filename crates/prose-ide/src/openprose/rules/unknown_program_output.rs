//! # E028 `unknown-program-output`
//!
//! **Output not declared in program.** A variable holds the result of an
//! imported program's call, and the program reads a property of it that is
//! not one of that program's named `output`s. The same applies to a name
//! destructured from a call: `let { FIELD } = program(…)`.
//!
//! ## Example
//! ```prose
//! #- /ws/.prose/imports/alice--research/program.prose
//! input topic: "What to research"
//! output findings = session "Research {topic}"
//! output sources = session "List the sources"
//! #- /ws/main.prose
//! use "@alice/research"
//!
//! let result = research(topic: "quantum computing")
//! session "Write a summary"
//!   context: result.summary
//! ```
//!
//! ## Fix
//! ```prose
//! #- /ws/.prose/imports/alice--research/program.prose
//! input topic: "What to research"
//! output findings = session "Research {topic}"
//! output sources = session "List the sources"
//! #- /ws/main.prose
//! use "@alice/research"
//!
//! let result = research(topic: "quantum computing")
//! session "Write a summary"
//!   context: result.findings
//! ```
//!
//! Property reads are checked wherever the variable is used: expressions,
//! `context:`, and interpolations such as `{result.findings}`. The
//! diagnostic is on the property (or the destructured name), suggests the
//! closest output, and links to the `use` statement. The check needs the
//! imported program's contract, so it runs only when the program is
//! available locally (see P204).
//!
//! ## Specification
//! compiler.md, Program Invocation › Validation Rules: "Unknown output
//! property" (Error, "Output not declared in program"); Validation Rules:
//! E028. Accessing Outputs: "The result contains all outputs from the
//! invoked program, accessible as properties".
//!
//! ## Profiles
//! When the imported program declares no named output at all, `strict`
//! still reports every property read (the result has no properties), while
//! `default` does not: prose.md returns "outputs to caller (or final result
//! if no outputs declared)", so the result is then the program's final value,
//! whose shape the contract does not describe.

use super::program_shared::{
    Callee, DeclStmts, call_value, callee, imports, program_call, undeclared_detail,
};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E028",
    name: "unknown-program-output",
    summary: "Output not declared in program",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("unknown_program_output.rs"),
    check: Check::OpenProse(check),
};

/// The property read on the variable reference at `range`, if any.
fn property_read(ctx: &Ctx<'_>, range: TextRange) -> Option<(String, TextRange)> {
    let name_ref = node_at(ctx, range)?
        .ancestors()
        .find(|n| n.kind() == SyntaxKind::NAME_REF)?;
    let parent = name_ref.parent()?;
    if let Some(f) = ast::FieldExpr::cast(parent.clone()) {
        if f.receiver()?.syntax() != &name_ref {
            return None;
        }
        let field = f.field()?;
        return Some((field.text(), field.syntax().text_range()));
    }
    let interp = ast::Interpolation::cast(parent)?;
    let field = interp.fields().into_iter().next()?;
    Some((field.text().to_string(), field.text_range()))
}

/// Reports `field` at `at` when `program` (whose contract is `c`'s) does
/// not declare an output of that name: an error, or nothing but under
/// `strict` when the program declares no outputs at all.
fn report(ctx: &Ctx<'_>, acc: &mut Acc, c: &Callee<'_>, program: &str, field: &str, at: TextRange) {
    if c.contract.has_output(field) {
        return;
    }
    let outputs: Vec<&str> = c.contract.outputs.iter().map(String::as_str).collect();
    let level = if outputs.is_empty() {
        Level::Off
    } else {
        Level::On(Severity::Error)
    };
    let detail = undeclared_detail(program, field, &outputs, "outputs");
    acc.report_calibrated(
        at,
        format!("Output not declared in program: `{field}`{detail}"),
        c.imported_here(ctx, program),
        level,
    );
}

/// A declaration whose value calls a program available locally: a name
/// bound to its result (each field read on it is checked) or destructured
/// from it (the name is checked).
struct CallResult<'a> {
    def: &'a Def,
    id: DefId,
    program: String,
    callee: Callee<'a>,
}

/// The declarations of the file whose value calls a program available
/// locally ([`CallResult`]), in definition order.
fn call_results<'a>(ctx: &Ctx<'a>) -> Vec<CallResult<'a>> {
    let all = imports(ctx);
    let stmts = DeclStmts::new(ctx);
    let mut out = Vec::new();
    for (id, def) in ctx.sema().defs.iter().enumerate() {
        if !matches!(
            def.kind,
            DefKind::Let
                | DefKind::Const
                | DefKind::Output
                | DefKind::Assigned
                | DefKind::Destructured
        ) {
            continue;
        }
        let Some(stmt) = stmts.get(DefId(id as u32), def) else {
            continue;
        };
        if !stmt.value_is_call {
            continue;
        }
        let Some(call) = call_value(&stmts.node(&stmt)) else {
            continue;
        };
        let Some(name) = program_call(&call) else {
            continue;
        };
        let program = name.text();
        let Some(callee) = callee(ctx, &all, &program) else {
            continue;
        };
        out.push(CallResult {
            def,
            id: DefId(id as u32),
            program,
            callee,
        });
    }
    out
}

/// Reports each name destructured from a program's result that the
/// program does not declare as an output, and each field read on a
/// variable bound to a program's result that it does not declare: per
/// declaration in definition order, its reads in the order of the file's
/// references.
fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    // No `use` resolves: no call has a contract to check against (and the
    // file's `use` statements need not be gathered).
    if !ctx.any_use_resolves() {
        return;
    }
    let calls = call_results(ctx);
    let sema = ctx.sema();
    // The variable references to each bound (not destructured) result, in
    // the order of the file's references: one pass over them, through the
    // position of each declaration's result among `calls` by definition
    // (none when every call's result is destructured).
    let mut refs: Vec<Vec<TextRange>> = vec![Vec::new(); calls.len()];
    if calls.iter().any(|c| c.def.kind != DefKind::Destructured) {
        let mut slot = vec![u32::MAX; sema.defs.len()];
        for (i, c) in calls.iter().enumerate() {
            if c.def.kind != DefKind::Destructured {
                slot[c.id.0 as usize] = i as u32;
            }
        }
        for r in &sema.refs {
            if let Some(target) = r.target
                && let Some(&i) = slot.get(target.0 as usize)
                && i != u32::MAX
                && matches!(r.kind, RefKind::Variable(_))
            {
                refs[i as usize].push(r.range);
            }
        }
    }
    let mut destructured: Vec<TextRange> = Vec::new();
    for (c, reads) in calls.iter().zip(&refs) {
        if c.def.kind == DefKind::Destructured {
            if !destructured.contains(&c.def.name_range) {
                destructured.push(c.def.name_range);
                report(
                    ctx,
                    acc,
                    &c.callee,
                    &c.program,
                    &c.def.name,
                    c.def.name_range,
                );
            }
            continue;
        }
        for &range in reads {
            if let Some((field, at)) = property_read(ctx, range) {
                report(ctx, acc, &c.callee, &c.program, &field, at);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const RESEARCH: &str = r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
let raw = session "Research {topic}"
output findings = session "Summarise"
  context: raw
output sources = session "List sources"
  context: raw
#- /ws/.prose/imports/bob--ping/program.prose
session "pong"
"#;

    #[test]
    fn fields_destructuring_and_interpolation() {
        check_code(
            "E028",
            &format!(
                r#"{RESEARCH}#- /ws/main.prose
use "@alice/research"
let result = research(topic: "x")
let {{ findings, summary }} = research(topic: "y")
session "Use {{result.finding}} and {{result.sources}}"
  context: [result.findings, result.notes]
output out = research(topic: "z")
session "Again"
  context: out.citations
"#
            ),
            expect![[r#"
                E028 3:17-3:24 error: Output not declared in program: `summary`; `research` declares `findings`, `sources`
                  related 1:5-1:22: `research` is imported here
                E028 4:22-4:29 error: Output not declared in program: `finding` (did you mean `findings`?)
                  related 1:5-1:22: `research` is imported here
                E028 5:37-5:42 error: Output not declared in program: `notes`; `research` declares `findings`, `sources`
                  related 1:5-1:22: `research` is imported here
                E028 8:16-8:25 error: Output not declared in program: `citations`; `research` declares `findings`, `sources`
                  related 1:5-1:22: `research` is imported here
            "#]],
        );
    }

    #[test]
    fn program_without_outputs_differs_by_profile() {
        let fixture = format!(
            "{RESEARCH}#- /ws/main.prose\nuse \"@bob/ping\"\nlet p = ping()\nsession \"{{p.answer}}\"\n"
        );
        check_code("E028", &fixture, expect![[""]]);
        check_code_strict(
            "E028",
            &fixture,
            expect![[r#"
            E028 3:13-3:19 error: Output not declared in program: `answer`; `ping` declares no outputs
              related 1:5-1:16: `ping` is imported here
        "#]],
        );
    }

    #[test]
    fn declared_outputs_plain_use_and_unavailable_programs() {
        check_no(
            "E028",
            &format!(
                r#"{RESEARCH}#- /ws/main.prose
use "@alice/research"
use "@carol/other"
let result = research(topic: "x")
let {{ findings, sources }} = research(topic: "y")
session "Use {{result.findings}} and {{result}}"
  context: [result.sources, result]
let o = other(x: 1)
session "{{o.anything}}"
let s = session "plain"
session "{{s.whatever}}"
"#
            ),
        );
    }

    /// The check runs only while a `use` resolves: the program appearing,
    /// typing in a prompt (whose findings are moved only while the
    /// lookups they made hold), and the program going away each give what
    /// a fresh analysis gives.
    #[test]
    fn follows_the_program_appearing_and_going_away() {
        use crate::AnalysisHost;
        let main = "use \"@alice/research\"\nlet result = research(topic: \"x\")\nsession \"Use {result.notes}\"\n";
        let program = "/ws/.prose/imports/alice--research/program.prose";
        let contract = "input topic: \"t\"\noutput findings = session \"f\"\n";
        let e028 = |host: &AnalysisHost, file| -> Vec<String> {
            (host.analysis().diagnostics(file).unwrap().into_iter())
                .filter(|d| d.code.as_str() == "E028")
                .map(|d| format!("{:?} {}", d.range, d.message))
                .collect()
        };
        let mut host = AnalysisHost::new();
        let file = host.set_file_text("/ws/main.prose", main);
        assert!(e028(&host, file).is_empty());
        host.set_file_text(program, contract);
        let found = e028(&host, file);
        assert_eq!(
            found,
            ["77..82 Output not declared in program: `notes`; `research` declares `findings`"]
        );
        host.set_file_text("/ws/main.prose", main.replace("Use ", "Use it "));
        assert_eq!(
            e028(&host, file),
            ["80..85 Output not declared in program: `notes`; `research` declares `findings`"]
        );
        host.remove_file(program);
        assert!(e028(&host, file).is_empty());
        // The program comes back, then a prompt is typed in before the
        // file is analysed again: the findings kept from the run without
        // the program are not moved.
        host.set_file_text(program, contract);
        host.set_file_text("/ws/main.prose", main.replace("Use ", "Use all "));
        assert_eq!(
            e028(&host, file),
            ["81..86 Output not declared in program: `notes`; `research` declares `findings`"]
        );
    }
}
