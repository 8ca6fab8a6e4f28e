//! Editor features of prompt files as plain data: hover, go to
//! definition, document links, semantic tokens and completion.

use text_size::{TextRange, TextSize};

use super::{Command, CommandKind, Phase, PromptFile, commands};
use crate::{
    Completion, Definition, FileLookup, Hover, Lookup,
    text::{fenced, range},
    tokens::{self, SemanticToken, TokenKind},
};

/// How many lines of a `/read` target a hover shows.
const PREVIEW_LINES: usize = 12;

/// Every command line of `file` and of the prompts its `/push`es queue.
fn commands_deep(file: &PromptFile) -> Vec<&Command> {
    let mut out: Vec<&Command> = file.all_commands().collect();
    for n in file.nested() {
        out.extend(commands_deep(n));
    }
    out
}

fn covers(r: TextRange, offset: usize) -> bool {
    let Ok(o) = u32::try_from(offset) else {
        return false;
    };
    r.contains_inclusive(TextSize::new(o))
}

/// Hover at `offset`: a command's documentation, a `/read` target's first
/// lines (asked from `files`), or a `/push` option's meaning.
pub fn hover(file: &PromptFile, offset: usize, files: &dyn FileLookup) -> Option<Hover> {
    for cmd in commands_deep(file) {
        if !covers(cmd.range, offset) {
            continue;
        }
        if covers(cmd.name_range, offset) && cmd.kind != CommandKind::Unknown {
            let mut md = cmd.kind.docs();
            if cmd.phase == Phase::Content {
                md.push_str(
                    "\n\n*This line is inside the content: it is sent to the model as text, not processed.*",
                );
            }
            return Some(Hover {
                range: cmd.name_range,
                markdown: md,
            });
        }
        if let Some(t) = cmd.read.as_ref().filter(|t| covers(t.range, offset)) {
            return Some(Hover {
                range: t.range,
                markdown: read_preview(&t.path, files.lookup(&t.path)),
            });
        }
        if let Some(push) = cmd.push.as_ref() {
            for o in &push.options {
                if covers(o.key_range, offset)
                    && let Some(docs) = commands::push_option_docs(&o.key)
                {
                    return Some(Hover {
                        range: o.key_range,
                        markdown: docs.to_string(),
                    });
                }
            }
        }
    }
    None
}

/// The hover text of a `/read` target: its path and first lines.
pub(crate) fn read_preview(path: &str, found: Lookup<'_>) -> String {
    let mut md = format!("**`{path}`**\n\n");
    match found {
        Lookup::Exists(Some(contents)) => {
            let total = contents.lines().count();
            let head: Vec<&str> = contents.lines().take(PREVIEW_LINES).collect();
            md.push_str(&fenced(language_of(path), &head.join("\n")));
            if total > PREVIEW_LINES {
                md.push_str(&format!("\n… {} more lines\n", total - PREVIEW_LINES));
            }
        }
        Lookup::Exists(None) => md.push_str("The file exists but is not text.\n"),
        Lookup::Missing => md.push_str(
            "The file does not exist: the model gets an error result instead of its text.\n",
        ),
        Lookup::Unknown => md.push_str("The file has not been read.\n"),
    }
    md
}

/// A fence info string for a path's extension.
pub(crate) fn language_of(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext.to_ascii_lowercase().as_str() {
        "md" | "markdown" => "markdown",
        "prose" => "prose",
        "json" | "jsonc" => "json",
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "rs" => "rust",
        "py" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "ts" => "typescript",
        "c" | "h" => "c",
        "sh" | "bash" => "sh",
        _ => "text",
    }
}

/// Go to definition at `offset`: the file of a processed `/read`.
pub fn definition(file: &PromptFile, offset: usize) -> Option<Definition> {
    file.reads()
        .into_iter()
        .find(|t| covers(t.range, offset) && !t.path.is_empty())
        .map(|t| Definition::File(t.path.clone()))
}

/// A link from a range of the text to a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DocumentLink {
    pub range: TextRange,
    /// As in [`super::ReadTarget::path`].
    pub path: String,
}

/// A link for every processed `/read` path, nested prompts included.
pub fn document_links(file: &PromptFile) -> Vec<DocumentLink> {
    file.reads()
        .into_iter()
        .filter(|t| !t.path.is_empty())
        .map(|t| DocumentLink {
            range: t.range,
            path: t.path.clone(),
        })
        .collect()
}

/// Tokens of the processed commands (content command lines are text).
pub fn semantic_tokens(text: &str, file: &PromptFile) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    push_tokens(file, &mut out);
    tokens::finish(text, out)
}

fn token(range: TextRange, kind: TokenKind) -> SemanticToken {
    SemanticToken {
        range,
        kind,
        declaration: false,
    }
}

