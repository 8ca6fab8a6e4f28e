//! What the markdown parser tells both languages: where code is (fenced
//! and indented blocks, code spans, HTML, front matter, link targets),
//! the fences with their info strings and content, and the headings.
//!
//! Slash commands and `_keyword_`s are never looked for inside code, and a
//! host injects OpenProse and Pattern Dialect into ```` ```prose ```` and
//! ```` ```dialect ```` fences ([`fences`], [`Fence::guest`]).

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};
use text_size::{TextRange, TextSize};

use crate::text::range;

/// What kind of code a [`CodeRegion`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeKind {
    /// A fenced block (```` ``` ```` or `~~~`), fences included.
    Fenced,
    /// A block indented by four spaces.
    Indented,
    /// An inline code span, backticks included.
    Span,
    /// An HTML block.
    HtmlBlock,
    /// Inline HTML (a tag in a paragraph).
    Html,
    /// YAML front matter (`---` … `---` at the start).
    Metadata,
    /// The destination of a link or image (`(…)` of `[text](…)`, or an
    /// autolink `<…>`).
    LinkTarget,
}

/// A range of the text that is code, not prose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CodeRegion {
    pub kind: CodeKind,
    /// The whole region (fences, backticks and markers included).
    pub range: TextRange,
    /// What is inside: a block's content lines, a span's text between the
    /// backticks; the whole range for the other kinds.
    pub content: TextRange,
}

impl CodeRegion {
    /// Whether the region is a block (it covers whole lines).
    pub fn is_block(&self) -> bool {
        matches!(
            self.kind,
            CodeKind::Fenced | CodeKind::Indented | CodeKind::Metadata | CodeKind::HtmlBlock
        )
    }
}

/// A language that a host injects into fences of its info string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Guest {
    /// ```` ```prose ````: an OpenProse program.
    OpenProse,
    /// ```` ```dialect ````: Pattern Dialect.
    Dialect,
}

/// A fenced code block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fence {
    /// The whole block, from the opening fence to the end of the closing
    /// fence line (or of the container, when it is never closed).
    pub range: TextRange,
    /// The info string after the opening fence, trimmed (`prose`,
    /// `json title="x"`).
    pub info: String,
    /// Where the info string is (empty at the end of the opening fence
    /// when there is none).
    pub info_range: TextRange,
    /// The first word of the info string, lowercased (`prose`).
    pub lang: String,
    /// From the first content byte to the last (empty, at the line after
    /// the opening fence, when the block is empty).
    pub content: TextRange,
    /// The content line by line, without the indentation or `>` markers of
    /// the containers the fence sits in. For a fence at the top level these
    /// ranges are contiguous and cover [`Fence::content`] exactly; inside a
    /// list item or block quote the host joins them (and maps each back).
    pub lines: Vec<TextRange>,
    /// Whether a closing fence was found.
    pub closed: bool,
}

impl Fence {
    /// The language a host should inject into this fence, if any.
    pub fn guest(&self) -> Option<Guest> {
        match self.lang.as_str() {
            "prose" | "openprose" => Some(Guest::OpenProse),
            "dialect" => Some(Guest::Dialect),
            _ => None,
        }
    }

    /// Whether the content is exactly [`Fence::content`] (no container
    /// markers inside it), so a guest can be parsed on that range as is.
    pub fn is_contiguous(&self) -> bool {
        self.lines.windows(2).all(|w| w[0].end() == w[1].start())
    }
}

/// A heading (`# …` or an underlined one).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// The heading's whole line(s).
    pub range: TextRange,
    /// Its text, without markers and markup.
    pub text: String,
}

/// The markdown facts of a text: code regions (sorted by start), fences
/// and headings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Markdown {
    pub code: Vec<CodeRegion>,
    pub fences: Vec<Fence>,
    pub headings: Vec<Heading>,
}

