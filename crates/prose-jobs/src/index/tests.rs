use expect_test::{Expect, expect};
use text_size::TextSize;

use super::{Index, Symbol, SymbolKind};
use crate::{complete::completion_at, parse};

const ENTRY: &str = r#"{
  "models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []},
  "promptVariables": {
    "cppjob": ["$define-root", "Follow the rules."],
    "define-root": ["REPO-ROOT is here. \u0024cppjob"]
  },
  "grid": [{"keyword": "scrum", "automate": false, "jobs": []}, {"keyword": "scrum", "automate": true, "jobs": []}],
  "tasks": {
    "learn": {"model": "planning", "prompt": ["$cppjob $user-input"], "requireUserInput": true},
    "refine": {"model": "plan", "prompt": ["$cppjob $nope"], "requireUserInput": false,
               "availability": {"previousTasks": ["learn", "gone"], "previousJobKeywords": ["scrum"]},
               "criteria": {"toolExecuted": ["job_boolean_true"], "failureAction": ["RetryWithUserPrompt", 1, ["$reported-false-reason"]]}}
  }
}"#;

fn show(text: &str, index: &Index) -> String {
    let mut out = String::new();
    for d in &index.definitions {
        out.push_str(&format!(
            "def {:?} {:?} name={:?}{} full={:?}\n",
            d.kind,
            &text[d.range],
            &text[d.name_range],
            if d.verbatim { "" } else { " (escaped)" },
            &text[d.full_range].chars().take(24).collect::<String>()
        ));
    }
    for r in &index.references {
        let target = r.target.map(|t| format!(" -> def {t}")).unwrap_or_default();
        out.push_str(&format!(
            "ref {:?} {:?} name={:?}{}{target}\n",
            r.kind,
            &text[r.range],
            &text[r.name_range],
            if r.verbatim { "" } else { " (escaped)" },
        ));
    }
    out
}

