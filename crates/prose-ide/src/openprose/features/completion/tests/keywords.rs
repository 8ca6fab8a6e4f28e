//! Tests of keyword, property, value, modifier and operator completions.

use super::*;
use crate::{
    features::completion::keywords::{AGENT_PROPERTIES, PERMISSION_TYPES, SESSION_PROPERTIES},
    vocabulary,
};

/// The value choices written into property snippets are the
/// vocabulary's.
#[test]
fn snippet_choices_are_the_vocabulary() {
    let choices = |words: &[&str]| format!("${{1|{}|}}", words.join(","));
    let templates = AGENT_PROPERTIES
        .iter()
        .chain(SESSION_PROPERTIES)
        .chain(PERMISSION_TYPES);
    for t in templates {
        let words = match t.label {
            "model" => vocabulary::MODELS,
            "persist" => vocabulary::PERSIST_VALUES,
            "backoff" => vocabulary::BACKOFF_STRATEGIES,
            "bash" | "network" => vocabulary::PERMISSION_VALUES,
            _ => continue,
        };
        assert_eq!(
            t.snippet,
            format!("{}: {}", t.label, choices(words)),
            "{}",
            t.label
        );
    }
}

#[test]
fn empty_file_offers_statements() {
    check(
        "$0",
        expect![[r#"
                Keyword session (run a session with a prompt) => session "$0"
                Keyword session: (run a session with an agent) => session: ${1:agent}⏎  prompt: "$0"
                Keyword resume: (continue a persistent agent) => resume: ${1:agent}⏎  prompt: "$0"
                Keyword let (bind a variable) => let ${1:name} = $0
                Keyword const (bind a constant) => const ${1:name} = $0
                Keyword output (bind a program output) => output ${1:name} = $0
                Keyword do (run a block) => do ${1:block}
                Keyword do: (a sequential block) => do:⏎  $0
                Keyword parallel (run branches concurrently) => parallel:⏎  $0
                Keyword parallel for (a loop whose iterations run concurrently) => parallel for ${1:item} in ${2:items}:⏎  $0
                Keyword for (repeat for each item) => for ${1:item} in ${2:items}:⏎  $0
                Keyword repeat (repeat a fixed number of times) => repeat ${1:3}:⏎  $0
                Keyword loop (loop until a condition holds) => loop until **$1** (max: ${2:10}):⏎  $0
                Keyword loop while (loop while a condition holds) => loop while **$1** (max: ${2:10}):⏎  $0
                Keyword try (handle failures) => try:⏎  $1⏎catch as ${2:err}:⏎  $0
                Keyword if (run when a condition holds) => if **$1**:⏎  $0
                Keyword choice (let the AI pick one option) => choice **$1**:⏎  option "$2":⏎    $0
                Keyword throw (raise an error) => throw "$0"
                Keyword agent (define an agent) => agent ${1:name}:⏎  model: ${2|sonnet,opus,haiku|}⏎  prompt: "$0"
                Keyword block (define a reusable block) => block ${1:name}($2):⏎  $0
                Keyword input (declare a program input) => input ${1:name}: "$2"
                Keyword use (import a program) => use "@${1:handle}/${2:slug}"
            "#]],
    );
}

#[test]
fn statements_after_executable_code_skip_input() {
    check_labels(
        "input topic: \"t\"\nsession \"a\"\nse$0",
        expect![[
            r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, use"#
        ]],
    );
    check_edit(
        "session \"a\"\nse$0",
        "session",
        expect![[r#"
                session "a"
                session "$0""#]],
    );
}

#[test]
fn nested_statements_and_clauses() {
    // Only `option` in a choice body.
    check_labels("choice **best**:\n  o$0", expect![[r#"option"#]]);
    // `elif`/`else` right after an `if` body, at the `if`'s column.
    check_labels(
        "if **x**:\n  session \"a\"\nel$0",
        expect![[
            r#"elif, else, session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, use"#
        ]],
    );
    check_labels(
        "parallel:\n  let y = if **x**:\n    session \"a\"\n  elif **y**:\n    session \"b\"\n  $0",
        expect![[
            r#"elif, else, session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw"#
        ]],
    );
    // ... but not inside the `if` body.
    check_labels(
        "if **x**:\n  session \"a\"\n  $0",
        expect![[
            r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw"#
        ]],
    );
    check_labels(
        "try:\n  session \"a\"\n$0",
        expect![[
            r#"catch, finally, session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, use"#
        ]],
    );
    check_labels(
        "try:\n  session \"a\"\ncatch as err:\n  session \"b\"\nfin$0",
        expect![[
            r#"finally, session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, use"#
        ]],
    );
    check_labels(
        "for x in xs:\n  repeat 2:\n    br$0",
        expect![[
            r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, break, continue"#
        ]],
    );
    check_labels(
        "block b(p):\n  $0",
        expect![[
            r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, return"#
        ]],
    );
}

#[test]
fn keyword_snippet_only_on_an_empty_rest_of_line() {
    check_edit("$0pa \"x\"", "parallel", expect![[r#"parallel "x""#]]);
    check_edit(
        "if **a**:\n  session \"x\"\nel$0",
        "else",
        expect![[r#"
                if **a**:
                  session "x"
                else:
                  $0"#]],
    );
}

#[test]
fn agent_properties() {
    check(
        "agent a:\n  model: opus\n  mo$0",
        expect![[r#"
                Property prompt (system prompt) => prompt: "$0"
                Property persist (persistent memory) => persist: ${1|true,project,user|}
                Property skills (imported skills) => skills: ["$0"]
                Property permissions (access rules) => permissions:⏎  $0
                Property context (variables passed in) => context: $0
            "#]],
    );
    // A blank line at the end of the file, and a property below the cursor.
    check_labels(
        "agent a:\n  model: opus\n  $0\n  prompt: \"p\"\nsession: a\n",
        expect![[r#"persist, skills, permissions, context"#]],
    );
    // A key already followed by `:` is completed alone.
    check_edit(
        "agent a:\n  pe$0: true",
        "persist",
        expect![[r#"
                agent a:
                  persist: true"#]],
    );
    // Dedented back to the top level: statements again.
    check_labels(
        "agent a:\n  model: opus\nag$0",
        expect![[
            r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, input, use"#
        ]],
    );
}

#[test]
fn session_and_resume_properties() {
    check_labels(
        "session \"x\"\n  $0",
        expect![[r#"model, prompt, context, retry, backoff, permissions"#]],
    );
    check_labels(
        "agent a:\n  model: opus\nlet r = session: a\n  context: x\n  re$0",
        expect![[r#"model, prompt, retry, backoff, permissions"#]],
    );
    check_labels(
        "parallel:\n  resume: a\n    prompt: \"p\"\n    $0",
        expect![[r#"model, context, retry, backoff, permissions"#]],
    );
}

#[test]
fn permission_types() {
    check(
        "agent a:\n  permissions:\n    bash: deny\n    $0",
        expect![[r#"
                Property read (files it may read) => read: ["$0"]
                Property write (files it may write) => write: ["$0"]
                Property execute (files it may execute) => execute: ["$0"]
                Property network (network access) => network: ${1|allow,deny,prompt|}
            "#]],
    );
}

#[test]
fn property_values() {
    check(
        "agent a:\n  model: $0",
        expect![[r#"
                Value sonnet (balanced, general purpose)
                Value opus (complex reasoning, detailed analysis)
                Value haiku (fast, simple tasks)
            "#]],
    );
    check_edit(
        "agent a:\n  model:$0",
        "opus",
        expect![[r#"
                agent a:
                  model: opus"#]],
    );
    check_edit(
        "agent a:\n  persist: pro$0\n  model: opus",
        "project",
        expect![[r#"
                agent a:
                  persist: project
                  model: opus"#]],
    );
    check_labels(
        "session \"x\"\n  retry: 3\n  backoff: $0",
        expect![[r#"none, linear, exponential"#]],
    );
    check_labels(
        "agent a:\n  permissions:\n    network: $0",
        expect![[r#"allow, deny, prompt"#]],
    );
    check(
        "agent a:\n  permissions:\n    read: $0",
        expect![[r#"
                Snippet ["…"] (glob patterns) => ["$1"]
                Value allow (granted)
                Value deny (denied)
                Value prompt (ask the user)
            "#]],
    );
    // No values for free-form keys.
    check_labels("agent a:\n  prompt: $0", expect![[r#""#]]);
}

#[test]
fn parallel_loop_and_session_modifiers() {
    check(
        "parallel ($0",
        expect![[r#"
                Value "all" (wait for every branch (default))
                Value "first" (the first branch to finish wins)
                Value "any" (wait for `count` successes)
                Property on-fail ("fail-fast", "continue" or "ignore") => on-fail: 
                Property count (successes to wait for (with "any")) => count: 
            "#]],
    );
    check_labels(
        "parallel (\"any\", $0):\n  session \"a\"",
        expect![[r#"on-fail, count"#]],
    );
    check_labels("parallel (\"any\", count: 2, $0", expect![[r#"on-fail"#]]);
    check_labels(
        "parallel (on-fail: $0",
        expect![[r#""fail-fast", "continue", "ignore""#]],
    );
    check_labels(
        "let xs = [1]\nparallel (on-fail: \"continue\", $0) for x in xs:\n  session \"{x}\"",
        expect![[r#""all", "first", "any", count"#]],
    );
    // Inside the strings themselves.
    check_edit(
        "parallel (\"fi$0",
        "first",
        expect![[r#"parallel ("first"#]],
    );
    check_edit(
        "parallel (on-fail: \"co$0\"):\n  session \"a\"",
        "continue",
        expect![[r#"
                parallel (on-fail: "continue"):
                  session "a""#]],
    );
    check_labels("loop until **done** ($0", expect![[r#"max"#]]);
    check_labels(
        "session \"x\" (retry: 2, $0",
        expect![[r#"model, prompt, context, backoff"#]],
    );
    check_labels(
        "session \"x\" (retry: 2, backoff: $0",
        expect![[r#"none, linear, exponential"#]],
    );
}

#[test]
fn expressions_after_equals() {
    check_labels(
        &format!("{VARS}let draft = $0"),
        expect![[
            r#"session, session:, resume:, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, style, research, topic"#
        ]],
    );
    check_labels(
        &format!("{VARS}for x in $0"),
        expect![[r#"style, research, topic"#]],
    );
}

#[test]
fn pipeline_operators() {
    check(
        "let xs = [1]\nlet r = xs | $0",
        expect![[r#"
                Keyword map (transform each item) => map:⏎  $0
                Keyword filter (keep the items that pass) => filter:⏎  $0
                Keyword reduce (combine the items into one) => reduce(${1:acc}, ${2:item}):⏎  $0
                Keyword pmap (transform each item concurrently) => pmap:⏎  $0
            "#]],
    );
    check_labels(
        "let xs = [1]\nlet r = xs\n  | filter:\n      session \"keep?\"\n  | pm$0",
        expect![[r#"map, filter, reduce, pmap"#]],
    );
}

#[test]
fn conditions() {
    check(
        "let depth = session \"d\"\nloop until $0",
        expect![[r#"
                Snippet **…** (a condition the AI judges) => **$1**
                Variable depth (let variable)
            "#]],
    );
    check_labels("choice $0", expect![[r#"**…**"#]]);
    check_labels(
        "let x = session \"x\"\nsession \"y\" (context: $0",
        expect![[r#"x"#]],
    );
}
