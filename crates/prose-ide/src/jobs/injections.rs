//! Job entries as a host of injections: every prompt of an entry (a
//! prompt variable's, a task's prompt, its conditions and retry prompt)
//! is text a model reads, so it carries the `_keyword_` instruction
//! language (a task prompt that ends with `_terminate_ "SGN_DONE"`).
//!
//! A prompt is an array of strings that the model reads as lines: the
//! guest text is the strings' decoded values joined by line breaks (the
//! break between two strings is in no string: it maps to the end of the
//! first, and no edit crosses it). A `$variable` is opaque: the entry
//! puts its value there, so the instruction checks and hovers leave it to
//! the job entry's own features.

use prose_markdown::instructions::FragmentKind;
use prose_syntax::{TextRange, TextSize};

use crate::{
    db::{Db, SourceFile},
    injection::{Escape, GuestLanguage, GuestText, Injection},
    jobs::{parsed, prompts},
};

/// The injections of a job entry: one per prompt, in file order.
pub(crate) fn prompt_injections(db: &dyn Db, file: SourceFile) -> Vec<Injection> {
    let text = file.text(db);
    let mut out: Vec<Injection> = prompts(&parsed(db, file).entry)
        .into_iter()
        .filter(|p| !p.items.is_empty())
        .map(|p| injection(text, p))
        .collect();
    out.sort_by_key(|i| i.map.host_span().start());
    out
}

