//! Random input never panics, and every range handed out lies on char
//! boundaries of the text.

use proptest::prelude::*;
use prose_markdown::{NoFiles, TextRange, instructions, markdown, prompt};

fn valid(text: &str, r: TextRange) -> bool {
    text.get(usize::from(r.start())..usize::from(r.end()))
        .is_some()
}

/// Text made of the languages' own pieces, so structure appears often.
fn markdownish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("_if_ ".to_string()),
        Just("_then_".to_string()),
        Just("_elif_ ".to_string()),
        Just("_else_".to_string()),
        Just("_terminate_ ".to_string()),
        Just("_termiante_ ".to_string()),
        Just("_run_ ".to_string()),
        Just("_spawn_ ".to_string()),
        Just("_follow_:".to_string()),
        Just("_instructedpreviously_ ".to_string()),
        Just("like ".to_string()),
        Just("like:".to_string()),
        Just("\"".to_string()),
        Just("“x”".to_string()),
        Just("{name}".to_string()),
        Just("{*}".to_string()),
        Just("`".to_string()),
        Just("```md\n".to_string()),
        Just("```\n".to_string()),
        Just("SGN_PENDNG".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("    ".to_string()),
        Just("- ".to_string()),
        Just("1) ".to_string()),
        Just("## ".to_string()),
        Just("/read a.md".to_string()),
        Just("/push name=x \"p\\n/read b.md\"".to_string()),
        Just("/run 0".to_string()),
        "[a-zé\u{1F600} ,.:]{0,6}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

fn exercise(text: &str) {
    let md = markdown::scan(text);
    for f in &md.fences {
        assert!(valid(text, f.range) && valid(text, f.content) && valid(text, f.info_range));
    }
    let ins = instructions::analyze_instructions(text, instructions::FragmentKind::File);
    for d in instructions::check(text, &ins, &NoFiles) {
        assert!(valid(text, d.range), "{d:?}");
        if let Some(fix) = &d.fix {
            assert!(fix.edits.iter().all(|e| valid(text, e.range)));
        }
    }
    for t in instructions::semantic_tokens(text, &ins) {
        assert!(valid(text, t.range));
    }
    let _ = instructions::is_instruction_file(text);
    let file = prompt::parse_prompt_file(text);
    for d in prompt::check(text, &file, &NoFiles) {
        assert!(valid(text, d.range), "{d:?}");
    }
    for t in prompt::semantic_tokens(text, &file) {
        assert!(valid(text, t.range));
    }
    let _ = prompt::render_model_view(text, &file, &NoFiles);
    let _ = prompt::outline(text, &file);
    // Every offset, as editors send them.
    for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
        let _ = instructions::hover(text, &ins, offset);
        let _ = instructions::completions(text, &ins, offset);
        let _ = instructions::definition(&ins, offset);
        let _ = prompt::hover(&file, offset, &NoFiles);
        let _ = prompt::completions(text, &file, offset);
        let _ = prompt::definition(&file, offset);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn pieces_never_panic(text in markdownish()) {
        exercise(&text);
    }

    #[test]
    fn any_text_never_panics(text in "\\PC{0,200}") {
        exercise(&text);
    }
}
