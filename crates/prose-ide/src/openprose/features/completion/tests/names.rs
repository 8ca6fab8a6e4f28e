//! Tests of name completions: agents, blocks, variables, program inputs,
//! skills, reassignment targets.

use super::*;

#[test]
fn agents_after_session_and_resume() {
    check(
        &format!("{AGENTS}session: wr$0"),
        expect![[r#"
                Agent writer (model: opus)
                Agent captain (model: sonnet, persist: project)
            "#]],
    );
    check_edit(
        &format!("{AGENTS}let s = session:$0"),
        "writer",
        expect![[r#"
                agent writer:
                  model: opus
                  prompt: "You write"
                agent captain:
                  model: sonnet
                  persist: project
                let s = session: writer"#]],
    );
    check_labels(
        &format!("{AGENTS}session review: $0"),
        expect![[r#"writer, captain"#]],
    );
    // `resume:` puts persistent agents first.
    check(
        &format!("{AGENTS}resume: $0\n  prompt: \"go on\"\n"),
        expect![[r#"
                Agent captain (model: sonnet, persist: project)
                Agent writer (model: opus, not persistent)
            "#]],
    );
}

#[test]
fn blocks_after_do() {
    let blocks = "block review(draft, focus):\n  session \"r\"\nblock cleanup:\n  session \"c\"\n";
    check(
        &format!("{blocks}do $0"),
        expect![[r#"
                Block review (block review(draft, focus)) => review(${1:draft}, ${2:focus})
                Block cleanup (block cleanup())
            "#]],
    );
    check_edit(
        &format!("do rev$0(x, y)\n{blocks}"),
        "review",
        expect![[r#"
                do review(x, y)
                block review(draft, focus):
                  session "r"
                block cleanup:
                  session "c"
            "#]],
    );
}

#[test]
fn context_variables() {
    check(
        &format!("{VARS}session \"Write\"\n  context: $0"),
        expect![[r#"
                Variable style (const variable)
                Variable research (let variable)
                Input topic (input)
            "#]],
    );
    // Half-typed lists skip the names already listed.
    check_labels(
        &format!("{VARS}session \"Write\"\n  context: [research, $0"),
        expect![[r#"style, topic"#]],
    );
    check_labels(
        &format!("{VARS}session \"Write\"\n  context: {{ style, re$0 }}\n"),
        expect![[r#"research, topic"#]],
    );
    // The value on the next line.
    check_labels(
        &format!("{VARS}session \"Write\"\n  context:\n    $0"),
        expect![[r#"style, research, topic"#]],
    );
    // Not after a complete value.
    check_labels(
        &format!("{VARS}session \"Write\"\n  context: research $0"),
        expect![[r#""#]],
    );
    // A binding written later is not visible, nor the one being written.
    check_labels(
        "let a = session \"a\"\nlet b = session \"b\"\n  context: $0\nlet c = session \"c\"\n",
        expect![[r#"a"#]],
    );
}

#[test]
fn hoisted_code_sees_later_bindings() {
    check_labels(
        "agent a:\n  context: $0\nlet later = session \"l\"\n",
        expect![[r#"later"#]],
    );
    check_labels(
        "block b(p):\n  let inner = session \"i\"\n  session \"x\"\n    context: [$0]\nlet later = session \"l\"\n",
        expect![[r#"p, inner, later"#]],
    );
    // A binding inside a block body is not offered outside it.
    check_labels(
        "block b(p):\n  let inner = session \"i\"\nsession \"x\"\n  context: $0",
        expect![[r#""#]],
    );
}

#[test]
fn interpolation_variables() {
    check(
        &format!("{VARS}session \"Summarise {{$0"),
        expect![[r#"
                Variable style (const variable) => style}
                Variable research (let variable) => research}
                Input topic (input) => topic}
            "#]],
    );
    check_edit(
        &format!("{VARS}session \"About {{to$0}} now\""),
        "topic",
        expect![[r#"
                input topic: "The subject"
                let research = session "Research {topic}"
                const style = session "Pick a style"
                session "About {topic} now""#]],
    );
    // Loop variables, the pipeline's `item`, and `catch` variables are
    // visible in their bodies only.
    check_labels(
        "let xs = [1]\nfor x, i in xs:\n  session \"{$0\"\nsession \"after\"",
        expect![[r#"x, i, xs"#]],
    );
    check_labels(
        "let xs = [1]\nlet r = xs | map:\n  session \"{$0\"",
        expect![[r#"item, xs"#]],
    );
    check_labels(
        "let xs = [1]\nlet r = xs | reduce(acc, x):\n  session \"\"\"{$0\n\"\"\"",
        expect![[r#"acc, x, xs"#]],
    );
    check_labels(
        "try:\n  session \"a\"\ncatch as err:\n  session \"{e$0\"\nsession \"{$0\"",
        expect![[r#"err"#]],
    );
    check_labels(
        "for x in [1]:\n  session \"a\"\nsession \"{$0\"",
        expect![[r#""#]],
    );
    // Plain string text and escaped braces: nothing.
    check_labels(&format!("{VARS}session \"Summ$0"), expect![[r#""#]]);
    check_labels(&format!("{VARS}session \"\\{{$0"), expect![[r#""#]]);
}

#[test]
fn program_inputs_in_calls() {
    check(
        &format!("{PROGRAMS}let r = research($0"),
        expect![[r#"
                Input topic (input of research) => topic: $1
                Input depth (input of research) => depth: $1
            "#]],
    );
    check_labels(
        &format!("{PROGRAMS}let r = research(topic: \"tides\", $0)"),
        expect![[r#"depth"#]],
    );
    check_labels(
        &format!("{PROGRAMS}let x = session \"x\"\nlet r = research(topic: $0"),
        expect![[r#"x"#]],
    );
    // An unknown program: nothing.
    check_labels("let r = nothing($0", expect![[r#""#]]);
    // The program itself, as a statement or a value.
    check(
        &format!("{PROGRAMS}let r = res$0"),
        expect![[r#"
                Keyword session (run a session with a prompt) => session "$0"
                Keyword session: (run a session with an agent) => session: ${1:agent}⏎  prompt: "$0"
                Keyword resume: (continue a persistent agent) => resume: ${1:agent}⏎  prompt: "$0"
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
                Program research (use "./lib/research.prose") => research(topic: $1, depth: $2)
            "#]],
    );
}

#[test]
fn block_arguments_and_skills() {
    check_labels(
        "let x = session \"x\"\nblock b(p):\n  session \"b\"\ndo b($0",
        expect![[r#"x"#]],
    );
    check_labels(
        "use \"@anthropic/web-search\"\nimport \"summarizer\" from \"x\"\nagent a:\n  skills: [\"$0",
        expect![[r#"web-search, summarizer"#]],
    );
    check_labels(
        "use \"@anthropic/web-search\"\nagent a:\n  skills: [$0",
        expect![[r#""web-search""#]],
    );
}

#[test]
fn names_after_the_cursor_count_as_given() {
    check_labels(
        &format!("{VARS}session \"x\"\n  context: {{$0 research, style }}"),
        expect![[r#"topic"#]],
    );
    check_labels(
        &format!("{PROGRAMS}let r = research($0, depth: \"deep\")"),
        expect![[r#"topic"#]],
    );
    // Replacing a name that already has its `:`.
    check_edit(
        &format!("{PROGRAMS}let r = research(de$0pth: \"deep\")"),
        "topic",
        expect![[r#"
                use "./lib/research.prose" as research
                let r = research(topic: "deep")"#]],
    );
    check_labels(
        "parallel ($0, count: 2):\n  session \"a\"",
        expect![[r#""all", "first", "any", on-fail"#]],
    );
}

#[test]
fn reassignment_targets() {
    check_labels(
        &format!("{VARS}let draft = session \"d\"\ndr$0 = session \"again\""),
        expect![[r#"draft, research"#]],
    );
}