fn injection(text: &str, prompt: &prose_jobs::model::Prompt) -> Injection {
    let first = prompt.items[0].text.content_range().start();
    let mut guest = GuestText::at(first);
    let mut opaque = Vec::new();
    for (n, item) in prompt.items.iter().enumerate() {
        let s = &item.text;
        if n > 0 {
            let end = prompt.items[n - 1].text.content_range().end();
            guest.replace(TextRange::empty(end), "\n");
        }
        let base = guest.text.len();
        let decoded = s.as_str();
        for (i, c) in decoded.char_indices() {
            let ch = &decoded[i..i + c.len_utf8()];
            let source = s.source_range(i, i + ch.len());
            let written = text.get(usize::from(source.start())..usize::from(source.end()));
            if written == Some(ch) {
                guest.copy(text, source);
            } else {
                // An escape (`\n`, `\"`, `\u00e9`): its decoded text.
                guest.replace(source, ch);
            }
        }
        for v in &item.variables {
            opaque.push(TextRange::new(
                TextSize::new((base + v.start) as u32),
                TextSize::new((base + v.end) as u32),
            ));
        }
    }
    let mut inj = Injection::new(
        GuestLanguage::Instructions {
            fragment: FragmentKind::Prompt,
            always: false,
        },
        guest,
        Escape::JsonString,
    );
    inj.opaque = opaque;
    inj
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};
    use prose_syntax::{TextRange, TextSize};

    use crate::{
        FilePosition, FileRange,
        kind::FileKind,
        markdown::tests::{at, setup, tokens},
        openprose::rule_tests::render,
    };

    /// An entry whose task prompt (two strings) and condition use the
    /// instruction language, with a `$variable` and escapes.
    const ENTRY: &str = r#"{
  "promptVariables": {"where": ["the docs"]},
  "tasks": {
    "t": {
      "model": "m",
      "prompt": ["_if_ _instructed_ like \"go {place}\", _then_ _run_ `cd {there}`.", "Read $where, then _termiante_ \"SGN_DONE\"."],
      "criteria": {"condition": ["Call job_boolean_true, then _termiante_ \"SGN_X\"."], "toolExecuted": ["job_boolean_true"]}
    }
  }
}
"#;

    fn check(fixture: &str, expect: Expect) {
        let (host, file, text, _) = setup(fixture, FileKind::JobEntry, &[]);
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
    fn job_prompts_get_k_codes_at_their_place_in_the_entry() {
        check(
            ENTRY,
            expect![[r#"
                K009 6:75-6:82 warning: `{there}` is not bound by the condition's pattern: it binds `{place}`
                K001 6:106-6:117 warning: `_termiante_` is not a keyword: did you mean `_terminate_`?
                K001 7:63-7:74 warning: `_termiante_` is not a keyword: did you mean `_terminate_`?
            "#]],
        );
    }

    #[test]
    fn a_prompt_that_only_emphasises_gets_nothing_and_variables_are_the_entrys() {
        check(
            r#"{"tasks": {"a": {"model": "m", "prompt": ["Please _run_ the tests."]}, "b": {"model": "m", "prompt": ["_if_ _instructed_ like \"go\", _then_ _terminate_ \"$done\"."]}}, "promptVariables": {"done": ["SGN_DONE"]}}"#,
            expect![""],
        );
    }

    #[test]
    fn hover_tokens_and_completion_inside_a_job_prompt() {
        let fixture = ENTRY.replacen("_termiante_", "_termi$0ante_", 1);
        let (host, file, text, offset) = setup(&fixture, FileKind::JobEntry, &[]);
        let analysis = host.analysis();
        let pos = FilePosition {
            file,
            offset: offset.unwrap(),
        };
        let h = analysis.hover(pos).unwrap().unwrap();
        assert_eq!(at(&text, h.range), "6:106-6:117");
        assert!(h.markdown.contains("K001"), "{}", h.markdown);
        let on_var = FilePosition {
            file,
            offset: TextSize::new(text.find("$where,").unwrap() as u32 + 2),
        };
        let h = analysis.hover(on_var).unwrap().unwrap();
        assert!(
            h.markdown.contains("the docs"),
            "the entry's hover: {}",
            h.markdown
        );

        let out = tokens(
            "{\"tasks\": {\"t\": {\"model\": \"m\", \"prompt\": [\"_if_ ok, _then_ _terminate_ \\\"SGN_DONE\\\" for $x.\"]}}}\n",
            FileKind::JobEntry,
        );
        expect![[r#"
            1:44-1:48 _if_ keyword
            1:53-1:59 _then_ keyword
            1:60-1:71 _terminate_ macro
            1:72-1:74 \" string
            1:74-1:82 SGN_DONE enumMember
            1:82-1:84 \" string
            1:89-1:91 $x variable
        "#]]
        .assert_eq(&out);

        let (host, file, text, offset) = setup(
            "{\"tasks\": {\"t\": {\"model\": \"m\", \"prompt\": [\"Finish, then _ter$0\"]}}}\n",
            FileKind::JobEntry,
            &[],
        );
        let items = host
            .analysis()
            .completions(FilePosition {
                file,
                offset: offset.unwrap(),
            })
            .unwrap();
        let t = items.iter().find(|i| i.label == "_terminate_").unwrap();
        assert_eq!(at(&text, t.replace_range), "1:57-1:61");
        assert_eq!(
            t.insert_text.as_deref(),
            Some("_terminate_ \\\\\"${1:SGN_DONE}\\\\\""),
            "quotes escaped for the JSON string"
        );
    }

    #[test]
    fn quick_fixes_inside_a_job_prompt_are_escaped() {
        let (host, file, text, _) = setup(
            "{\"tasks\": {\"t\": {\"model\": \"m\", \"prompt\": [\"_if_ ok, _then_ _terminate_ SGN_DONE.\"]}}}\n",
            FileKind::JobEntry,
            &[],
        );
        let range = TextRange::up_to(TextSize::of(text.as_str()));
        let actions: Vec<String> = host
            .analysis()
            .code_actions(FileRange { file, range })
            .unwrap()
            .iter()
            .filter_map(|a| {
                let e = &a.edit.edits[0].1[0];
                Some(format!(
                    "{} {} {:?}",
                    a.diagnostic_code?,
                    at(&text, e.range),
                    e.new_text
                ))
            })
            .collect();
        assert_eq!(actions, ["K004 1:72-1:80 \"\\\\\\\"SGN_DONE\\\\\\\"\""]);
    }
}
