//! # E026 `missing-program-input`
//!
//! **Required input not provided.** A call to an imported program gives no
//! argument for one of the `input`s that program declares.
//!
//! ## Example
//! ```prose
//! #- /ws/.prose/imports/alice--research/program.prose
//! input topic: "What to research"
//! input depth: "shallow, medium or deep"
//! output findings = session "Research {topic} at {depth} depth"
//! #- /ws/main.prose
//! use "@alice/research"
//!
//! let result = research(topic: "quantum computing")
//! ```
//!
//! ## Fix
//! ```prose
//! #- /ws/.prose/imports/alice--research/program.prose
//! input topic: "What to research"
//! input depth: "shallow, medium or deep"
//! output findings = session "Research {topic} at {depth} depth"
//! #- /ws/main.prose
//! use "@alice/research"
//!
//! let result = research(topic: "quantum computing", depth: "deep")
//! ```
//!
//! The diagnostic is on the program name, lists every missing input with
//! its description, and links to the `use` statement.
//!
//! The check needs the imported program's contract (its `input` and
//! `output` declarations), so it runs only when the program is available
//! locally (see P204, which says when it is not). A call with positional
//! arguments (`research("quantum")`) is not checked for missing inputs:
//! compiler.md only defines named arguments, and which inputs positional
//! ones fill would be a guess.
//!
//! The related location is the `use` statement rather than the `input`
//! declaration in the imported file: a file depends only on the *contract*
//! of the programs it imports (names, no positions), so that editing an
//! imported program without changing its inputs and outputs does not
//! re-check its importers.
//!
//! ## Specification
//! compiler.md, Program Invocation › Validation Rules: "Missing required
//! input" (Error, "Required input not provided"); Validation Rules: E026.
//! compiler.md's Input Declarations say inputs "Must be provided by the
//! caller when invoking the program". Every declared input counts, including
//! one declared mid-program (prose.md would ask for it at run time, but a
//! caller cannot answer that prompt). Same severity in every profile.

use super::program_shared::{ProgramCall, resolved_calls};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E026",
    name: "missing-program-input",
    summary: "Required input not provided",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("missing_program_input.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for ProgramCall { call, name, callee } in resolved_calls(ctx) {
        let args: Vec<ast::Arg> = call.args().collect();
        if args.iter().any(|a| a.name().is_none()) {
            continue;
        }
        let given: Vec<String> = args
            .iter()
            .filter_map(|a| a.name())
            .map(|n| n.text())
            .collect();
        let mut seen: Vec<&str> = Vec::new();
        let mut missing: Vec<String> = Vec::new();
        for (input, desc) in &callee.contract.inputs {
            if given.contains(input) || seen.contains(&input.as_str()) {
                continue;
            }
            seen.push(input);
            let desc = desc.trim();
            missing.push(if desc.is_empty() {
                format!("`{input}`")
            } else {
                format!("`{input}` ({desc})")
            });
        }
        if missing.is_empty() {
            continue;
        }
        let plural = if missing.len() == 1 { "" } else { "s" };
        acc.report_related(
            name.syntax().text_range(),
            format!(
                "Required input{plural} not provided: {}",
                missing.join(", ")
            ),
            callee.imported_here(ctx, &name.text()),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    const RESEARCH: &str = r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
input depth: "How deep to go"
let raw = session "Research {topic}"
output findings = session "Summarise"
  context: raw
output sources = session "List sources"
  context: raw
"#;

    #[test]
    fn missing_inputs_are_listed() {
        check_code(
            "E026",
            &format!(
                "{RESEARCH}#- /ws/main.prose\nuse \"@alice/research\"\nlet a = research(topic: \"x\")\nlet b = research()\n"
            ),
            expect![[r#"
                E026 2:9-2:17 error: Required input not provided: `depth` (How deep to go)
                  related 1:5-1:22: `research` is imported here
                E026 3:9-3:17 error: Required inputs not provided: `topic` (What to research), `depth` (How deep to go)
                  related 1:5-1:22: `research` is imported here
            "#]],
        );
    }

    #[test]
    fn complete_positional_or_unavailable_calls() {
        check_no(
            "E026",
            &format!(
                "{RESEARCH}#- /ws/main.prose\nuse \"@alice/research\"\nuse \"@bob/other\"\nlet a = research(topic: \"x\", depth: \"deep\")\nlet b = research(\"x\")\nlet c = other()\n"
            ),
        );
    }
}
