//! Every construct against the mock backend: the exact backend calls, in
//! order, and the bindings written.

mod common;

use common::{mock, run, run_with};
use prose_runner::{backend::RequestKind, events::RunStatus};

#[tokio::test]
async fn sessions_agents_and_property_precedence() {
    let ran = run(
        r#"
agent researcher:
  model: sonnet
  prompt: "You research thoroughly"

agent quick:
  model: haiku

session "Plain"
let a = session: researcher
  prompt: "Find facts"
let b = session: researcher
  model: opus
session: quick
session review: researcher
"#,
        "",
    )
    .await;
    assert_eq!(ran.outcome.status, RunStatus::Succeeded);
    assert_eq!(
        ran.call_lines(),
        [
            "session anon_001: Plain",
            "session a: Find facts",
            // No prompt of its own: the agent's prompt is the task.
            "session b: You research thoroughly",
            "session anon_004: ",
            "session review: You research thoroughly",
        ]
    );
    let c = &ran.calls;
    assert_eq!(c[1].agent.as_deref(), Some("researcher"));
    assert_eq!(c[1].model.alias.as_deref(), Some("sonnet"));
    // The agent's prompt becomes system context when the session has one.
    assert_eq!(
        c[1].parts.system.as_deref(),
        Some("You research thoroughly")
    );
    assert_eq!(
        c[1].prompt,
        "Find facts\n\n## System\n\nYou research thoroughly"
    );
    // Session model overrides the agent's.
    assert_eq!(c[2].model.alias.as_deref(), Some("opus"));
    assert_eq!(c[2].parts.system, None);
    assert_eq!(c[3].model.alias.as_deref(), Some("haiku"));
    assert_eq!(ran.binding("a"), "Find facts");
    assert_eq!(ran.binding("review"), "You research thoroughly");
    assert_eq!(
        ran.binding_files(),
        ["a.md", "anon_001.md", "anon_004.md", "b.md", "review.md"]
    );
}

#[tokio::test]
async fn context_forms_and_interpolation() {
    let ran = run(
        r#"
let research = session "Research"
let analysis = session "Analyze"
session "One"
  context: research
session "Many"
  context: [research, analysis]
session "Named"
  context: { research, analysis }
session "Fresh"
  context: []
session "Hello {research}, {missing} and {research.nope}"
"#,
        "[[rule]]\nbinding = \"research\"\nanswer = \"R!\"\n[[rule]]\nbinding = \"analysis\"\nanswer = \"A!\"\n",
    )
    .await;
    let c = &ran.calls;
    assert_eq!(c[2].prompt, "One\n\n## Context: research\n\nR!");
    assert_eq!(
        c[2].parts.context[0].path.as_deref(),
        Some("bindings/research.md")
    );
    assert_eq!(
        c[3].prompt,
        "Many\n\n## Context: research\n\nR!\n\n## Context: analysis\n\nA!"
    );
    assert_eq!(c[4].parts.context.len(), 2);
    assert!(c[5].parts.context.is_empty());
    // Unbound names and missing fields stay as written.
    assert_eq!(c[6].parts.task, "Hello R!, {missing} and {research.nope}");
}

#[tokio::test]
async fn let_const_assignment_and_destructuring() {
    let ran = run(
        r#"
let draft = session "Draft"
draft = session "Improve"
  context: draft
const config = ["a", "b"]
let { x, y } = { x: 1, y: "two" }
output result = draft
"#,
        "",
    )
    .await;
    assert_eq!(
        ran.call_lines(),
        ["session draft: Draft", "session draft: Improve"]
    );
    assert_eq!(ran.calls[1].parts.context[0].text, "Draft");
    assert_eq!(ran.binding("draft"), "Improve");
    assert_eq!(ran.binding("config"), "[\n  \"a\",\n  \"b\"\n]");
    assert_eq!(ran.binding("x"), "1");
    assert_eq!(ran.binding("y"), "two");
    assert_eq!(ran.output("result"), "Improve");
    let file = std::fs::read_to_string(ran.outcome.run_dir.join("bindings/config.md")).unwrap();
    assert!(file.starts_with("# config\n\nkind: const\n\nsource:\n```prose\nconst config = [\"a\", \"b\"]\n```\n\n---\n\n"), "{file}");
}

#[tokio::test]
async fn a_program_with_errors_is_not_run() {
    let root = tempfile::tempdir().unwrap();
    let backend = mock("");
    let o = common::options(
        "const c = \"one\"\nc = \"two\"\n",
        root.path(),
        std::sync::Arc::new(backend.clone()),
    );
    let Err(prose_runner::run::StartError::ProgramErrors(diags)) = common::run_options(o).await
    else {
        panic!("the program ran")
    };
    assert_eq!(
        diags.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(),
        ["P401"]
    );
    assert!(backend.calls().is_empty());
    assert!(!root.path().join(".prose/runs").exists());
}

