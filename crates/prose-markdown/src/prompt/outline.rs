//! The outline of a prompt file: its phases, their commands, and the
//! headings of the content.

use text_size::TextRange;

use super::{Command, PromptFile};
use crate::{markdown, text};

/// What an outline entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutlineKind {
    Phase,
    Command,
    Heading,
}

/// One outline entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OutlineItem {
    pub label: String,
    pub detail: String,
    pub kind: OutlineKind,
    /// Everything the entry covers.
    pub range: TextRange,
    /// What to select when the entry is picked.
    pub selection_range: TextRange,
    pub children: Vec<OutlineItem>,
}

/// "Leading commands", "Content" (with the content's headings, nested by
/// level) and "Trailing commands", each present only when not empty.
pub fn outline(text: &str, file: &PromptFile) -> Vec<OutlineItem> {
    let mut out = Vec::new();
    if let Some(p) = phase(
        "Leading commands",
        "processed before the model runs",
        text,
        &file.leading,
    ) {
        out.push(p);
    }
    if let Some(content) = file.content {
        let headings: Vec<_> = markdown::scan(text)
            .headings
            .into_iter()
            .filter(|h| content.contains_range(h.range))
            .collect();
        let mut stack: Vec<(u8, OutlineItem)> = Vec::new();
        let mut top = Vec::new();
        for (i, h) in headings.iter().enumerate() {
            // A heading's section runs to the next heading of its level or
            // above, or to the end of the content.
            let end = headings[i + 1..]
                .iter()
                .find(|n| n.level <= h.level)
                .map_or(content.end(), |n| n.range.start());
            let section = TextRange::new(h.range.start(), end.max(h.range.end()));
            let section = trim_end(text, section);
            close_to(&mut stack, &mut top, h.level);
            stack.push((
                h.level,
                OutlineItem {
                    label: h.text.clone(),
                    detail: String::new(),
                    kind: OutlineKind::Heading,
                    range: section,
                    selection_range: h.range,
                    children: Vec::new(),
                },
            ));
        }
        close_to(&mut stack, &mut top, 0);
        let first_line = first_line(text, content);
        out.push(OutlineItem {
            label: "Content".to_string(),
            detail: "sent to the model".to_string(),
            kind: OutlineKind::Phase,
            range: content,
            selection_range: first_line,
            children: top,
        });
    }
    if let Some(p) = phase(
        "Trailing commands",
        "processed after the model finishes",
        text,
        &file.trailing,
    ) {
        out.push(p);
    }
    out
}

/// Pops headings of level `>= level` into their parents (or `top`).
fn close_to(stack: &mut Vec<(u8, OutlineItem)>, top: &mut Vec<OutlineItem>, level: u8) {
    while stack.last().is_some_and(|(l, _)| *l >= level) {
        let (_, item) = stack.pop().expect("checked");
        match stack.last_mut() {
            Some((_, parent)) => parent.children.push(item),
            None => top.push(item),
        }
    }
}

/// `r` without trailing blanks and line breaks.
fn trim_end(text: &str, r: TextRange) -> TextRange {
    let s = text::slice(text, r);
    let len = s.trim_end().len();
    TextRange::at(r.start(), text_size::TextSize::new(len as u32))
}

fn first_line(text: &str, r: TextRange) -> TextRange {
    let s = text::slice(text, r);
    let len = s.find('\n').unwrap_or(s.len());
    TextRange::at(r.start(), text_size::TextSize::new(len as u32))
}

fn phase(label: &str, detail: &str, text: &str, cmds: &[Command]) -> Option<OutlineItem> {
    let (first, last) = (cmds.first()?, cmds.last()?);
    let range = first.range.cover(last.range);
    Some(OutlineItem {
        label: label.to_string(),
        detail: detail.to_string(),
        kind: OutlineKind::Phase,
        range,
        selection_range: first.name_range,
        children: cmds
            .iter()
            .map(|c| {
                let line = text::slice(text, c.range);
                let label = if line.chars().count() > 60 {
                    format!("{}…", line.chars().take(59).collect::<String>())
                } else {
                    line.to_string()
                };
                OutlineItem {
                    label,
                    detail: String::new(),
                    kind: OutlineKind::Command,
                    range: c.range,
                    selection_range: c.name_range,
                    children: Vec::new(),
                }
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::{parse_prompt_file, tests::at};
    use expect_test::expect;

    fn render(text: &str, items: &[OutlineItem], depth: usize, out: &mut String) {
        for i in items {
            out.push_str(&format!(
                "{}{:?} {:?} {} sel {}\n",
                "  ".repeat(depth),
                i.kind,
                i.label,
                at(text, i.range),
                at(text, i.selection_range)
            ));
            render(text, &i.children, depth + 1, out);
        }
    }

    #[test]
    fn phases_commands_and_headings() {
        let text = "/read a.md\n/run\n\n# Task\nDo it.\n## Detail\nMore.\n# Other\nEnd.\n\n/push name=t \"Next\"\n";
        let mut out = String::new();
        render(text, &outline(text, &parse_prompt_file(text)), 0, &mut out);
        expect![[r#"
            Phase "Leading commands" 1:1-2:5 sel 1:1-1:6
              Command "/read a.md" 1:1-1:11 sel 1:1-1:6
              Command "/run" 2:1-2:5 sel 2:1-2:5
            Phase "Content" 4:1-9:5 sel 4:1-4:7
              Heading "Task" 4:1-7:6 sel 4:1-4:7
                Heading "Detail" 6:1-7:6 sel 6:1-6:10
              Heading "Other" 8:1-9:5 sel 8:1-8:8
            Phase "Trailing commands" 11:1-11:20 sel 11:1-11:6
              Command "/push name=t \"Next\"" 11:1-11:20 sel 11:1-11:6
        "#]]
        .assert_eq(&out);
    }

    #[test]
    fn only_commands() {
        let text = "/read a.md\n";
        let items = outline(text, &parse_prompt_file(text));
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].label, "Leading commands");
    }
}
