//! Large generated inputs (the benchmark's) give exactly the expected
//! answers, and junk gives answers without panicking.

#[path = "../benches/markdown_gen/mod.rs"]
mod markdown_gen;

use prose_markdown::{NoFiles, instructions, markdown, prompt};

#[test]
fn generated_instruction_file_has_only_the_resumed_hints() {
    let text = markdown_gen::instruction_file(200_000);
    assert!(instructions::is_instruction_file(&text));
    let ins = instructions::analyze_instructions(&text, instructions::FragmentKind::File);
    let diags = instructions::check(&text, &ins, &NoFiles);
    let sections = text.matches("## _if_ _resumed_").count();
    assert!(sections > 10);
    assert_eq!(
        diags.len(),
        sections,
        "{:#?}",
        diags.iter().find(|d| d.code != "K011")
    );
    assert!(diags.iter().all(|d| d.code == "K011"));
    // Every token lies on one line, inside the text, in order.
    let tokens = instructions::semantic_tokens(&text, &ins);
    for w in tokens.windows(2) {
        assert!(w[0].range.end() <= w[1].range.start());
    }
    for t in &tokens {
        let s = &text[usize::from(t.range.start())..usize::from(t.range.end())];
        assert!(!s.is_empty() && !s.contains('\n'));
    }
}

#[test]
fn generated_ordinary_markdown_is_not_an_instruction_file() {
    let text = markdown_gen::ordinary_markdown(200_000);
    assert!(!instructions::is_instruction_file(&text));
    let ins = instructions::analyze_instructions(&text, instructions::FragmentKind::File);
    assert!(instructions::check(&text, &ins, &NoFiles).is_empty());
    assert!(
        markdown::fences(&text)
            .iter()
            .all(|f| f.lang == "rust" && f.closed)
    );
}

#[test]
fn generated_prompt_file_is_clean() {
    let text = markdown_gen::prompt_file(200_000);
    let file = prompt::parse_prompt_file(&text);
    assert_eq!(file.leading.len(), 71);
    assert_eq!(file.trailing.len(), 20);
    assert!(file.in_content.is_empty());
    assert!(prompt::check(&text, &file, &NoFiles).is_empty());
    assert_eq!(file.paths_to_check().len(), 51);
}

/// Deterministic junk: pieces of both languages, unbalanced quotes,
/// braces and fences, CRLF, tabs, NULs and non-ASCII text.
fn junk(len: usize) -> String {
    const PIECES: [&str; 28] = [
        "_if_",
        "_then_",
        "_else_",
        "_elif_",
        "_terminate_ ",
        "\"",
        "“",
        "”",
        "{",
        "}",
        "{*}",
        "`",
        "```",
        "~~~md\n",
        "\n",
        "\r\n",
        "\t",
        "    ",
        "- ",
        "1) ",
        "## ",
        "/read ",
        "/push name=",
        "\\",
        "SGN_",
        "like:",
        "é\u{1F600}",
        "\0",
    ];
    let mut out = String::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.push_str(PIECES[(x % PIECES.len() as u64) as usize]);
        if x.is_multiple_of(3) {
            out.push_str("word ");
        }
    }
    out
}

#[test]
fn junk_gets_answers() {
    let text = junk(300_000);
    let ins = instructions::analyze_instructions(&text, instructions::FragmentKind::File);
    let diags = instructions::check(&text, &ins, &NoFiles);
    for d in &diags {
        assert!(
            text.get(usize::from(d.range.start())..usize::from(d.range.end()))
                .is_some()
        );
    }
    let _ = instructions::semantic_tokens(&text, &ins);
    let file = prompt::parse_prompt_file(&text);
    let _ = prompt::check(&text, &file, &NoFiles);
    let _ = prompt::render_model_view(&text, &file, &NoFiles);
    let _ = prompt::outline(&text, &file);
}

/// Inputs that are slow only for quadratic code: each must finish (a
/// regression shows as a test that takes minutes; the benchmark has the
/// numbers).
#[test]
fn pathological_inputs_finish() {
    for (name, text) in markdown_gen::pathological(100_000) {
        let ins = instructions::analyze_instructions(&text, instructions::FragmentKind::File);
        let diags = instructions::check(&text, &ins, &NoFiles);
        let tokens = instructions::semantic_tokens(&text, &ins);
        let file = prompt::parse_prompt_file(&text);
        let pdiags = prompt::check(&text, &file, &NoFiles);
        assert!(
            diags.len() + tokens.len() + pdiags.len() < 10 * text.len(),
            "{name}"
        );
    }
}