fn push_tokens(file: &PromptFile, out: &mut Vec<SemanticToken>) {
    for cmd in file.processed() {
        out.push(token(cmd.name_range, TokenKind::Command));
        match cmd.kind {
            CommandKind::Read => {
                if let Some(t) = &cmd.read {
                    out.push(token(t.range, TokenKind::Path));
                }
            }
            CommandKind::Run => {
                for a in &cmd.args {
                    out.push(token(a.range, TokenKind::Number));
                }
            }
            CommandKind::Push => {
                let Some(push) = &cmd.push else { continue };
                for o in &push.options {
                    out.push(token(o.key_range, TokenKind::Option));
                    out.push(token(o.value_range, TokenKind::String));
                }
                if let Some(p) = &push.prompt
                    && p.quoted
                {
                    match p.nested.as_deref() {
                        Some(n) if n.processed().next().is_some() => push_tokens(n, out),
                        _ => out.push(token(p.range, TokenKind::String)),
                    }
                }
            }
            _ => {}
        }
    }
}

/// What completion offers in a prompt file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PromptCompletions {
    /// Command names, `/push` options.
    pub items: Vec<Completion>,
    /// The cursor is on a `/read` path: the host lists files matching
    /// `typed` (what is written so far) and replaces `range` with one.
    pub path: Option<PathCompletion>,
}

/// A path being typed after `/read`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathCompletion {
    pub typed: String,
    pub range: TextRange,
}