#[test]
fn every_definition_and_reference() {
    let index = Index::build(&parse(ENTRY).entry);
    expect![[r#"
        def ModelKey "\"driving\"" name="driving" full="\"driving\": \"d\""
        def ModelKey "\"planning\"" name="planning" full="\"planning\": \"p\""
        def ModelKey "\"coding\"" name="coding" full="\"coding\": \"c\""
        def PromptVariable "\"cppjob\"" name="cppjob" full="\"cppjob\": [\"$define-root"
        def PromptVariable "\"define-root\"" name="define-root" full="\"define-root\": [\"REPO-RO"
        def Task "\"learn\"" name="learn" full="\"learn\": {\"model\": \"plan"
        def Task "\"refine\"" name="refine" full="\"refine\": {\"model\": \"pla"
        def GridKeyword "\"scrum\"" name="scrum" full="{\"keyword\": \"scrum\", \"au"
        def GridKeyword "\"scrum\"" name="scrum" full="{\"keyword\": \"scrum\", \"au"
        ref PromptVariable "$define-root" name="define-root" -> def 4
        ref PromptVariable "\\u0024cppjob" name="cppjob" -> def 3
        ref PromptVariable "$cppjob" name="cppjob" -> def 3
        ref RuntimeVariable "$user-input" name="user-input"
        ref ModelKey "\"planning\"" name="planning" -> def 1
        ref PromptVariable "$cppjob" name="cppjob" -> def 3
        ref PromptVariable "$nope" name="nope"
        ref ModelKey "\"plan\"" name="plan"
        ref GridKeyword "\"scrum\"" name="scrum" -> def 7
        ref Task "\"learn\"" name="learn" -> def 5
        ref Task "\"gone\"" name="gone"
        ref Tool "\"job_boolean_true\"" name="job_boolean_true"
        ref RuntimeVariable "$reported-false-reason" name="reported-false-reason"
    "#]]
    .assert_eq(&show(ENTRY, &index));
    assert_eq!(index.prompt_strings.len(), 6);
    assert_eq!(index.names(SymbolKind::GridKeyword), ["scrum"]);
    assert_eq!(index.names(SymbolKind::Task), ["learn", "refine"]);
}

fn offset_of(text: &str, needle: &str, delta: usize) -> TextSize {
    TextSize::from((text.find(needle).unwrap() + delta) as u32)
}

#[test]
fn at_and_occurrences() {
    let index = Index::build(&parse(ENTRY).entry);
    // On a use of $cppjob: its definition and every use.
    let at = index.at(offset_of(ENTRY, "$cppjob $user", 3)).unwrap();
    assert_eq!(index.name_of(at), (SymbolKind::PromptVariable, "cppjob"));
    let (defs, refs) = index.occurrences(at);
    assert_eq!(defs, [3]);
    assert_eq!(refs.len(), 3);
    // On the key of a task, at its end.
    let at = index.at(offset_of(ENTRY, "\"refine\": {", 8)).unwrap();
    assert_eq!(at, Symbol::Definition(6));
    // A keyword defined by two rows: both are occurrences.
    let at = index.at(offset_of(ENTRY, "[\"scrum\"]", 2)).unwrap();
    assert_eq!(index.occurrences(at).0, [7, 8]);
    assert_eq!(index.at(offset_of(ENTRY, "Follow", 0)), None);
}

fn completion(text_with_cursor: &str, expected: Expect) {
    let offset = text_with_cursor.find("$0").unwrap();
    let text = text_with_cursor.replace("$0", "");
    let parsed = parse(&text);
    let got = completion_at(&text, &parsed, TextSize::from(offset as u32));
    let shown = match got {
        None => "none".to_string(),
        Some(c) => format!(
            "{:?} replace={:?} quoted={} prefix={:?}",
            c.kind, &text[c.replace], c.quoted, c.prefix
        ),
    };
    expected.assert_eq(&shown);
}

#[test]
fn completion_contexts() {
    let tasks = |inner: &str| crate::rules::tests::entry(r#""plan": ["x"]"#, inner);
    completion(
        &tasks(r#""t": {"prompt": ["Do $pl$0 now"], "requireUserInput": false}"#),
        expect![[r#"Variable replace="$pl" quoted=false prefix="$pl""#]],
    );
    completion(
        &tasks(r#""t": {"prompt": ["Do $$0"], "requireUserInput": false}"#),
        expect![[r#"Variable replace="$" quoted=false prefix="$""#]],
    );
    completion(
        &tasks(r#""t": {"prompt": ["Do pl$0"], "requireUserInput": false}"#),
        expect!["none"],
    );
    completion(
        &crate::rules::tests::entry(r#""plan": ["see $user-$0"]"#, ""),
        expect![[r#"Variable replace="$user-" quoted=false prefix="$user-""#]],
    );
    completion(
        &tasks(r#""t": {"model": "pla$0", "prompt": ["x"], "requireUserInput": false}"#),
        expect![[r#"ModelKey replace="pla" quoted=false prefix="pla""#]],
    );
    completion(
        &tasks(
            r#""t": {"prompt": ["x"], "requireUserInput": false, "availability": {"previousTasks": [$0]}}"#,
        ),
        expect![[r#"Task replace="" quoted=true prefix="""#]],
    );
    completion(
        &tasks(
            r#""t": {"prompt": ["x"], "requireUserInput": false, "availability": {"previousJobKeywords": ["s$0"]}}"#,
        ),
        expect![[r#"GridKeyword replace="s" quoted=false prefix="s""#]],
    );
    completion(
        &tasks(r#""t": {"prompt": ["x"], "requireUserInput": false, "criteria": {"toolExecuted": ["job_$0"], "failureAction": ["RetryWithUserPrompt", 1, ["$rep$0"]]}}"#.replacen("$0", "", 1).as_str()),
        expect![[r#"Variable replace="$rep" quoted=false prefix="$rep""#]],
    );
    completion(
        &tasks(
            r#""t": {"prompt": ["x"], "requireUserInput": false, "criteria": {"toolExecuted": ["job_$0"]}}"#,
        ),
        expect![[r#"Tool replace="job_" quoted=false prefix="job_""#]],
    );
    // While typing: the array and the file are not closed yet.
    completion(
        "{\"tasks\": {\"t\": {\"availability\": {\"previousTasks\": [$0",
        expect![[r#"Task replace="" quoted=true prefix="""#]],
    );
}
