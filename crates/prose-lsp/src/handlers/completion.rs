//! `textDocument/completion`: `prose_ide`'s completions, each with a
//! `textEdit` over the word being typed. Snippet items are sent as
//! snippets only to clients that support them (`snippetSupport`); others
//! get the snippet's plain text (placeholders replaced by their defaults,
//! tab stops removed).

use std::sync::Arc;

use ls_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, CompletionTextEdit,
    Documentation, InsertTextFormat, MarkupContent, MarkupKind, TextEdit,
};
use prose_ide::features::completion::CompletionKind;
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

/// The characters after which the client asks for completions on its own:
/// `session:` / `model:` (`:`), an interpolation (`{`), call arguments
/// (`(`), a pipeline operator (`|`), a string value (`"`); in Pattern
/// Dialect a verb (`/`), a /send domain or a reference (`@`), a permission
/// marker (`?`); a job entry's `$variable` (`$`); in prompts and
/// instructions, a keyword (`_`) and a command or a path (`/`). A language
/// with nothing to offer after one answers empty.
pub const TRIGGER_CHARACTERS: &[&str] = &[":", "{", "(", "|", "\"", "/", "@", "?", "$", "_"];

/// At most this many entries of a directory are offered for a path.
const MAX_PATH_ITEMS: usize = 500;

pub async fn completion(
    inner: &Arc<Inner>,
    params: CompletionParams,
) -> Result<Option<CompletionResponse>> {
    let pos = params.text_document_position;
    let result = on_document(inner, &pos.text_document.uri, move |s, file| {
        let position = s.position(file, pos.position)?;
        let snippets = s.caps.snippet_support;
        let items = s.analysis.completions(position).lsp()?;
        let mut out = items
            .into_iter()
            .map(|item| {
                let range = s.range(file, item.replace_range)?;
                Ok(convert(item, range, snippets))
            })
            .collect::<Result<Vec<_>>>()?;
        if let Some(path) = s.analysis.path_completion(position).lsp()? {
            let range = s.range(file, path.replace)?;
            out.extend(directory_items(&path.dir, &path.typed, range));
        }
        Ok(out)
    })
    .await?;
    Ok(result.map(CompletionResponse::Array))
}

/// The entries of `dir` whose name starts with `typed` (hidden ones only
/// when `typed` starts with `.`), folders with a trailing `/`, each
/// replacing `range`. The analysis says which directory; this lists it
/// (the analysis does no IO).
fn directory_items(dir: &str, typed: &str, range: ls_types::Range) -> Vec<CompletionItem> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<(String, bool)> = entries
        .filter_map(|e| {
            let e = e.ok()?;
            let name = e.file_name().into_string().ok()?;
            let is_dir = e.file_type().ok()?.is_dir();
            Some((name, is_dir))
        })
        .filter(|(name, _)| name.starts_with(typed))
        .filter(|(name, _)| typed.starts_with('.') || !name.starts_with('.'))
        .collect();
    names.sort();
    names.truncate(MAX_PATH_ITEMS);
    names
        .into_iter()
        .map(|(name, is_dir)| {
            let text = if is_dir { format!("{name}/") } else { name };
            CompletionItem {
                label: text.clone(),
                kind: Some(if is_dir {
                    CompletionItemKind::FOLDER
                } else {
                    CompletionItemKind::FILE
                }),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                    range,
                    new_text: text,
                })),
                ..Default::default()
            }
        })
        .collect()
}

fn kind(kind: CompletionKind) -> CompletionItemKind {
    match kind {
        CompletionKind::Keyword => CompletionItemKind::KEYWORD,
        CompletionKind::Property => CompletionItemKind::PROPERTY,
        CompletionKind::Agent => CompletionItemKind::CLASS,
        CompletionKind::Block => CompletionItemKind::FUNCTION,
        CompletionKind::Variable => CompletionItemKind::VARIABLE,
        CompletionKind::Value => CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Program => CompletionItemKind::MODULE,
        CompletionKind::Input => CompletionItemKind::FIELD,
        CompletionKind::Snippet => CompletionItemKind::SNIPPET,
        CompletionKind::File => CompletionItemKind::FILE,
        CompletionKind::Verb => CompletionItemKind::FUNCTION,
        CompletionKind::Reference => CompletionItemKind::REFERENCE,
        CompletionKind::Marker => CompletionItemKind::OPERATOR,
        CompletionKind::Task => CompletionItemKind::FUNCTION,
        CompletionKind::Tool => CompletionItemKind::METHOD,
    }
}

