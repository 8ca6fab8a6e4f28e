//! # E027 `unknown-program-input`
//!
//! **Input not declared in program.** A call to an imported program passes
//! an argument `NAME: value` whose NAME is not one of that program's
//! `input`s.
//!
//! ## Example
//! ```prose
//! #- /ws/.prose/imports/alice--research/program.prose
//! input topic: "What to research"
//! output findings = session "Research {topic}"
//! #- /ws/main.prose
//! use "@alice/research"
//!
//! let result = research(subject: "quantum computing")
//! ```
//!
//! ## Fix
//! ```prose
//! #- /ws/.prose/imports/alice--research/program.prose
//! input topic: "What to research"
//! output findings = session "Research {topic}"
//! #- /ws/main.prose
//! use "@alice/research"
//!
//! let result = research(topic: "quantum computing")
//! ```
//!
//! The diagnostic is on the argument name, lists the program's inputs (or
//! suggests the closest one), and links to the `use` statement. The check
//! needs the imported program's contract, so it runs only when the program
//! is available locally (see P204).
//!
//! ## Specification
//! compiler.md, Program Invocation › Validation Rules: "Unknown input name"
//! (Error, "Input not declared in program"); Validation Rules: E027. Same
//! severity in every profile.

use super::program_shared::{ProgramCall, resolved_calls, undeclared_detail};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E027",
    name: "unknown-program-input",
    summary: "Input not declared in program",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("unknown_program_input.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for ProgramCall { call, name, callee } in resolved_calls(ctx) {
        let program = name.text();
        let contract = callee.contract;
        let inputs: Vec<&str> = contract.inputs.iter().map(|(n, _)| n.as_str()).collect();
        for arg in call.args() {
            let Some(arg_name) = arg.name() else { continue };
            let text = arg_name.text();
            if contract.has_input(&text) {
                continue;
            }
            let detail = undeclared_detail(&program, &text, &inputs, "inputs");
            acc.report_related(
                arg_name.syntax().text_range(),
                format!("Input not declared in program: `{text}`{detail}"),
                callee.imported_here(ctx, &program),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    const RESEARCH: &str = r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
input depth: "How deep to go"
output findings = session "Research {topic}"
#- /ws/.prose/imports/bob--ping/program.prose
output pong = session "pong"
"#;

    #[test]
    fn unknown_argument_names() {
        check_code(
            "E027",
            &format!(
                "{RESEARCH}#- /ws/main.prose\nuse \"@alice/research\" as research\nuse \"@bob/ping\"\nlet a = research(topic: \"x\", dept: \"deep\", style: \"brief\")\nlet b = ping(x: 1)\n"
            ),
            expect![[r#"
                E027 3:30-3:34 error: Input not declared in program: `dept` (did you mean `depth`?)
                  related 1:5-1:22: `research` is imported here
                E027 3:44-3:49 error: Input not declared in program: `style`; `research` declares `topic`, `depth`
                  related 1:5-1:22: `research` is imported here
                E027 4:14-4:15 error: Input not declared in program: `x`; `ping` declares no inputs
                  related 2:5-2:16: `ping` is imported here
            "#]],
        );
    }

    #[test]
    fn declared_inputs_and_unavailable_programs() {
        check_no(
            "E027",
            &format!(
                "{RESEARCH}#- /ws/main.prose\nuse \"@alice/research\"\nuse \"@carol/other\"\nlet a = research(topic: \"x\", depth: \"deep\")\nlet b = other(anything: 1)\n"
            ),
        );
    }
}
