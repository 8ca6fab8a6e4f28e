//! Deterministic large inputs for the benchmark and the robustness tests:
//! an instruction file made of many sections (ordinary documentation with
//! emphasis, lists, tables, code, links, and instruction sections in the
//! style of seed 000's SOP), and a long prompt file.

/// One section of ordinary documentation, numbered `i`.
fn doc_section(i: usize, out: &mut String) {
    out.push_str(&format!(
        "## Section {i}: configuring the _build_ pipeline\n\n\
         The pipeline is _really_ simple: each stage reads `stage_{i}.toml` and writes \
         `out/stage_{i}/`. See [the guide](https://example.com/docs/_guide_/{i}) or \
         <https://example.com/a_b_c>. Use `snake_case_names` and __bold__ text, *stars* and \
         _underscores_ for emphasis; my_var_{i} and __init__ are identifiers.\n\n\
         - first, _note_ that the cache lives in `~/.cache/tool_{i}`\n\
         - then run the tests\n  - nested item with **bold** and a [link](http://x.io/_if_/)\n\
         1. step one\n2. step two\n\n\
         | column | value |\n|---|---|\n| a_b | {i} |\n\n\
         ```rust\nfn main() {{ let _if_ = {i}; println!(\"{{}}\", _if_); }}\n```\n\n\
         > A quote with _emphasis_ and a `code_span`.\n\n"
    ));
}

/// One instruction section in the style of the SOP, numbered `i`.
fn instruction_section(i: usize, out: &mut String) {
    out.push_str(&format!(
        "## _if_ _subreplied_ like \"SGN_PENDING ({{identifier_{i}}})\", _then_:\n\
         _follow_:\n\
         1) _remember_ sub-agent's session id is \"{{identifier_{i}}}\".\n\
         2) _terminate_ \"SGN_PENDING\".\n\n\
         ## _if_ _resumed_ like \"SGN_RESUME\", _then_:\n\
         - _if_ _repliedpreviously_ (like \"{{prev}}\" AND not like \"SGN_PENDING{{*}}\"), _then_:\n\
         \x20   - _terminate_ \"{{prev}}\".\n\
         - _elif_ _subrepliedpreviously_ like \"SGN_PENDING ({{identifier}})\", _then_:\n\
         \x20   - _run_ `$PWD/agent-cli resume {{identifier}}`.\n\
         - _elif_ _instructedpreviously_ like \"_ask_{{*}}\", _then_:\n\
         \x20   - _if_ the question file now contains an answer (\"{{answer}}\"), _then_:\n\
         \x20       - _terminate_ \"{{answer}}\".\n\
         \x20   - _else_:\n\
         \x20       - _terminate_ \"SGN_PENDING\".\n\
         - _else_:\n\
         \x20   - _terminate_ \"SGN_UNHANDLED\".\n\n\
         _if_ _instructed_ like \"review {{file_{i}}}\", _then_ _spawn_ `agents/reviewer_{i}.md`.\n\n"
    ));
}

/// An instruction file of about `bytes` bytes: four documentation
/// sections for each instruction section.
pub fn instruction_file(bytes: usize) -> String {
    let mut out = String::from("# Agent instructions\n\n");
    let mut i = 0;
    while out.len() < bytes {
        if i % 5 == 4 {
            instruction_section(i, &mut out);
        } else {
            doc_section(i, &mut out);
        }
        i += 1;
    }
    out
}

/// Ordinary markdown of about `bytes` bytes (no instruction sections).
pub fn ordinary_markdown(bytes: usize) -> String {
    let mut out = String::from("# Project\n\n");
    let mut i = 0;
    while out.len() < bytes {
        doc_section(i, &mut out);
        i += 1;
    }
    out
}

/// A prompt file of about `bytes` bytes: leading commands, long content,
/// trailing pushes.
pub fn prompt_file(bytes: usize) -> String {
    let mut out = String::new();
    for i in 0..50 {
        out.push_str(&format!("/read docs/part_{i}.md\n"));
    }
    for i in 0..20 {
        out.push_str(&format!(
            "/push name=task-{i} \"/read spec.md\\nDo part {i}.\"\n"
        ));
    }
    out.push_str("/run 4\n\n");
    let mut i = 0;
    while out.len() < bytes {
        doc_section(i, &mut out);
        i += 1;
    }
    for i in 0..20 {
        out.push_str(&format!("/push name=after-{i} \"Follow up {i}\"\n"));
    }
    out
}

/// Inputs that would take quadratic time in a careless implementation,
/// each of about `bytes` bytes, with a name.
pub fn pathological(bytes: usize) -> Vec<(&'static str, String)> {
    let rep = |unit: &str| unit.repeat(bytes / unit.len().max(1) + 1);
    let lines = |unit: &str| {
        let mut s = String::new();
        while s.len() < bytes {
            s.push_str(unit);
            s.push('\n');
        }
        s
    };
    let mut nested = String::new();
    let mut depth = 0;
    while nested.len() < bytes {
        nested.push_str(&" ".repeat(depth % 400));
        nested.push_str("- _if_ a, _then_ {b}\n");
        depth += 2;
    }
    vec![
        ("words without blanks", rep("(_a_)")),
        (
            "near misses on one line",
            rep("_iff_ _then_ _termiante_ \"x\" "),
        ),
        (
            "else after else on one line",
            format!("_if_ a, _then_ b {}", rep("_else_ c ")),
        ),
        (
            "one branch per line",
            lines("_if_ _instructed_ like \"{a}\", _then_ _terminate_ \"{b}\"."),
        ),
        ("deep nesting", nested),
        (
            "follow before blank lines",
            format!("{}{}", rep("_follow_: "), "\n".repeat(bytes)),
        ),
        ("like colon on one line", rep("like: ")),
        ("many pushes of one name", lines("/push name=same \"task\"")),
        ("open brackets", rep("[")),
        ("nested quotes", rep("> ")),
        ("backticks", rep("`` ` ")),
        ("braces", rep("{a {b} {*} ")),
    ]
}