/// Completion at `offset`: command names where a command is processed
/// (leading lines: `/read /push /run`; trailing lines: `/push`), `name=`
/// after `/push`, and the context for a `/read` path.
pub fn completions(text: &str, file: &PromptFile, offset: usize) -> PromptCompletions {
    let mut out = PromptCompletions::default();
    let Some(before) = text.get(..offset) else {
        return out;
    };
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let typed = &text[line_start..offset];
    let lead = typed.len() - typed.trim_start_matches([' ', '\t']).len();
    let body = &typed[lead..];
    let (in_leading, in_trailing) = match file.content {
        None => (true, false),
        Some(c) => (
            usize::from(c.start()) >= line_start,
            usize::from(c.end()) <= line_end && usize::from(c.start()) < line_start,
        ),
    };
    if !(in_leading || in_trailing) || lead > 3 {
        return out;
    }
    let Some(name) = body.strip_prefix('/') else {
        return out;
    };
    if name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        let replace = range(line_start + lead, offset);
        for kind in super::COMMANDS {
            let allowed =
                (in_leading && kind.allowed_leading()) || (in_trailing && kind.allowed_trailing());
            if !allowed || !kind.name().starts_with(&name.to_ascii_lowercase()) {
                continue;
            }
            out.items.push(Completion {
                label: format!("/{}", kind.name()),
                replace,
                insert: format!("/{} ", kind.name()),
                snippet: None,
                detail: kind.summary().to_string(),
                documentation: kind.docs(),
            });
        }
        return out;
    }
    // After the name: arguments.
    let (cmd_name, rest) = name.split_once([' ', '\t']).unwrap_or((name, ""));
    let word_start = offset - (rest.len() - rest.rfind([' ', '\t']).map_or(0, |i| i + 1));
    let word = &text[word_start..offset];
    match CommandKind::from_name(cmd_name) {
        CommandKind::Read if !rest.trim_start().contains([' ', '\t']) => {
            out.path = Some(PathCompletion {
                typed: word.trim_start_matches('"').to_string(),
                range: range(word_start, offset),
            });
        }
        CommandKind::Push => {
            let before_word = &rest[..rest.len() - word.len()];
            let only_options = before_word
                .split_whitespace()
                .all(|w| w.contains('=') && !w.starts_with('"'));
            if only_options && "name=".starts_with(word) && !before_word.contains("name=") {
                out.items.push(Completion {
                    label: "name=".to_string(),
                    replace: range(word_start, offset),
                    insert: "name=".to_string(),
                    snippet: Some("name=${1:task}".to_string()),
                    detail: "Name the queued task".to_string(),
                    documentation: commands::push_option_docs("name").unwrap_or("").to_string(),
                });
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::{parse_prompt_file, tests::at};
    use expect_test::expect;
    use std::collections::HashMap;

    fn cursor(fixture: &str) -> (String, usize) {
        let at = fixture.find("$0").expect("no $0");
        (fixture.replacen("$0", "", 1), at)
    }

    fn hover_at(fixture: &str) -> String {
        let (text, offset) = cursor(fixture);
        let file = parse_prompt_file(&text);
        let mut files: HashMap<String, Option<String>> = HashMap::new();
        files.insert(
            "docs/a.md".into(),
            Some((1..=20).map(|i| format!("line {i}\n")).collect()),
        );
        files.insert("gone.md".into(), None);
        match hover(&file, offset, &files) {
            Some(h) => format!("{}\n{}", at(&text, h.range), h.markdown),
            None => "none".into(),
        }
    }

    #[test]
    fn hover_on_read_path_shows_first_lines() {
        expect![[r#"
            1:7-1:16
            **`docs/a.md`**

            ```markdown
            line 1
            line 2
            line 3
            line 4
            line 5
            line 6
            line 7
            line 8
            line 9
            line 10
            line 11
            line 12
            ```

            … 8 more lines
        "#]]
        .assert_eq(&hover_at("/read docs/$0a.md\nText.\n"));
        expect![[r#"
            1:7-1:14
            **`gone.md`**

            The file does not exist: the model gets an error result instead of its text.
        "#]]
        .assert_eq(&hover_at("/read gon$0e.md\nText.\n"));
    }

    #[test]
    fn hover_on_commands_and_options() {
        let h = hover_at("/pu$0sh name=a \"A\"\nText.\n");
        assert!(
            h.starts_with("1:1-1:6\n```text\n/push [name=NAME] PROMPT\n```"),
            "{h}"
        );
        let h = hover_at("/push na$0me=a \"A\"\nText.\n");
        assert!(h.starts_with("1:7-1:11\n`name=NAME` names"), "{h}");
        let h = hover_at("Text.\n/re$0ad x\nMore.\n");
        assert!(
            h.ends_with("sent to the model as text, not processed.*"),
            "{h}"
        );
        assert_eq!(hover_at("Te$0xt.\n"), "none");
    }

    #[test]
    fn hover_and_definition_inside_pushed_prompts() {
        let h = hover_at("Text.\n/push name=p \"/read docs/$0a.md\\nGo.\"\n");
        assert!(h.starts_with("2:21-2:30\n**`docs/a.md`**"), "{h}");
        let (text, offset) = cursor("Text.\n/push name=p \"/read docs/$0a.md\\nGo.\"\n");
        let file = parse_prompt_file(&text);
        assert_eq!(
            definition(&file, offset),
            Some(Definition::File("docs/a.md".into()))
        );
    }

    #[test]
    fn links_for_every_processed_read() {
        let text =
            "/read a.md\n/read $PWD/b.md\nText.\n/read c.md\nEnd.\n/push \"/read d.md\\nGo\"\n";
        let file = parse_prompt_file(text);
        let links: Vec<String> = document_links(&file)
            .iter()
            .map(|l| format!("{} {}", at(text, l.range), l.path))
            .collect();
        expect![[r#"
            [
                "1:7-1:11 a.md",
                "2:7-2:16 b.md",
                "6:14-6:18 d.md",
            ]
        "#]]
        .assert_debug_eq(&links);
    }

    #[test]
    fn tokens_of_commands() {
        let text =
            "/read a.md\n/push name=t \"Do it\"\n/run 2\nText /read x\n/push \"/read b.md\\nGo\"\n";
        let file = parse_prompt_file(text);
        let toks: Vec<String> = semantic_tokens(text, &file)
            .iter()
            .map(|t| format!("{:?} {}", t.kind, &text[crate::text::span(t.range)]))
            .collect();
        expect![[r#"
            [
                "Command /read",
                "Path a.md",
                "Command /push",
                "Option name",
                "String t",
                "String \"Do it\"",
                "Command /run",
                "Number 2",
                "Command /push",
                "Command /read",
                "Path b.md",
            ]
        "#]]
        .assert_debug_eq(&toks);
    }

    fn complete(fixture: &str) -> String {
        let (text, offset) = cursor(fixture);
        let file = parse_prompt_file(&text);
        let c = completions(&text, &file, offset);
        let mut out: Vec<String> = c
            .items
            .iter()
            .map(|i| format!("{} {}", i.label, at(&text, i.replace)))
            .collect();
        if let Some(p) = c.path {
            out.push(format!("path {:?} {}", p.typed, at(&text, p.range)));
        }
        out.join("\n")
    }

    #[test]
    fn completion_by_position() {
        assert_eq!(
            complete("/$0\nText.\n"),
            "/read 1:1-1:2\n/push 1:1-1:2\n/run 1:1-1:2"
        );
        assert_eq!(
            complete("/read a.md\n/r$0\nText.\n"),
            "/read 2:1-2:3\n/run 2:1-2:3"
        );
        assert_eq!(complete("Text.\n/$0"), "/push 2:1-2:2");
        assert_eq!(complete("Text.\n/$0\nMore.\n"), "");
        assert_eq!(
            complete("/read docs/a$0\nText.\n"),
            "path \"docs/a\" 1:7-1:13"
        );
        assert_eq!(complete("/push na$0\nText.\n"), "name= 1:7-1:9");
        assert_eq!(complete("/push name=x $0\nText.\n"), "");
    }
}
