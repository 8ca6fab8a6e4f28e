//! "Show what the model receives": the conversation a prompt turns into,
//! as seed 004 describes it, rendered as markdown text.
//!
//! Each processed `/read` becomes a fake round-trip of the `read` tool: an
//! assistant `tool_use` message `{"tool": "read", "path": "…"}` and a
//! `tool_result` with the file's text (or, for a file that does not exist,
//! an error result, as a real tool call would give). The content follows
//! as the user message. The `/push` and `/run` commands are listed before
//! and after, since they shape what happens around the model's turn but
//! are not messages it reads. Commands inside the read files are not
//! expanded (seed 004, "No Recursive Expansion").

use super::{Command, CommandKind, PromptFile, features::language_of};
use crate::{FileLookup, Lookup, text::fenced};

/// Renders the messages the model receives for `file` (parsed from
/// `text`), asking `files` for the text of each `/read` target.
pub fn render_model_view(text: &str, file: &PromptFile, files: &dyn FileLookup) -> String {
    let mut out = String::from("# What the model receives\n\n");
    let mut steps = Vec::new();
    let mut messages = Vec::new();
    for cmd in &file.leading {
        match cmd.kind {
            CommandKind::Read => {
                let Some(arg) = cmd.args.first() else {
                    steps.push("`/read` without a path: nothing is read".to_string());
                    continue;
                };
                let path = cmd.read.as_ref().map_or("", |t| t.path.as_str());
                let n = messages.len() + 1;
                steps.push(format!(
                    "`/read {}`: injected as messages {n} and {}",
                    arg.value,
                    n + 1
                ));
                messages.push(format!(
                    "## {n}. Assistant: tool_use\n\n{}",
                    fenced(
                        "json",
                        &format!(
                            "{{\"tool\": \"read\", \"path\": {}}}",
                            json_string(&arg.value)
                        )
                    )
                ));
                let result = match files.lookup(path) {
                    Lookup::Exists(Some(contents)) => format!(
                        "## {}. Tool result\n\n{}",
                        n + 1,
                        fenced(language_of(path), contents)
                    ),
                    Lookup::Exists(None) => format!(
                        "## {}. Tool result\n\n*(the file's contents; not text, so not shown here)*\n",
                        n + 1
                    ),
                    Lookup::Missing => format!(
                        "## {}. Tool result (error)\n\n{}",
                        n + 1,
                        fenced("text", &format!("Error: {}: file not found", arg.value))
                    ),
                    Lookup::Unknown => format!(
                        "## {}. Tool result\n\n*(the file's contents; not available here)*\n",
                        n + 1
                    ),
                };
                messages.push(result);
            }
            _ => steps.push(describe(cmd, "before the model runs")),
        }
    }
    if !steps.is_empty() {
        out.push_str("Before the model runs, in order:\n\n");
        for (i, s) in steps.iter().enumerate() {
            out.push_str(&format!("{}. {s}\n", i + 1));
        }
        out.push('\n');
    }
    for m in &messages {
        out.push_str(m);
        out.push('\n');
    }
    let n = messages.len() + 1;
    match file.content {
        Some(c) => {
            out.push_str(&format!("## {n}. User message\n\n"));
            out.push_str(&fenced("markdown", crate::text::slice(text, c)));
        }
        None => out.push_str(&format!(
            "## {n}. User message\n\n*(none: the prompt is only commands)*\n"
        )),
    }
    if !file.trailing.is_empty() {
        out.push_str("\nAfter the model finishes, in order:\n\n");
        for (i, cmd) in file.trailing.iter().enumerate() {
            out.push_str(&format!(
                "{}. {}\n",
                i + 1,
                describe(cmd, "after the model finishes")
            ));
        }
    }
    out
}

