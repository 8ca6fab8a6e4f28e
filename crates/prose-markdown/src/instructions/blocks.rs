//! The block structure of instruction text, by lines and indentation.
//!
//! Instruction text is written loosely: the seed itself continues an
//! `_if_ … like:` paragraph after a fenced pattern with `, _then_:`, and
//! nests a list under it with four spaces where markdown would see a lazy
//! continuation. So structure comes from lines, as a reader sees them:
//!
//! - a **node** is a heading, a list item, or a paragraph (a run of text
//!   lines; code lines in between belong to it). A line that starts with
//!   `_if_`, `_elif_` or `_else_` always starts a node;
//! - a heading's children are the nodes up to the next heading of its
//!   level or above; a list item's or paragraph's children are the nodes
//!   indented more than it; a paragraph that ends with `:` also owns the
//!   list items right below it at its own indentation (`_follow_:` then
//!   `1) …`);
//! - a node's **subtree** is its own lines and its children's.

use text_size::TextRange;

use crate::{
    markdown::Markdown,
    text::{self, range},
};

/// What a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKind {
    Blank,
    /// In a code block (fence lines included).
    Code,
    /// An ATX heading of this level.
    Heading(u8),
    /// A list item; `ordered` for `1)` / `1.` markers.
    Item {
        ordered: bool,
    },
    Text,
}

/// One line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line {
    pub start: usize,
    pub end: usize,
    /// The column of the first non-blank character (the marker of an item).
    pub col: u32,
    pub kind: LineKind,
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Heading(u8),
    Item { ordered: bool },
    Para,
}

/// A heading, list item or paragraph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub col: u32,
    /// Its own lines: from its first line's start to its last line's end.
    pub own: TextRange,
    /// Its own lines and all its descendants'.
    pub subtree: TextRange,
    pub parent: Option<usize>,
    /// The node before it with the same parent.
    pub prev_sibling: Option<usize>,
    /// Its last text line ends with `:`.
    pub colon: bool,
    /// Its last text line ends with `like:` (a fenced pattern follows).
    pub like_colon: bool,
}

/// Lines and nodes of a text; nodes in text order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Blocks {
    pub lines: Vec<Line>,
    pub nodes: Vec<Node>,
    /// For each line, the first line at or after it that is not blank
    /// (`lines.len()` when there is none).
    non_blank_from: Vec<u32>,
}

impl Blocks {
    /// No lines.
    pub(crate) const EMPTY: Blocks = Blocks {
        lines: Vec::new(),
        nodes: Vec::new(),
        non_blank_from: Vec::new(),
    };

    /// The node whose own lines contain `offset`.
    pub fn node_at(&self, offset: usize) -> Option<usize> {
        let at = u32::try_from(offset).ok()?;
        let i = self
            .nodes
            .partition_point(|n| u32::from(n.own.start()) <= at);
        let n = i.checked_sub(1)?;
        (u32::from(self.nodes[n].own.end()) >= at).then_some(n)
    }

    /// The first line after line `li` that is not blank.
    pub fn next_non_blank(&self, li: usize) -> Option<usize> {
        let n = *self.non_blank_from.get(li + 1)? as usize;
        (n < self.lines.len()).then_some(n)
    }

    /// The index of the line containing `offset`.
    pub fn line_at(&self, offset: usize) -> usize {
        self.lines
            .partition_point(|l| l.start <= offset)
            .saturating_sub(1)
    }
}

