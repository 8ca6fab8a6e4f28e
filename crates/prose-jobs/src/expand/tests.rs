use std::collections::HashMap;

use expect_test::expect;
use proptest::prelude::*;

use super::{expand_prompt_dynamic, expand_prompt_static, task_prompt, variable_text};
use crate::{CodePath, ParsedEntry, parse, rules::tests::render};

fn entry(vars: &str, prompt: &str) -> ParsedEntry {
    parse(&crate::rules::tests::entry(
        vars,
        &format!(r#""t": {{"prompt": {prompt}, "requireUserInput": false}}"#),
    ))
}

/// The static expansion of task `t`'s prompt, or its errors.
fn expand(vars: &str, prompt: &str, requires_boolean_tool: bool) -> String {
    let parsed = entry(vars, prompt);
    let task = parsed.entry.task("t").unwrap();
    let path = CodePath::entry().field("tasks").key("t").field("prompt");
    match expand_prompt_static(
        &parsed.entry,
        &path,
        task.prompt.as_ref().unwrap(),
        requires_boolean_tool,
    ) {
        Ok(text) => format!("ok: {text:?}"),
        Err(errors) => {
            let text = crate::rules::tests::entry(
                vars,
                &format!(r#""t": {{"prompt": {prompt}, "requireUserInput": false}}"#),
            );
            render(&text, &errors)
        }
    }
}

#[test]
fn joins_with_lf_and_replaces_recursively() {
    assert_eq!(
        expand(
            r#""defineRepoRoot": ["REPO-ROOT is the root."], "cppjob": ["$defineRepoRoot", "Follow the rules."]"#,
            r##"["$cppjob", "#Problem", "$user-input"]"##,
            false
        ),
        r#"ok: "REPO-ROOT is the root.\nFollow the rules.\n#Problem\n$user-input""#
    );
}

#[test]
fn runtime_variables_are_kept_and_words_end_where_the_seed_says() {
    assert_eq!(
        expand(
            r#""a": ["A"], "a-b": ["AB"]"#,
            r#"["$a-b $a- $a1 $$a $reported-document. $reported-true-reason$reported-false-reason"]"#,
            false
        ),
        r#"ok: "AB A- A1 $A $reported-document. $reported-true-reason$reported-false-reason""#
    );
}

#[test]
fn unknown_variables_use_the_seed_message_and_code_path() {
    expect![[r#"
        J015 5:29-5:35 error: entry.tasks["t"].prompt: Cannot find prompt variable: $other.
        J015 3:32-3:38 error: entry.tasks["t"].prompt/$outer: Cannot find prompt variable: $inner.
    "#]]
    .assert_eq(&expand(
        r#""outer": ["$inner"]"#,
        r#"["$other", "$outer"]"#,
        false,
    ));
}

#[test]
fn empty_prompts_and_the_boolean_tool() {
    expect![[r#"
        J016 5:27-5:29 error: entry.tasks["t"].prompt: Prompt is empty.
    "#]]
    .assert_eq(&expand("", "[]", true));
    expect![[r#"
        J017 5:27-5:40 error: entry.tasks["t"].prompt: The expanded condition must mention job_boolean_true or job_boolean_false, the tools that answer it.
    "#]]
    .assert_eq(&expand("", r#"["Is it so?"]"#, true));
    assert_eq!(
        expand(r#""t": ["true"]"#, r#"["job_boolean_$t"]"#, true),
        r#"ok: "job_boolean_true""#
    );
}

#[test]
fn cycles_and_blow_up_are_errors_not_hangs() {
    expect![[r#"
        J018 3:41-3:43 error: entry.tasks["t"].prompt/$a/$b: Prompt variable $a uses itself: $a → $b → $a.
    "#]]
    .assert_eq(&expand(r#""a": ["$b"], "b": ["$a"]"#, r#"["$a"]"#, false));
    // 2^60 copies of "x", in 60 definitions.
    let names: Vec<String> = (0..=60)
        .map(|i| format!("v{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char))
        .collect();
    let mut vars: Vec<String> = names
        .windows(2)
        .map(|w| format!(r#""{}": ["${}${}"]"#, w[0], w[1], w[1]))
        .collect();
    vars.push(format!(r#""{}": ["x"]"#, names[60]));
    let out = expand(&vars.join(", "), r#"["$vaa"]"#, false);
    assert!(
        out.contains("The expanded prompt is 1152921504606846976 bytes"),
        "{out}"
    );
}

#[test]
fn prompts_of_the_wrong_shape_are_errors_not_holes() {
    expect![[r#"
        J002 5:29-5:36 error: entry.tasks["t"].prompt/$broken: Expected a prompt (an array of strings); it cannot be expanded.
        J002 3:46-3:54 error: entry.tasks["t"].prompt/$odd: Expected a prompt (an array of strings); it cannot be expanded.
    "#]]
    .assert_eq(&expand(r#""broken": "text", "odd": ["a", 1]"#, r#"["$broken", "$odd"]"#, false));
}

#[test]
fn expanded_text_of_tasks_and_variables() {
    let parsed = entry(
        r#""a": ["A $b"], "b": ["B"], "bad": ["$nope"]"#,
        r#"["$a", "$b"]"#,
    );
    assert_eq!(
        task_prompt(&parsed.entry, "t"),
        Some(Ok("A B\nB".to_string()))
    );
    assert_eq!(task_prompt(&parsed.entry, "missing"), None);
    assert_eq!(
        variable_text(&parsed.entry, "a"),
        Some(Ok("A B".to_string()))
    );
    let errors = variable_text(&parsed.entry, "bad").unwrap().unwrap_err();
    assert_eq!(
        errors[0].message,
        r#"entry.promptVariables["bad"]: Cannot find prompt variable: $nope."#
    );
}

#[test]
fn prompts_built_by_a_caller_expand_like_the_entry() {
    let parsed = entry(r#""why": ["because $reported-false-reason"]"#, r#"["x"]"#);
    let prompt = crate::model::Prompt::from_lines(&["## You stopped", "$why"]);
    let path = CodePath::from_text("retry");
    assert_eq!(
        expand_prompt_static(&parsed.entry, &path, &prompt, false),
        Ok("## You stopped\nbecause $reported-false-reason".to_string())
    );
    let errors = expand_prompt_static(
        &parsed.entry,
        &path,
        &crate::model::Prompt::from_lines(&["$nope"]),
        false,
    )
    .unwrap_err();
    assert_eq!(
        errors[0].message,
        "retry: Cannot find prompt variable: $nope."
    );
    assert_eq!(errors[0].range, text_size::TextRange::default());
}

fn values(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn dynamic_expansion_fills_runtime_variables() {
    let path = CodePath::entry().field("tasks").key("t").field("prompt");
    let prompt = vec!["Do $user-input, then read $reported-document. Cost: $$5 $price".to_string()];
    assert_eq!(
        expand_prompt_dynamic(
            &path,
            &prompt,
            &values(&[
                ("user-input", "the $reported-document thing"),
                ("reported-document", "a.md")
            ])
        ),
        Ok("Do the $reported-document thing, then read a.md. Cost: $$5 $price".to_string())
    );
    let missing = expand_prompt_dynamic(&path, &prompt, &values(&[])).unwrap_err();
    assert_eq!(
        missing.to_string(),
        r#"entry.tasks["t"].prompt: Cannot find runtime variables: $user-input, $reported-document."#
    );
    let one = expand_prompt_dynamic(&path, &["$user-input $user-input".into()], &values(&[]))
        .unwrap_err();
    assert_eq!(
        one.to_string(),
        r#"entry.tasks["t"].prompt: Cannot find runtime variable: $user-input."#
    );
    let two = expand_prompt_dynamic(&path, &["a".into(), "b".into()], &values(&[])).unwrap_err();
    assert_eq!(
        two.to_string(),
        r#"entry.tasks["t"].prompt: Prompt must have exactly one item (the statically expanded prompt), found 2."#
    );
}

/// The seed's expansion, written the obvious way (recursion, no sharing),
/// for variable graphs without cycles.
fn naive(vars: &HashMap<String, Vec<String>>, prompt: &[String]) -> String {
    let joined = prompt.join("\n");
    let mut out = String::new();
    let mut at = 0;
    for (s, e) in crate::find_variables(&joined) {
        out.push_str(&joined[at..s]);
        let name = &joined[s + 1..e];
        match vars.get(name) {
            Some(p) if !crate::is_runtime_variable(name) => out.push_str(&naive(vars, p)),
            _ => out.push_str(&joined[s..e]),
        }
        at = e;
    }
    out.push_str(&joined[at..]);
    out
}

proptest! {
    /// On random acyclic variable graphs, the shared-buffer expansion gives
    /// the naive expansion's text.
    #[test]
    fn expansion_matches_the_naive_reading(
        defs in prop::collection::vec(prop::collection::vec(("[a-z \\n-]{0,5}\\$?", prop::option::of(0usize..8)), 1..4), 1..8),
        prompt in prop::collection::vec(("[a-z -]{0,5}\\$?", prop::option::of(0usize..8)), 1..4),
    ) {
        let name = |i: usize| format!("v{}", (b'a' + i as u8) as char);
        // Variable i may only use variables after it: no cycles.
        let render = |parts: &[(String, Option<usize>)], min: usize| -> Vec<String> {
            parts.iter().map(|(text, var)| match var {
                Some(v) if *v > min && *v < defs.len() => format!("{text}${}", name(*v)),
                _ => text.clone(),
            }).collect()
        };
        let vars: HashMap<String, Vec<String>> = defs.iter().enumerate().map(|(i, d)| (name(i), render(d, i))).collect();
        let top = render(&prompt, 0).into_iter().chain([format!("${}", name(0))]).collect::<Vec<_>>();
        let json_vars: Vec<String> = vars.iter().map(|(k, v)| format!("{}: {}", serde_json::to_string(k).unwrap(), serde_json::to_string(v).unwrap())).collect();
        let text = crate::rules::tests::entry(&json_vars.join(", "), &format!(r#""t": {{"prompt": {}, "requireUserInput": false}}"#, serde_json::to_string(&top).unwrap()));
        let parsed = parse(&text);
        let got = task_prompt(&parsed.entry, "t").unwrap();
        prop_assert_eq!(got, Ok(naive(&vars, &top)));
    }
}

/// One expander for many prompts: each expansion on its own, errors of a
/// shared variable reported to every prompt that uses it.
#[test]
fn an_expander_reuses_its_table_not_its_findings() {
    let parsed = entry(
        r#""broken": ["$nope"], "a": ["A $broken"], "b": ["B $broken"], "fine": ["F $a-b"], "a-b": ["x"]"#,
        r#"["$fine"]"#,
    );
    let mut expander = super::Expander::new(&parsed.entry);
    let mut show = |name: &str| match expander.variable_text(name) {
        Some(Ok(text)) => format!("{name}: {text:?}"),
        Some(Err(errors)) => {
            let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
            format!("{name}: {messages:?}")
        }
        None => format!("{name}: none"),
    };
    let all: Vec<String> = ["a", "b", "fine", "broken", "missing"]
        .into_iter()
        .map(&mut show)
        .collect();
    expect![[r#"
        a: ["entry.promptVariables[\"a\"]/$broken: Cannot find prompt variable: $nope."]
        b: ["entry.promptVariables[\"b\"]/$broken: Cannot find prompt variable: $nope."]
        fine: "F x"
        broken: ["entry.promptVariables[\"broken\"]: Cannot find prompt variable: $nope."]
        missing: none"#]]
    .assert_eq(&all.join("\n"));
    // The same as one expansion each.
    for name in ["a", "b", "fine"] {
        assert_eq!(
            super::Expander::new(&parsed.entry).variable_text(name),
            variable_text(&parsed.entry, name)
        );
    }
    assert_eq!(
        super::Expander::new(&parsed.entry).task_prompt("t"),
        task_prompt(&parsed.entry, "t")
    );
}