#[tokio::test]
async fn inputs_outputs_and_missing_inputs() {
    let ran = run_with(
        "input topic: \"The topic\"\noutput summary = session \"Summarise {topic}\"\n",
        mock(""),
        &[("topic", "qubits")],
    )
    .await;
    assert_eq!(ran.call_lines(), ["session summary: Summarise qubits"]);
    assert_eq!(ran.binding("topic"), "qubits");
    assert_eq!(ran.output("summary"), "Summarise qubits");
    let file = std::fs::read_to_string(ran.outcome.run_dir.join("bindings/topic.md")).unwrap();
    assert!(file.contains("kind: input"), "{file}");

    // A non-interactive run needs every input before it starts.
    let root = tempfile::tempdir().unwrap();
    let o = common::options(
        "input topic: \"t\"\ninput depth: \"d\"\nsession \"x\"\n",
        root.path(),
        std::sync::Arc::new(mock("")),
    );
    let e = common::run_options(o).await.unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert_eq!(
        e.to_string(),
        "missing inputs: topic, depth (give them with --input NAME=VALUE)"
    );
    let mut o = common::options(
        "input topic: \"t\"\n",
        root.path(),
        std::sync::Arc::new(mock("")),
    );
    o.inputs.insert("topc".into(), "x".into());
    let e = common::run_options(o).await.unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown input `topc`; the program declares topic"
    );
}

#[tokio::test]
async fn if_elif_else_with_discretions_and_plain_conditions() {
    let ran = run(
        r#"
let depth = 0
if **the code is secure**:
  session "Secure"
elif **it is fast**:
  session "Fast"
else:
  session "Neither"
if depth <= 0 and not **skip**:
  session "Base case"
"#,
        "[[rule]]\nkind = \"condition\"\nprompt = \"fast\"\nanswer = \"Yes, quite.\"\n",
    )
    .await;
    assert_eq!(
        ran.call_lines(),
        [
            "condition Decide whether this condition holds, given the context below:",
            "condition Decide whether this condition holds, given the context below:",
            "session anon_003: Fast",
            "condition Decide whether this condition holds, given the context below:",
            "session anon_005: Base case",
        ]
    );
    assert!(
        ran.calls[0]
            .parts
            .task
            .contains("\n\nthe code is secure\n\n")
    );
    assert_eq!(ran.calls[0].kind, RequestKind::Condition);
    assert_eq!(ran.calls[0].binding, None);
    let evaluated: Vec<String> = ran
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            prose_runner::events::EventKind::ConditionEvaluated {
                condition,
                result,
                line,
            } => Some(format!("{line}: {condition} = {result}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        evaluated,
        [
            "3: the code is secure = false",
            "5: it is fast = true",
            "9: skip = false"
        ]
    );
}

#[tokio::test]
async fn choice_runs_the_chosen_option() {
    let ran = run(
        r#"
let analysis = session "Analyze"
choice **the severity**:
  option "Critical":
    session "Escalate"
  option "Minor":
    session "Log it"
"#,
        "[[rule]]\nkind = \"choice\"\nanswer = \"**minor.**\"\n",
    )
    .await;
    assert_eq!(ran.call_lines()[2], "session anon_003: Log it");
    let choice = &ran.calls[1];
    assert_eq!(choice.kind, RequestKind::Choice);
    assert_eq!(choice.choices, ["Critical", "Minor"]);
    assert!(choice.parts.task.contains("- Critical\n- Minor\n"));
    // Decisions see the latest outputs as context.
    assert_eq!(choice.parts.context[0].name, "analysis");
}

#[tokio::test]
async fn an_unreadable_answer_is_asked_once_more_then_fails() {
    let ran = run(
        "if **done**:\n  session \"x\"\n",
        "[[rule]]\nkind = \"condition\"\nanswers = [\"perhaps\", \"YES\"]\n",
    )
    .await;
    assert_eq!(ran.outcome.status, RunStatus::Succeeded);
    assert_eq!(ran.calls.len(), 3);
    assert!(ran.calls[1].parts.task.ends_with(
        "Your previous answer could not be read: \"perhaps\". Answer with one word: true or false, and nothing else."
    ));
    assert_eq!(ran.calls[1].attempt, 2);
    assert_eq!(ran.calls[0].session_id, ran.calls[1].session_id);

    let ran = run(
        "if **done**:\n  session \"x\"\n",
        "[[rule]]\nkind = \"condition\"\nanswer = \"hmm\"\n",
    )
    .await;
    assert_eq!(ran.outcome.status, RunStatus::Failed);
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some(
            "line 1: condition s1@1 failed: could not read the answer to this condition as true or false: \"hmm\""
        )
    );
}

