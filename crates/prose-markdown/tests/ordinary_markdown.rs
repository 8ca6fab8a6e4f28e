//! A workspace full of ordinary markdown gets no diagnostics: every file in
//! `tests/ordinary/` (READMEs, changelogs, design docs, runbooks, tutorials,
//! notes; emphasis on common words such as `_if_`, `_run_`, `_remember_`,
//! snake_case and dunder names, URLs, tables, HTML, front matter, code) is
//! not an instruction file, yields no near-miss of a keyword, no `K`
//! diagnostic as a prompt fragment, and no `M` diagnostic read as a prompt
//! file.

use std::path::Path;

use prose_markdown::{NoFiles, instructions, prompt};

fn corpus() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ordinary");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/ordinary exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("utf-8 text"))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn the_corpus_is_large_and_uses_what_could_be_mistaken() {
    let files = corpus();
    assert!(files.len() >= 18, "{} files", files.len());
    let all: String = files.iter().map(|(_, t)| t.as_str()).collect();
    assert!(all.len() > 40_000, "{} bytes", all.len());
    // Emphasis on the English words among the keywords, so the gate is tested.
    for w in [
        "_if_",
        "_then_",
        "_else_",
        "_run_",
        "_ask_",
        "_follow_",
        "_remember_",
        "_terminate_",
    ] {
        assert!(all.contains(w) || all.contains(&w.replace('_', "*")), "{w}");
    }
}

#[test]
fn ordinary_markdown_gets_no_diagnostics() {
    let mut failures = Vec::new();
    for (name, text) in corpus() {
        if instructions::is_instruction_file(&text) {
            failures.push(format!("{name}: taken for an instruction file"));
        }
        let ins = instructions::analyze_instructions(&text, instructions::FragmentKind::File);
        for n in &ins.near_misses {
            failures.push(format!(
                "{name}: near-miss `_{}_` at {:?}",
                n.written, n.range
            ));
        }
        let prompt_ins =
            instructions::analyze_instructions(&text, instructions::FragmentKind::Prompt);
        for d in instructions::check(&text, &prompt_ins, &NoFiles) {
            failures.push(format!("{name}: {} {:?} {}", d.code, d.range, d.message));
        }
        let file = prompt::parse_prompt_file(&text);
        for d in prompt::check(&text, &file, &NoFiles) {
            failures.push(format!("{name}: {} {:?} {}", d.code, d.range, d.message));
        }
        if !file.leading.is_empty() || !file.trailing.is_empty() {
            failures.push(format!("{name}: commands found in ordinary markdown"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