impl Markdown {
    /// No code, fence or heading.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty() && self.fences.is_empty() && self.headings.is_empty()
    }

    /// The code region that contains `offset`, if any (a region contains
    /// its start and excludes its end).
    pub fn code_at(&self, offset: usize) -> Option<&CodeRegion> {
        let at = u32::try_from(offset).ok()?;
        let i = self
            .code
            .partition_point(|r| u32::from(r.range.start()) <= at);
        self.code[..i]
            .iter()
            .rev()
            .take(4)
            .find(|r| r.range.contains(TextSize::new(at)))
    }

    /// Whether `offset` is inside code of any kind.
    pub fn is_code(&self, offset: usize) -> bool {
        self.code_at(offset).is_some()
    }

    /// The code regions that overlap `r`.
    pub fn code_in(&self, r: TextRange) -> impl Iterator<Item = &CodeRegion> {
        let i = self.code.partition_point(|c| c.range.end() <= r.start());
        self.code[i..]
            .iter()
            .take_while(move |c| c.range.start() < r.end())
    }
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// Parses `text` as CommonMark (with tables, footnotes, strikethrough,
/// task lists and YAML front matter) and collects its [`Markdown`] facts.
pub fn scan(text: &str) -> Markdown {
    let mut md = Markdown::default();
    // Open containers whose facts are collected from their children.
    let mut fence: Option<(usize, String, Vec<TextRange>)> = None;
    let mut heading: Option<(u8, usize, String)> = None;
    let mut links: Vec<(usize, usize)> = Vec::new(); // (start, end of last child)
    for (event, r) in Parser::new_ext(text, options()).into_offset_iter() {
        if let Some(last) = links.last_mut()
            && last.1 != usize::MAX
            && !matches!(event, Event::End(TagEnd::Link | TagEnd::Image))
        {
            last.1 = last.1.max(r.end);
        }
        if let (Some((_, _, s)), Event::Text(t) | Event::Code(t)) = (heading.as_mut(), &event) {
            s.push_str(t);
        }
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                fence = Some((r.start, info.to_string(), Vec::new()));
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)) => {
                md.code.push(region(CodeKind::Indented, r.start, r.end));
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((start, info, lines)) = fence.take() {
                    let f = make_fence(text, start, r.end, &info, lines);
                    md.code.push(CodeRegion {
                        kind: CodeKind::Fenced,
                        range: f.range,
                        content: f.content,
                    });
                    md.fences.push(f);
                }
            }
            Event::Text(_) if fence.is_some() => {
                if let Some((_, _, lines)) = fence.as_mut() {
                    lines.push(range(r.start, r.end));
                }
            }
            Event::Start(Tag::HtmlBlock) => {
                md.code.push(region(CodeKind::HtmlBlock, r.start, r.end));
            }
            Event::InlineHtml(_) => md.code.push(region(CodeKind::Html, r.start, r.end)),
            Event::Start(Tag::MetadataBlock(_)) => {
                md.code.push(region(CodeKind::Metadata, r.start, r.end));
            }
            Event::Code(_) => md.code.push(code_span(text, r.start, r.end)),
            Event::Start(Tag::Link {
                link_type: LinkType::Autolink | LinkType::Email,
                ..
            }) => {
                md.code.push(region(CodeKind::LinkTarget, r.start, r.end));
                // Its End event pops this: the target is already recorded.
                links.push((r.start, usize::MAX));
            }
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => {
                // The children start after `[`.
                links.push((r.start, r.start + 1));
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if let Some((start, last_child)) = links.pop()
                    && last_child != usize::MAX
                {
                    let target_start = if last_child > start + 1 {
                        last_child
                    } else {
                        start
                    };
                    if target_start < r.end {
                        md.code
                            .push(region(CodeKind::LinkTarget, target_start, r.end));
                    }
                }
            }
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some((level as u8, r.start, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, start, s)) = heading.take() {
                    let end = trim_end_newline(text, start, r.end);
                    md.headings.push(Heading {
                        level,
                        range: range(start, end),
                        text: s.trim().to_string(),
                    });
                }
            }
            _ => {}
        }
    }
    md.code.sort_by_key(|c| (c.range.start(), c.range.end()));
    md
}

/// The fences of `text` (every fenced code block, in order).
pub fn fences(text: &str) -> Vec<Fence> {
    scan(text).fences
}

fn region(kind: CodeKind, start: usize, end: usize) -> CodeRegion {
    CodeRegion {
        kind,
        range: range(start, end),
        content: range(start, end),
    }
}

fn code_span(text: &str, start: usize, end: usize) -> CodeRegion {
    let raw = text.get(start..end).unwrap_or("");
    let ticks = raw.bytes().take_while(|&b| b == b'`').count();
    let trailing = raw.bytes().rev().take_while(|&b| b == b'`').count();
    let (cs, ce) = if ticks + trailing <= raw.len() && ticks > 0 {
        (start + ticks, end - trailing)
    } else {
        (start, end)
    };
    CodeRegion {
        kind: CodeKind::Span,
        range: range(start, end),
        content: range(cs, ce.max(cs)),
    }
}

fn trim_end_newline(text: &str, start: usize, mut end: usize) -> usize {
    let b = text.as_bytes();
    while end > start && matches!(b.get(end - 1), Some(b'\n' | b'\r')) {
        end -= 1;
    }
    end
}