#[tokio::test]
async fn repeat_for_and_loops() {
    let ran = run(
        r#"
repeat 2 as i:
  session "Idea {i}"
for topic, n in ["AI", "ML"]:
  session "Research {topic} ({n})"
let items = session "List"
for part in items:
  session "Part {part}"
loop until **done** (max: 5) as round:
  session "Round {round}"
loop while **more** (max: 3):
  session "Never"
"#,
        "[[rule]]\nbinding = \"items\"\nanswer = \"- one\\n- two\"\n[[rule]]\nkind = \"condition\"\nprompt = \"done\"\nanswers = [\"no\", \"no\", \"yes\"]\n",
    )
    .await;
    assert_eq!(
        ran.call_lines(),
        [
            "session anon_001: Idea 0",
            "session anon_002: Idea 1",
            "session anon_003: Research AI (0)",
            "session anon_004: Research ML (1)",
            "session items: List",
            "session anon_006: Part one",
            "session anon_007: Part two",
            "condition Decide whether this condition holds, given the context below:",
            "session anon_009: Round 0",
            "condition Decide whether this condition holds, given the context below:",
            "session anon_011: Round 1",
            "condition Decide whether this condition holds, given the context below:",
            "condition Decide whether this condition holds, given the context below:",
        ]
    );
}

#[tokio::test]
async fn a_loop_without_max_stops_at_the_default_and_warns() {
    let ran = run("loop:\n  session \"Again\"\n", "").await;
    assert_eq!(ran.calls.len(), 100);
    assert_eq!(
        ran.warnings(),
        ["line 1: this loop has no `(max: N)`; it stops after 100 iterations"]
    );
}

#[tokio::test]
async fn pipelines_map_filter_reduce_pmap() {
    let ran = run(
        r#"
let topics = ["quantum", "blockchain", "ml"]
let kept = topics
  | filter:
      session "Trending? {item}"
  | map:
      session "Pitch {item}"
let merged = ["a", "b", "c"] | reduce(acc, x):
  session "Merge {acc} + {x}"
let all = ["p", "q"] | pmap:
  session "Process {item}"
"#,
        r#"
[[rule]]
prompt = "Trending? quantum"
answer = "yes"
[[rule]]
prompt = "Trending? blockchain"
answer = "No, not really."
[[rule]]
kind = "judgement"
answer = "true"
"#,
    )
    .await;
    let lines = ran.call_lines();
    assert_eq!(
        &lines[..6],
        [
            "session anon_001: Trending? quantum",
            "session anon_002: Trending? blockchain",
            "session anon_003: Trending? ml",
            // "Trending? ml" echoes itself: not a yes or no, so it is judged.
            "judgement A filter asked whether to keep this item:",
            "session anon_005: Pitch quantum",
            "session anon_006: Pitch ml",
        ]
    );
    assert_eq!(
        &lines[6..8],
        [
            "session anon_007: Merge a + b",
            "session anon_008: Merge Merge a + b + c"
        ]
    );
    let mut pmap = lines[8..].to_vec();
    pmap.sort();
    assert_eq!(pmap.len(), 2);
    assert!(
        pmap[0].ends_with("Process p") && pmap[1].ends_with("Process q"),
        "{pmap:?}"
    );
    assert_eq!(
        ran.binding("kept"),
        "[\n  \"Pitch quantum\",\n  \"Pitch ml\"\n]"
    );
    assert_eq!(ran.binding("merged"), "Merge Merge a + b + c");
    assert_eq!(
        ran.binding("all"),
        "[\n  \"Process p\",\n  \"Process q\"\n]"
    );
}

#[tokio::test]
async fn do_blocks_named_blocks_parameters_and_recursion() {
    let ran = run(
        r#"
block review(topic):
  let notes = session "Review {topic}"
  output notes

block countdown(n):
  if n <= 0:
    output "done"
  session "Step {n}"
  output do countdown(n - 1)

let r = do review("qubits")
let d = do:
  session "First"
  session "Second"
let c = do countdown(2)
"#,
        "",
    )
    .await;
    assert_eq!(
        ran.call_lines(),
        [
            "session notes__1: Review qubits",
            "session anon_002: First",
            "session anon_003: Second",
            "session anon_004__2: Step 2",
            "session anon_005__3: Step 1",
        ]
    );
    assert_eq!(ran.binding("r"), "Review qubits");
    assert_eq!(ran.binding("d"), "Second");
    assert_eq!(ran.binding("c"), "done");
    assert_eq!(ran.binding("notes__1"), "Review qubits");
    let file = std::fs::read_to_string(ran.outcome.run_dir.join("bindings/notes__1.md")).unwrap();
    assert!(file.contains("kind: let\nexecution_id: 1\n"), "{file}");
}