/// One line about a command that is not a message.
fn describe(cmd: &Command, when: &str) -> String {
    match cmd.kind {
        CommandKind::Push => {
            let push = cmd.push.as_ref();
            let name = push
                .and_then(|p| p.name())
                .map(|o| format!(" `{}`", o.value))
                .unwrap_or_default();
            let prompt = push
                .and_then(|p| p.prompt.as_ref())
                .map(|p| one_line(&p.text))
                .unwrap_or_default();
            format!("`/push`: task{name} queued: {prompt}")
        }
        CommandKind::Run => match cmd.args.first() {
            Some(n) => format!(
                "`/run {}`: the first {} queued tasks start",
                n.value, n.value
            ),
            None => "`/run`: the queued tasks start".to_string(),
        },
        CommandKind::Unknown => format!("`/{}`: unknown command", cmd.name),
        k => format!("`/{}`: not processed {when}", k.name()),
    }
}

fn one_line(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 80 {
        format!("{}…", flat.chars().take(79).collect::<String>())
    } else {
        flat
    }
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::parse_prompt_file;
    use expect_test::expect;
    use std::collections::HashMap;

    #[test]
    fn orchestrator_example_of_the_seed() {
        let text = "/read project/requirements.md\n/read missing.md\n/push name=research-a \"Research approach A\"\n/push name=research-b \"Research approach B\"\n/run\nAnalyze the requirements above.\nCheck research results with /check and incorporate findings.\n/push name=implement \"Implement the chosen approach from DECISION.md\"\n";
        let mut files: HashMap<String, Option<String>> = HashMap::new();
        files.insert(
            "project/requirements.md".into(),
            Some("# Requirements\n\n```sh\nmake\n```\n/read nested.md\n".into()),
        );
        files.insert("missing.md".into(), None);
        let file = parse_prompt_file(text);
        expect![[r#"
            # What the model receives

            Before the model runs, in order:

            1. `/read project/requirements.md`: injected as messages 1 and 2
            2. `/read missing.md`: injected as messages 3 and 4
            3. `/push`: task `research-a` queued: Research approach A
            4. `/push`: task `research-b` queued: Research approach B
            5. `/run`: the queued tasks start

            ## 1. Assistant: tool_use

            ```json
            {"tool": "read", "path": "project/requirements.md"}
            ```

            ## 2. Tool result

            ````markdown
            # Requirements

            ```sh
            make
            ```
            /read nested.md
            ````

            ## 3. Assistant: tool_use

            ```json
            {"tool": "read", "path": "missing.md"}
            ```

            ## 4. Tool result (error)

            ```text
            Error: missing.md: file not found
            ```

            ## 5. User message

            ```markdown
            Analyze the requirements above.
            Check research results with /check and incorporate findings.
            ```

            After the model finishes, in order:

            1. `/push`: task `implement` queued: Implement the chosen approach from DECISION.md
        "#]]
        .assert_eq(&render_model_view(text, &file, &files));
    }

    #[test]
    fn anchor_of_the_lens() {
        let text = "\n/read a.md\nText.\n";
        assert_eq!(
            parse_prompt_file(text).model_view_anchor(),
            crate::text::range(1, 6)
        );
        let text = "\nText.\n";
        assert_eq!(
            parse_prompt_file(text).model_view_anchor(),
            crate::text::range(1, 1)
        );
    }

    #[test]
    fn unknown_files_and_no_content() {
        let text = "/read \"a \\\"b\\\".md\"\n/run 2\n";
        let file = parse_prompt_file(text);
        expect![[r#"
            # What the model receives

            Before the model runs, in order:

            1. `/read a "b".md`: injected as messages 1 and 2
            2. `/run 2`: the first 2 queued tasks start

            ## 1. Assistant: tool_use

            ```json
            {"tool": "read", "path": "a \"b\".md"}
            ```

            ## 2. Tool result

            *(the file's contents; not available here)*

            ## 3. User message

            *(none: the prompt is only commands)*
        "#]]
        .assert_eq(&render_model_view(text, &file, &crate::NoFiles));
    }
}