fn make_fence(text: &str, start: usize, end: usize, info: &str, lines: Vec<TextRange>) -> Fence {
    let end = trim_end_newline(text, start, end);
    let block = text.get(start..end).unwrap_or("");
    let first_line_len = block.find('\n').unwrap_or(block.len());
    let first = &block[..first_line_len];
    // The opening fence: indentation, then a run of ` or ~.
    let lead = first.len() - first.trim_start().len();
    let fence_char = first[lead..].bytes().next().unwrap_or(b'`');
    let run = first[lead..]
        .bytes()
        .take_while(|&b| b == fence_char)
        .count();
    let after = lead + run;
    let info_text = first.get(after..).unwrap_or("");
    let info_lead = info_text.len() - info_text.trim_start().len();
    let info_start = start + after + info_lead;
    let info_range = range(info_start, info_start + info_text.trim().len());
    let trimmed_info = info.trim().to_string();
    let lang = trimmed_info
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let last_line = block.rsplit('\n').next().unwrap_or("");
    let last = last_line.trim();
    let closed = block.contains('\n')
        && last.len() >= run
        && !last.is_empty()
        && last.bytes().all(|b| b == fence_char);
    let content_start = (start + first_line_len + 1).min(end);
    let content = match (lines.first(), lines.last()) {
        (Some(a), Some(b)) => {
            let e = usize::from(b.end());
            let e = trim_end_newline(text, usize::from(a.start()), e);
            range(usize::from(a.start()), e)
        }
        _ => range(content_start, content_start),
    };
    Fence {
        range: range(start, end),
        info: trimmed_info,
        info_range,
        lang,
        content,
        lines,
        closed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::slice;

    #[test]
    fn fences_report_info_content_and_guest() {
        let t =
            "# Title\n\n```prose\nsession \"a\"\n```\n\n~~~dialect extra\nx\ny\n~~~\n\n```\n```\n";
        let fs = fences(t);
        assert_eq!(fs.len(), 3);
        assert_eq!(fs[0].guest(), Some(Guest::OpenProse));
        assert_eq!(slice(t, fs[0].content), "session \"a\"");
        assert_eq!(slice(t, fs[0].info_range), "prose");
        assert!(fs[0].closed && fs[0].is_contiguous());
        assert_eq!(fs[1].guest(), Some(Guest::Dialect));
        assert_eq!(fs[1].info, "dialect extra");
        assert_eq!(slice(t, fs[1].content), "x\ny");
        assert_eq!(fs[2].guest(), None);
        assert!(fs[2].content.is_empty());
        assert_eq!(slice(t, fs[2].info_range), "");
    }

    #[test]
    fn fence_in_a_list_item_has_line_segments() {
        let t = "- item\n\n  ```prose\n  a\n  b\n  ```\n";
        let f = &fences(t)[0];
        let lines: Vec<_> = f.lines.iter().map(|r| slice(t, *r)).collect();
        assert_eq!(lines, ["a\n", "b\n"]);
        assert!(!f.is_contiguous());
    }

    #[test]
    fn unclosed_fence_runs_to_the_end() {
        let t = "```prose\nsession \"a\"\n";
        let f = &fences(t)[0];
        assert!(!f.closed);
        assert_eq!(slice(t, f.content), "session \"a\"");
    }

    #[test]
    fn code_regions_cover_spans_html_links_and_front_matter() {
        let t = "---\ntitle: x\n---\n\nSee `a_if_b` and <b>x</b> at [site](https://x.io/_if_/) or <https://e.com>.\n\n    indented\n";
        let md = scan(t);
        let kinds: Vec<_> = md
            .code
            .iter()
            .map(|c| (c.kind, slice(t, c.range)))
            .collect();
        assert_eq!(
            kinds,
            [
                (CodeKind::Metadata, "---\ntitle: x\n---"),
                (CodeKind::Span, "`a_if_b`"),
                (CodeKind::Html, "<b>"),
                (CodeKind::Html, "</b>"),
                (CodeKind::LinkTarget, "](https://x.io/_if_/)"),
                (CodeKind::LinkTarget, "<https://e.com>"),
                (CodeKind::Indented, "indented\n"),
            ]
        );
        let span = md.code[1];
        assert_eq!(slice(t, span.content), "a_if_b");
        assert!(md.is_code(t.find("a_if_b").unwrap()));
        assert!(!md.is_code(t.find("See").unwrap()));
    }

    #[test]
    fn headings_have_text_and_level() {
        let t = "# One `x`\n\nTwo\n---\n";
        let hs = scan(t).headings;
        assert_eq!(hs.len(), 2);
        assert_eq!((hs[0].level, hs[0].text.as_str()), (1, "One x"));
        assert_eq!((hs[1].level, slice(t, hs[1].range)), (2, "Two\n---"));
    }
}
