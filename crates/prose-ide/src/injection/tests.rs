//! The instruction language inside OpenProse prompt strings: diagnostics
//! through escapes, opaque interpolations, hover, tokens, completion and
//! quick fixes written as the string writes them; and incrementality of
//! fenced programs.

use expect_test::{Expect, expect};
use prose_syntax::{TextRange, TextSize};

use crate::{
    FileRange,
    kind::FileKind,
    markdown::tests::{at, setup, tokens},
    openprose::rule_tests::render,
};

fn check(fixture: &str, expect: Expect) {
    let (host, file, text, _) = setup(fixture, FileKind::OpenProse, &[]);
    let diags: Vec<_> = host
        .analysis()
        .diagnostics(file)
        .unwrap()
        .into_iter()
        .filter(|d| d.code.as_str().starts_with('K'))
        .collect();
    expect.assert_eq(&render(&text, &diags));
}

#[test]
fn prompt_strings_get_k_codes_at_their_place_in_the_program() {
    check(
        r#"agent worker:
  model: opus
  prompt: "Review {topic}. _if_ it is fine, _then_ _termiante_ \"SGN_OK\"."

session: worker
  prompt: """
    _if_ _instructed_ like "go \{where\}", _then_ _run_ `cd \{there\}`.
    _terminate_ SGN_DONE
  """

session "Only _if_ needed: _remember_ the notes."
session "Stop and _termiante_ \"SGN_X\"."
"#,
        expect![[r#"
            K001 3:52-3:63 warning: `_termiante_` is not a keyword: did you mean `_terminate_`?
            K009 7:61-7:70 warning: `{there}` is not bound by the condition's pattern (did you mean `{where}`?): it binds `{where}`
            K004 8:5-8:16 warning: Quote the message: `_terminate_ "SGN_DONE"` (the caller matches the exact reply)
            K001 12:19-12:30 warning: `_termiante_` is not a keyword: did you mean `_terminate_`?
        "#]],
    );
}

#[test]
fn interpolations_are_the_programs() {
    // `{result}` is an OpenProse interpolation: no K009 on it.
    check(
        "let result = session \"x\"\nsession \"_if_ _instructed_ like \\\"go\\\", _then_ _terminate_ \\\"{result}\\\".\"\n",
        expect![""],
    );
}

#[test]
fn hover_inside_a_prompt_string_and_on_an_interpolation() {
    let (host, file, text, offset) = setup(
        "let topic = \"x\"\nsession \"Read {topic}, then _termin$0ate_ \\\"SGN_DONE\\\".\"\n",
        FileKind::OpenProse,
        &[],
    );
    let analysis = host.analysis();
    let pos = crate::FilePosition {
        file,
        offset: offset.unwrap(),
    };
    let h = analysis.hover(pos).unwrap().unwrap();
    assert_eq!(at(&text, h.range), "2:29-2:40");
    assert!(h.markdown.contains("**_terminate_**"), "{}", h.markdown);
    let on_interp = crate::FilePosition {
        file,
        offset: TextSize::new(text.find("topic}").unwrap() as u32 + 1),
    };
    let h = analysis.hover(on_interp).unwrap().unwrap();
    assert!(
        !h.markdown.contains("placeholder") && !h.markdown.contains("bound"),
        "OpenProse answers on interpolations: {}",
        h.markdown
    );
}

#[test]
fn tokens_inside_prompt_strings() {
    let out = tokens(
        "session \"Then _terminate_ \\\"SGN_DONE\\\".\"\nsession \"plain _run_ words\"\n",
        FileKind::OpenProse,
    );
    expect![[r#"
        1:1-1:8 session keyword
        1:9-1:10 " string
        1:10-1:15 Then  string
        1:15-1:26 _terminate_ macro
        1:26-1:27   string
        1:27-1:29 \" string
        1:29-1:37 SGN_DONE enumMember
        1:37-1:39 \" string
        1:39-1:40 . string
        1:40-1:41 " string
        2:1-2:8 session keyword
        2:9-2:10 " string
        2:10-2:27 plain _run_ words string
        2:27-2:28 " string
    "#]]
    .assert_eq(&out);
}

#[test]
fn completion_in_prompt_strings_writes_escapes() {
    let (host, file, text, offset) = setup(
        "session \"Finish, then _ter$0\"\n",
        FileKind::OpenProse,
        &[],
    );
    let items = host
        .analysis()
        .completions(crate::FilePosition {
            file,
            offset: offset.unwrap(),
        })
        .unwrap();
    let t = items.iter().find(|i| i.label == "_terminate_").unwrap();
    assert_eq!(at(&text, t.replace_range), "1:23-1:27");
    assert_eq!(
        t.insert_text.as_deref(),
        Some("_terminate_ \\\\\"${1:SGN_DONE}\\\\\""),
        "a snippet whose quotes are escaped for the string"
    );
    assert!(t.is_snippet);
}

#[test]
fn quick_fixes_inside_prompt_strings_are_escaped() {
    let (host, file, text, _) = setup(
        "session \"_if_ ok, _then_ _terminate_ SGN_DONE. Or _termiante_ \\\"X\\\".\"\n",
        FileKind::OpenProse,
        &[],
    );
    let range = TextRange::up_to(TextSize::of(text.as_str()));
    let actions: Vec<String> = host
        .analysis()
        .code_actions(FileRange { file, range })
        .unwrap()
        .iter()
        .map(|a| {
            let e = &a.edit.edits[0].1[0];
            format!(
                "{} {} {:?}",
                a.diagnostic_code.unwrap(),
                at(&text, e.range),
                e.new_text
            )
        })
        .collect();
    assert_eq!(
        actions,
        [
            "K004 1:38-1:46 \"\\\\\\\"SGN_DONE\\\\\\\"\"",
            "K001 1:51-1:62 \"_terminate_\"",
        ]
    );
}

#[test]
fn editing_prose_around_a_fence_does_not_recheck_its_program() {
    use std::sync::{Arc, Mutex};
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = log.clone();
    let db = crate::db::RootDatabase::with_event_callback(Box::new(move |e| {
        if let salsa::EventKind::WillExecute { database_key } = e.kind {
            sink.lock().unwrap().push(format!("{database_key:?}"));
        }
    }));
    let mut host = crate::AnalysisHost::with_db(db);
    host.set_workspace_root(Some("/ws".into()));
    let fence = "```prose\nagent a:\n  model: opus\nsession: a\n```\n";
    let file = host.set_file_text("/ws/README.md", format!("# Title\n\n{fence}"));
    let first = host.analysis().diagnostics(file).unwrap();
    log.lock().unwrap().clear();
    host.set_file_text(
        "/ws/README.md",
        format!("# Another title\n\nMore words.\n\n{fence}"),
    );
    let second = host.analysis().diagnostics(file).unwrap();
    assert_eq!(first, second);
    let ran: Vec<String> = log.lock().unwrap().clone();
    let rules = ran.iter().filter(|k| k.contains("file_semantics")).count();
    assert_eq!(rules, 0, "the fence's program is not re-analysed: {ran:?}");
    assert!(
        ran.iter().any(|k| k.contains("file_diagnostics")),
        "the markdown file is: {ran:?}"
    );
}

/// A ```` ```dialect ```` fence of a markdown file: the dialect's hover,
/// tokens, completion and quick fixes, in the markdown's ranges.
#[test]
fn dialect_fences_answer_every_feature_in_place() {
    let fixture = "# Notes\n\n- Try:\n\n  ```dialect\n  /recal notes\n  ```\n\n```dialect\n/recall notes\n/$0\n```\n";
    let (host, file, text, offset) = setup(fixture, FileKind::Markdown, &[]);
    let analysis = host.analysis();
    let pos = |needle: &str, plus: u32| crate::FilePosition {
        file,
        offset: TextSize::new(text.find(needle).unwrap() as u32 + plus),
    };
    let diags: Vec<String> = analysis
        .diagnostics(file)
        .unwrap()
        .iter()
        .map(|d| format!("{} {}", d.code.as_str(), at(&text, d.range)))
        .collect();
    assert_eq!(diags, ["D002 6:4-6:9"], "{diags:?}");

    let h = analysis.hover(pos("recall notes", 2)).unwrap().unwrap();
    assert_eq!(at(&text, h.range), "10:1-10:8");
    assert!(h.markdown.contains("/recall"), "{}", h.markdown);
    let h = analysis.hover(pos("recal notes", 2)).unwrap().unwrap();
    assert!(h.markdown.contains("D002"), "{}", h.markdown);
    assert_eq!(
        h.markdown.matches("**hint D002**").count(),
        1,
        "the problem once: {}",
        h.markdown
    );

    let out = tokens(&fixture.replace("$0", ""), FileKind::Markdown);
    assert!(out.contains("6:3-6:9 /recal function"), "{out}");
    assert!(out.contains("10:1-10:8 /recall function"), "{out}");

    let items = analysis
        .completions(crate::FilePosition {
            file,
            offset: offset.unwrap(),
        })
        .unwrap();
    let recall = items.iter().find(|i| i.label == "/recall").expect("verbs");
    assert_eq!(at(&text, recall.replace_range), "11:1-11:2");

    let range = TextRange::up_to(TextSize::of(text.as_str()));
    let fixes: Vec<String> = analysis
        .code_actions(FileRange { file, range })
        .unwrap()
        .iter()
        .map(|a| {
            let e = &a.edit.edits[0].1[0];
            format!(
                "{} {} {:?}",
                a.diagnostic_code.unwrap(),
                at(&text, e.range),
                e.new_text
            )
        })
        .collect();
    assert_eq!(fixes, ["D002 6:4-6:9 \"recall\""], "{fixes:?}");
}

/// Every feature at every char boundary of odd hosts with injections
/// (escapes, emoji, fences in list items and quotes, unclosed strings and
/// fences, truncated entries): an answer, never a panic, every range
/// inside the text.
#[test]
fn features_never_panic_around_injections() {
    use crate::{FilePosition, fixture::Fixture};
    let texts: &[(&str, FileKind)] = &[
        (
            "/read é😀.md\n/push name= \"_termi\\\"nate_ {x\"\n/run -1\n\n_if_ 😀 _then_ _spawn_ `",
            FileKind::PromptFile,
        ),
        (
            "> ```dialect\n> /recal 😀\n> ```\n- ```prose\n  session \"_if_ é, _then_\n  ```\n```dialect\n/",
            FileKind::Markdown,
        ),
        (
            "_if_ _instructed_ like \"{*}{a\", _then_ _terminate_ \"{b}\n1)\n_elif_",
            FileKind::Markdown,
        ),
        (
            "session \"_if_ \\u{1F600} {x} _then_ _terminate_ \\\"é\nlet y = \"\"\"\n  _spawn_ `a.md` \\{",
            FileKind::OpenProse,
        ),
        (
            "{\"tasks\": {\"t\": {\"prompt\": [\"_if_ \\u00e9\\ud83d\\ude00 $x, _then_\", \"_terminate_ \\\"",
            FileKind::JobEntry,
        ),
        (
            "{\"promptVariables\": {\"v\": [\"_spawn_ `\\u0061.md` \\\\ _run_\"]}, \"tasks\": {\"t\": {\"prompt\": \"_if_\"}}}",
            FileKind::JobEntry,
        ),
    ];
    for &(text, kind) in texts {
        let (host, file) = Fixture::parse_as(text, kind).host(None);
        let a = host.analysis();
        let len = TextSize::of(text);
        let inside = |r: TextRange| assert!(r.end() <= len, "{r:?} past {len:?} in {text:?}");
        a.diagnostics(file)
            .unwrap()
            .iter()
            .for_each(|d| inside(d.range));
        let tokens = a.semantic_tokens(file, None).unwrap();
        for t in &tokens {
            inside(t.range);
            assert!(
                !text[t.range].contains('\n'),
                "a token on one line: {t:?} in {text:?}"
            );
        }
        for w in tokens.windows(2) {
            assert!(
                w[0].range.end() <= w[1].range.start(),
                "sorted, without overlaps: {w:?} in {text:?}"
            );
        }
        a.document_links(file)
            .unwrap()
            .iter()
            .for_each(|l| inside(l.range));
        a.document_symbols(file).unwrap();
        a.code_lenses(file).unwrap();
        a.model_view(file).unwrap();
        let whole = TextRange::up_to(len);
        for c in a.code_actions(FileRange { file, range: whole }).unwrap() {
            c.edit
                .edits
                .iter()
                .flat_map(|(_, e)| e)
                .for_each(|e| inside(e.range));
        }
        for at in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let offset = TextSize::from(at as u32);
            let pos = FilePosition { file, offset };
            if let Some(h) = a.hover(pos).unwrap() {
                inside(h.range);
            }
            a.completions(pos)
                .unwrap()
                .iter()
                .for_each(|c| inside(c.replace_range));
            a.goto_definition(pos).unwrap();
            let range = TextRange::empty(offset);
            a.semantic_tokens(file, Some(range)).unwrap();
            a.code_actions(FileRange { file, range }).unwrap();
        }
    }
}

/// A dialect fence is read with the block registry of its file's root,
/// as a `.dialect` file there is.
#[test]
fn dialect_fences_use_the_roots_block_registry() {
    let fixture = "#- /ws/prose.toml\n[dialect]\nregistry = \"agents/blocks.txt\"\n#- /ws/agents/blocks.txt\nproject_notes\nmeeting_notes\n#- /ws/NOTES.md\n# Notes\n\n```dialect\n/recall read notes\n```\n";
    let (text, diags) = crate::openprose::rule_tests::diagnostics_as(
        fixture,
        FileKind::Markdown,
        crate::config::Profile::Default,
    );
    expect![[r#"
        D012 4:14-4:19 error: 'recall' found multiple blocks matching 'notes' - did you mean project_notes or meeting_notes?
    "#]]
    .assert_eq(&render(&text, &diags));
}

/// Prompt strings without any of the language share one analysis; the
/// others keep their own.
#[test]
fn prompts_without_the_language_share_one_analysis() {
    let (host, file, _, _) = setup(
        "session \"Write a poem.\"\nsession \"Review it.\"\nsession \"Say {x}.\"\nsession \"Use `ls`.\"\n",
        FileKind::OpenProse,
        &[],
    );
    let analysis = host.analysis();
    analysis
        .with_db(|db| {
            let f = analysis.source_file(file);
            let ws = Some(analysis.workspace);
            let ins: Vec<_> = super::guests(db, f, ws)
                .iter()
                .map(|g| match g {
                    super::Guest::Instructions(Some(i)) => i.clone(),
                    other => panic!("an instruction guest, not {other:?}"),
                })
                .collect();
            assert_eq!(ins.len(), 4);
            assert!(std::sync::Arc::ptr_eq(&ins[0], &ins[1]));
            assert!(ins[0].is_empty());
            // `{x}` is a variable, `` `ls` `` code: analyses of their own.
            assert!(!ins[2].is_empty() && !std::sync::Arc::ptr_eq(&ins[0], &ins[2]));
            assert!(!ins[3].is_empty() && !std::sync::Arc::ptr_eq(&ins[0], &ins[3]));
        })
        .unwrap();
}
