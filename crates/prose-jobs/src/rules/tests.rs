//! Test helpers for the rules, and the tests every rule must pass.

use expect_test::Expect;

use super::rules;
use crate::{JobDiagnostic, parse, validate};

/// A complete entry with these prompt variables and tasks (the insides of
/// the two objects) and one grid row, keyword `scrum`. The variables start
/// on line 3, the tasks on line 5.
pub(crate) fn entry(vars: &str, tasks: &str) -> String {
    format!(
        "{{\n\"models\": {{\"driving\": \"d\", \"planning\": \"p\", \"coding\": \"c\", \"reviewers\": [\"r\"]}},\n\"promptVariables\": {{{vars}}},\n\"grid\": [{{\"keyword\": \"scrum\", \"automate\": false, \"jobs\": [{{\"name\": \"problem\", \"id\": \"scrum-problem\"}}]}}],\n\"tasks\": {{{tasks}}}\n}}\n"
    )
}

/// `line:column` (1-based, columns in characters) of `offset`.
fn position(text: &str, offset: usize) -> String {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!("{line}:{column}")
}

fn span(text: &str, range: text_size::TextRange) -> String {
    format!(
        "{}-{}",
        position(text, range.start().into()),
        position(text, range.end().into())
    )
}

/// Diagnostics as text: `J010 5:20-5:29 error: message`, then indented
/// lines for related locations and the fix.
pub(crate) fn render(text: &str, diagnostics: &[JobDiagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&format!(
            "{} {} {}: {}\n",
            d.code,
            span(text, d.range),
            d.severity.as_str(),
            d.message
        ));
        for r in &d.related {
            out.push_str(&format!(
                "  related {}: {}\n",
                span(text, r.range),
                r.message
            ));
        }
        if let Some(fix) = &d.fix {
            let edits: Vec<String> = fix
                .edits
                .iter()
                .map(|e| format!("{} {:?}", span(text, e.range), e.new_text))
                .collect();
            let confidence = match fix.confidence {
                crate::Confidence::Offered => " (offered)",
                crate::Confidence::Preferred => "",
                crate::Confidence::Safe => " (safe)",
            };
            out.push_str(&format!(
                "  fix{confidence}: {}: {}\n",
                fix.title,
                edits.join(", ")
            ));
        }
    }
    out
}

/// Checks the diagnostics of `code` on `text`.
pub(crate) fn check(code: &str, text: &str, expected: Expect) {
    let all = validate(&parse(text));
    let mine: Vec<_> = all.into_iter().filter(|d| d.code == code).collect();
    expected.assert_eq(&render(text, &mine));
}

/// Checks every diagnostic on `text`.
pub(crate) fn check_all(text: &str, expected: Expect) {
    expected.assert_eq(&render(text, &validate(&parse(text))));
}

/// The body of the first ```json block after `## {heading}`.
fn doc_block(docs: &str, heading: &str) -> Option<String> {
    let start = docs.find(&format!("## {heading}\n"))?;
    let rest = &docs[start..];
    let open = rest.find("```json\n")? + "```json\n".len();
    let close = rest[open..].find("```")?;
    Some(rest[open..open + close].to_string())
}

#[test]
fn every_example_triggers_its_code_and_every_fix_is_clean() {
    let mut failures = Vec::new();
    for rule in rules() {
        let docs = rule.docs();
        match doc_block(&docs, "Example") {
            None => failures.push(format!("{}: no `## Example` json block", rule.code)),
            Some(example) => {
                let diags = validate(&parse(&example));
                if !diags.iter().any(|d| d.code == rule.code) {
                    failures.push(format!(
                        "{}: the Example does not trigger it:\n{}",
                        rule.code,
                        render(&example, &diags)
                    ));
                }
            }
        }
        match doc_block(&docs, "Fix") {
            None => failures.push(format!("{}: no `## Fix` json block", rule.code)),
            Some(fix) => {
                let diags = validate(&parse(&fix));
                if !diags.is_empty() {
                    failures.push(format!(
                        "{}: the Fix is not clean:\n{}",
                        rule.code,
                        render(&fix, &diags)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn codes_are_sorted_unique_and_documented() {
    let all = rules();
    for (i, r) in all.iter().enumerate() {
        assert_eq!(
            r.code,
            format!("J{:03}", i + 1),
            "codes must be J001, J002, ... in order"
        );
        assert!(
            r.docs()
                .starts_with(&format!("# {} `{}`\n", r.code, r.name)),
            "{}: docs must start with `# CODE `name``",
            r.code
        );
        assert!(
            r.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}: the name must be kebab-case",
            r.code
        );
        assert!(r.docs().contains("\n## Fix\n"), "{}", r.code);
    }
    assert_eq!(super::rule("j010").map(|r| r.name), Some("unknown-model"));
    assert_eq!(super::rule("unknown-model").map(|r| r.code), Some("J010"));
    assert!(super::rule("J999").is_none());
}