#[tokio::test]
async fn recursion_has_a_depth_limit() {
    let ran = run("block f(n):\n  do f(n)\ndo f(1)\n", "").await;
    assert_eq!(ran.outcome.status, RunStatus::Failed);
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some("line 2: RecursionLimitExceeded: block 'f' exceeded max_depth 100")
    );
}

#[tokio::test]
async fn arrows_pass_the_previous_result() {
    let ran = run(
        "let w = session \"Draft\" -> session \"Edit\" -> session \"Final\"\n",
        "",
    )
    .await;
    assert_eq!(
        ran.call_lines(),
        [
            "session anon_001: Draft",
            "session anon_002: Edit",
            "session w: Final"
        ]
    );
    assert_eq!(ran.calls[1].parts.context[0].name, "previous");
    assert_eq!(ran.calls[1].parts.context[0].text, "Draft");
    assert_eq!(ran.calls[2].parts.context[0].text, "Edit");
    assert_eq!(ran.binding("w"), "Final");
}

#[tokio::test]
async fn try_catch_finally_throw_and_rethrow() {
    let ran = run(
        r#"
try:
  session "Risky"
  session "Not reached"
catch as err:
  session "Handle"
    context: err
finally:
  session "Cleanup"
try:
  try:
    throw "inner problem"
  catch:
    throw
catch as outer:
  session "Outer got {outer}"
"#,
        "[[rule]]\nprompt = \"Risky\"\nfail = \"HTTP 500\"\n",
    )
    .await;
    assert_eq!(ran.outcome.status, RunStatus::Succeeded);
    assert_eq!(
        ran.call_lines(),
        [
            "session anon_001: Risky",
            "session anon_002: Handle",
            "session anon_003: Cleanup",
            "session anon_004: Outer got line 12: inner problem",
        ]
    );
    assert_eq!(
        ran.calls[1].parts.context[0].text,
        "line 3: session s1@3 failed: HTTP 500"
    );
}

#[tokio::test]
async fn an_uncaught_error_fails_the_run_after_finally() {
    let ran = run(
        "try:\n  throw \"boom\"\nfinally:\n  session \"Cleanup\"\nsession \"After\"\n",
        "",
    )
    .await;
    assert_eq!(ran.outcome.status, RunStatus::Failed);
    assert_eq!(ran.call_lines(), ["session anon_001: Cleanup"]);
    assert_eq!(ran.outcome.error.as_deref(), Some("line 2: boom"));
}

#[tokio::test]
async fn assert_return_break_and_real_world_statements() {
    let ran = run(
        r#"
let data = session "Data"
for x in ["a", "b", "c"]:
  if x == "b":
    break
  session "Item {x}"
assert data != "not-found":
  "No data"
"#,
        "",
    )
    .await;
    assert_eq!(
        ran.call_lines(),
        ["session data: Data", "session anon_002: Item a"]
    );
    let ran = run(
        "let t = session \"Tool\"\nassert t == \"found\":\n  \"No data: {t}\"\n",
        "",
    )
    .await;
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some("line 2: assertion failed: No data: Tool")
    );
}

#[tokio::test]
async fn fields_of_json_answers() {
    let ran = run(
        "let plan = session \"Plan\"\nfor p in plan.phases:\n  session \"Do {p.name}\"\n",
        "[[rule]]\nbinding = \"plan\"\nanswer = '''```json\n{\"phases\": [{\"name\": \"build\"}, {\"name\": \"test\"}]}\n```'''\n",
    )
    .await;
    assert_eq!(
        ran.call_lines()[1..],
        ["session anon_002: Do build", "session anon_003: Do test"]
    );
    let ran = run(
        "let plan = session \"Plan\"\nsession \"x {plan}\"\n  context: plan.phases\n",
        "",
    )
    .await;
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some(
            "`plan` (text) has no field `phases`; a text has fields only when it is a JSON object"
        )
    );
}

#[tokio::test]
async fn a_mid_program_input_is_bound_when_given() {
    let ran = run_with(
        "session \"Plan\"\ninput approval: **Approve the plan?**\nif approval != \"yes\":\n  session \"Rejected\"\n",
        mock(""),
        &[("approval", "no")],
    )
    .await;
    assert_eq!(
        ran.call_lines(),
        ["session anon_001: Plan", "session anon_002: Rejected"]
    );
}
