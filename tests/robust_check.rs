//! The checker under heavy input, `prose check` rows of issue 16: many
//! redeclarations and many undefined names. Each test runs the real binary
//! and asserts the exact diagnostics; how fast they come is measured by the
//! scaling benchmark (docs/performance/scaling.md), not here.

mod common;

use common::Sandbox;
use serde_json::Value;

/// `prose check --format json FILE`: the codes and messages, in order.
fn check(sb: &Sandbox, file: &str) -> Vec<(String, String)> {
    let run = sb.prose(&["check", "--format", "json", file]);
    let out: Value = serde_json::from_str(&run.stdout).expect("JSON output");
    out["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// 8,000 declarations of one input: one E021 for each after the first
/// (the rule used to compare every pair).
#[test]
fn eight_thousand_redeclared_inputs() {
    let sb = Sandbox::new("robust-inputs");
    sb.write("inputs.prose", "input topic: \"t\"\n".repeat(8000));
    let got = check(&sb, "inputs.prose");
    assert_eq!(got.len(), 7999);
    assert!(
        got.iter()
            .all(|(code, message)| code == "E021" && message == "Input already declared: `topic`"),
        "{:?}",
        &got[..3]
    );
}

/// 4,000 `parallel:` blocks binding the same name: one E019 for each
/// after the first.
#[test]
fn four_thousand_parallel_blocks_with_the_same_binding() {
    let sb = Sandbox::new("robust-parallel");
    sb.write("par.prose", "parallel:\n  a = session \"x\"\n".repeat(4000));
    let got = check(&sb, "par.prose");
    assert_eq!(got.len(), 3999);
    assert!(
        got.iter()
            .all(|(code, message)| code == "E019" && message == "Variable already defined: `a`"),
        "{:?}",
        &got[..3]
    );
}

/// Thousands of misspelt names, each close to a definition: every one is
/// reported; the first ones with their suggestion, and once the file's
/// budget of comparisons is spent, the rest without (the suggestions used
/// to compare every undefined name with every definition).
#[test]
fn thousands_of_undefined_names_and_their_suggestions() {
    let sb = Sandbox::new("robust-suggestions");
    let n = 6000;
    let text: String = (0..n)
        .map(|i| format!("let value_{i} = session \"x\"\nlet use_{i} = valeu_{i}\n"))
        .collect();
    sb.write("names.prose", text);
    let got = check(&sb, "names.prose");
    let undefined: Vec<&String> = got
        .iter()
        .filter(|(code, _)| code == "P402")
        .map(|(_, message)| message)
        .collect();
    assert_eq!(undefined.len(), n);
    assert_eq!(
        undefined[0],
        "Undefined variable: `valeu_0` (did you mean `value_0`?)"
    );
    let last = format!("Undefined variable: `valeu_{}`", n - 1);
    assert!(
        undefined[n - 1].starts_with(&last) && !undefined[n - 1].contains("did you mean"),
        "{}",
        undefined[n - 1]
    );
}