fn convert(
    item: prose_ide::features::completion::CompletionItem,
    range: ls_types::Range,
    snippets: bool,
) -> CompletionItem {
    let insert = item.insert_text.unwrap_or_else(|| item.label.clone());
    let (new_text, format) = if item.is_snippet && snippets {
        (insert, InsertTextFormat::SNIPPET)
    } else if item.is_snippet {
        (snippet_to_plain(&insert), InsertTextFormat::PLAIN_TEXT)
    } else {
        (insert, InsertTextFormat::PLAIN_TEXT)
    };
    CompletionItem {
        label: item.label,
        kind: Some(kind(item.kind)),
        detail: item.detail,
        documentation: item.documentation.map(|value| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            })
        }),
        sort_text: item.sort_text,
        insert_text_format: Some(format),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text })),
        ..Default::default()
    }
}

/// The text a snippet inserts once its placeholders keep their defaults:
/// `$1` and `${1}` vanish, `${1:x}` is `x` (nested placeholders too),
/// `${1|a,b|}` is `a`, and `\$`, `\}`, `\\` are the characters.
pub fn snippet_to_plain(snippet: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = snippet.chars().collect();
    let mut i = 0;
    plain_until(&chars, &mut i, &mut out, false);
    out
}

/// Copies from `chars[*i..]` to `out`; inside a placeholder, stops after
/// its closing `}`.
fn plain_until(chars: &[char], i: &mut usize, out: &mut String, nested: bool) {
    while *i < chars.len() {
        let c = chars[*i];
        match c {
            '\\' if *i + 1 < chars.len()
                && matches!(chars[*i + 1], '$' | '}' | '\\' | ',' | '|') =>
            {
                out.push(chars[*i + 1]);
                *i += 2;
            }
            '}' if nested => {
                *i += 1;
                return;
            }
            '$' if chars.get(*i + 1).is_some_and(char::is_ascii_digit) => {
                *i += 1;
                while chars.get(*i).is_some_and(char::is_ascii_digit) {
                    *i += 1;
                }
            }
            '$' if chars.get(*i + 1) == Some(&'{') => {
                let mut j = *i + 2;
                while chars.get(j).is_some_and(char::is_ascii_digit) {
                    j += 1;
                }
                match chars.get(j) {
                    Some('}') => *i = j + 1,
                    Some(':') => {
                        *i = j + 1;
                        plain_until(chars, i, out, true);
                    }
                    Some('|') => {
                        // A choice: the first option.
                        *i = j + 1;
                        let mut first = String::new();
                        let mut done = false;
                        while *i < chars.len() {
                            let c = chars[*i];
                            if c == '\\' && *i + 1 < chars.len() {
                                if !done {
                                    first.push(chars[*i + 1]);
                                }
                                *i += 2;
                                continue;
                            }
                            *i += 1;
                            if c == '|' && chars.get(*i) == Some(&'}') {
                                *i += 1;
                                break;
                            }
                            if c == ',' {
                                done = true;
                            } else if !done {
                                first.push(c);
                            }
                        }
                        out.push_str(&first);
                    }
                    // Not a tab stop (a variable, or stray text): as is.
                    _ => {
                        out.push(c);
                        *i += 1;
                    }
                }
            }
            _ => {
                out.push(c);
                *i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_become_plain_text() {
        assert_eq!(snippet_to_plain("session: $1"), "session: ");
        assert_eq!(
            snippet_to_plain("agent ${1:name}:\n  model: ${2|sonnet,opus,haiku|}\n$0"),
            "agent name:\n  model: sonnet\n"
        );
        assert_eq!(snippet_to_plain("${1:a ${2:b}} c"), "a b c");
        assert_eq!(snippet_to_plain("cost \\$5 \\} ${3}"), "cost $5 } ");
        assert_eq!(snippet_to_plain("plain"), "plain");
    }
}