/// Whether a line's text starts a chain keyword (`_if_`, `_elif_`, `_else_`).
fn starts_with_branch(s: &str) -> bool {
    let s = s.trim_start();
    ["_if_", "_elif_", "_else_"].iter().any(|k| {
        s.strip_prefix(k).is_some_and(|rest| {
            !rest
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
    })
}

/// The kind of a non-blank line outside code, and the offset where its
/// text starts (after a heading's `#`s or an item's marker).
fn classify(s: &str) -> (LineKind, usize) {
    let (col, lead) = text::indent(s);
    let rest = &s[lead..];
    if col <= 3 {
        let hashes = rest.bytes().take_while(|&b| b == b'#').count();
        if (1..=6).contains(&hashes)
            && rest[hashes..]
                .bytes()
                .next()
                .is_none_or(|b| b == b' ' || b == b'\t')
        {
            return (LineKind::Heading(hashes as u8), lead + hashes);
        }
    }
    let t = rest.trim_end();
    if t.len() >= 3
        && let Some(c) = t.bytes().next().filter(|c| matches!(c, b'-' | b'*' | b'_'))
        && t.bytes().all(|b| b == c || b == b' ' || b == b'\t')
    {
        // A thematic break: not an item.
        return (LineKind::Text, lead);
    }
    let rb = rest.as_bytes();
    let after_marker = |n: usize| rb.get(n).is_none_or(|&b| b == b' ' || b == b'\t');
    if matches!(rb.first(), Some(b'-' | b'*' | b'+')) && after_marker(1) {
        return (LineKind::Item { ordered: false }, lead + 1);
    }
    let digits = rb.iter().take_while(|b| b.is_ascii_digit()).count();
    if (1..=9).contains(&digits)
        && matches!(rb.get(digits), Some(b'.' | b')'))
        && after_marker(digits + 1)
    {
        return (LineKind::Item { ordered: true }, lead + digits + 1);
    }
    (LineKind::Text, lead)
}

/// Builds the lines and nodes of `text`.
pub(crate) fn blocks(text: &str, md: &Markdown) -> Blocks {
    let mut out = Blocks::default();
    for l in text::lines(text) {
        let s = l.text(text);
        let first = l.start + (s.len() - s.trim_start().len());
        let (col, _) = text::indent(s);
        let kind = if s.trim().is_empty() {
            LineKind::Blank
        } else if md.code_at(first).is_some_and(|c| c.is_block()) {
            LineKind::Code
        } else {
            classify(s).0
        };
        out.lines.push(Line {
            start: l.start,
            end: l.end,
            col,
            kind,
        });
    }
    // The node taking continuation lines, whether a blank line has been
    // seen since its last line, and whether its last addition was a fence.
    let mut open: Option<usize> = None;
    let mut blank = false;
    let mut after_fence = false;
    let mut stack: Vec<usize> = Vec::new();
    // The last child of each node, and the last node at the top level.
    let mut last_child: Vec<Option<usize>> = Vec::new();
    let mut last_top: Option<usize> = None;
    for li in 0..out.lines.len() {
        let line = out.lines[li];
        let s = &text[line.start..line.end];
        match line.kind {
            LineKind::Blank => blank = true,
            LineKind::Code => {
                if let Some(n) = open {
                    let node = &mut out.nodes[n];
                    if !blank || node.like_colon {
                        node.own = node.own.cover(range(line.start, line.end));
                        blank = false;
                        after_fence = true;
                    }
                }
            }
            LineKind::Text
                if open.is_some()
                    && !starts_with_branch(s)
                    && (!blank || (after_fence && s.trim_start().starts_with(','))) =>
            {
                let n = open.expect("checked");
                let node = &mut out.nodes[n];
                node.own = node.own.cover(range(line.start, line.end));
                set_colon(node, s);
                blank = false;
                after_fence = false;
            }
            kind => {
                let node_kind = match kind {
                    LineKind::Heading(h) => NodeKind::Heading(h),
                    LineKind::Item { ordered } => NodeKind::Item { ordered },
                    _ => NodeKind::Para,
                };
                let idx = out.nodes.len();
                let parent = place_in_tree(&out.nodes, &mut stack, node_kind, line.col);
                let slot = match parent {
                    Some(p) => &mut last_child[p],
                    None => &mut last_top,
                };
                let prev_sibling = slot.replace(idx);
                last_child.push(None);
                let mut node = Node {
                    kind: node_kind,
                    col: line.col,
                    own: range(line.start, line.end),
                    subtree: range(line.start, line.end),
                    parent,
                    prev_sibling,
                    colon: false,
                    like_colon: false,
                };
                set_colon(&mut node, s);
                out.nodes.push(node);
                stack.push(idx);
                open = (!matches!(node_kind, NodeKind::Heading(_))).then_some(idx);
                blank = false;
                after_fence = false;
            }
        }
    }
    let mut next = out.lines.len() as u32;
    out.non_blank_from = vec![next; out.lines.len()];
    for i in (0..out.lines.len()).rev() {
        if out.lines[i].kind != LineKind::Blank {
            next = i as u32;
        }
        out.non_blank_from[i] = next;
    }
    for i in (0..out.nodes.len()).rev() {
        if let Some(p) = out.nodes[i].parent {
            let sub = out.nodes[i].subtree;
            let parent = &mut out.nodes[p];
            parent.subtree = parent.subtree.cover(sub);
        }
        let own = out.nodes[i].own;
        out.nodes[i].subtree = out.nodes[i].subtree.cover(own);
    }
    out
}

fn set_colon(node: &mut Node, line: &str) {
    let t = line.trim_end();
    node.colon = t.ends_with(':');
    let lower = t.to_ascii_lowercase();
    node.like_colon = lower.strip_suffix("like:").is_some_and(|before| {
        !before
            .bytes()
            .last()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
    });
}

/// Pops `stack` to the parent of a new node and returns it.
fn place_in_tree(
    nodes: &[Node],
    stack: &mut Vec<usize>,
    kind: NodeKind,
    col: u32,
) -> Option<usize> {
    while let Some(&top) = stack.last() {
        let t = &nodes[top];
        let contains = match (t.kind, kind) {
            (NodeKind::Heading(th), NodeKind::Heading(h)) => th < h,
            (NodeKind::Heading(_), _) => true,
            (_, NodeKind::Heading(_)) => false,
            (NodeKind::Para, NodeKind::Item { .. }) if t.colon && t.col == col => true,
            _ => t.col < col,
        };
        if contains {
            return Some(top);
        }
        stack.pop();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{markdown::scan, text::slice};

    fn tree(t: &str) -> String {
        let md = scan(t);
        let b = blocks(t, &md);
        let mut out = String::new();
        for (i, n) in b.nodes.iter().enumerate() {
            let mut depth = 0;
            let mut p = n.parent;
            while let Some(q) = p {
                depth += 1;
                p = b.nodes[q].parent;
            }
            let first = slice(t, n.own).lines().next().unwrap_or("").trim();
            out.push_str(&format!(
                "{}{i} {:?} {:?} sub-to-line {}{}\n",
                "  ".repeat(depth),
                n.kind,
                first,
                crate::text::line_number(t, usize::from(n.subtree.end())),
                n.prev_sibling
                    .map(|s| format!(" prev {s}"))
                    .unwrap_or_default()
            ));
        }
        out
    }

    #[test]
    fn sop_structure() {
        let t = "# SOP\n\n## _if_ _resumed_ like \"SGN_RESUME\", _then_:\n- _if_ a, _then_:\n    - _terminate_ \"x\".\n- _elif_ b, _then_:\n    - _run_ `y`.\n- _else_:\n    - _terminate_ \"z\".\n";
        expect_test::expect![[r###"
            0 Heading(1) "# SOP" sub-to-line 9
              1 Heading(2) "## _if_ _resumed_ like \"SGN_RESUME\", _then_:" sub-to-line 9
                2 Item { ordered: false } "- _if_ a, _then_:" sub-to-line 5
                  3 Item { ordered: false } "- _terminate_ \"x\"." sub-to-line 5
                4 Item { ordered: false } "- _elif_ b, _then_:" sub-to-line 7 prev 2
                  5 Item { ordered: false } "- _run_ `y`." sub-to-line 7
                6 Item { ordered: false } "- _else_:" sub-to-line 9 prev 4
                  7 Item { ordered: false } "- _terminate_ \"z\"." sub-to-line 9
        "###]]
        .assert_eq(&tree(t));
    }

    #[test]
    fn chain_lines_colon_lists_and_fenced_patterns() {
        let t = "_if_ a, _then_ b.\n_elif_ c, _then_ _follow_:\n1) d\n2) e\n_else_ f.\n\n_if_ _instructed_ like:\n```md\n_ask_ \"{q}\"\n```\n, _then_:\n    - _if_ g, _then_ h.\nlazy\n\nplain\n";
        expect_test::expect![[r#"
            0 Para "_if_ a, _then_ b." sub-to-line 1
            1 Para "_elif_ c, _then_ _follow_:" sub-to-line 4 prev 0
              2 Item { ordered: true } "1) d" sub-to-line 3
              3 Item { ordered: true } "2) e" sub-to-line 4 prev 2
            4 Para "_else_ f." sub-to-line 5 prev 1
            5 Para "_if_ _instructed_ like:" sub-to-line 12 prev 4
              6 Item { ordered: false } "- _if_ g, _then_ h." sub-to-line 13
            7 Para "plain" sub-to-line 15 prev 5
        "#]]
        .assert_eq(&tree(t));
    }

    #[test]
    fn node_at_and_thematic_breaks() {
        let t = "a\n---\n\n- b\n";
        let md = scan(t);
        let b = blocks(t, &md);
        assert_eq!(b.node_at(0), Some(0));
        assert_eq!(
            b.node_at(t.find('b').unwrap()),
            b.nodes.len().checked_sub(1)
        );
    }
}
