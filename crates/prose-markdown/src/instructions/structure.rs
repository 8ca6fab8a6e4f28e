//! From the lexical pass and the block structure to [`Instructions`]:
//! keyword roles, patterns, branches and their scopes, variable roles,
//! `_spawn_` targets and near-misses of keywords.

use text_size::{TextRange, TextSize};

use super::{
    Branch, FragmentKind, Instructions, Keyword, KeywordOccurrence, KeywordRole, NearMiss, Pattern,
    SignalOccurrence, SpawnTarget, Variable, VariableRole,
    blocks::{self, Blocks, LineKind},
    scan::{self, Lexed, Place},
    vocabulary::KEYWORDS,
};
use crate::{
    lookup::clean_path,
    markdown::{self, CodeKind, Markdown},
    text::{self, edit_distance, range},
};

pub(crate) fn analyze(text: &str, kind: FragmentKind) -> Instructions {
    let md = markdown::scan(text);
    let lexed = scan::scan(text, &md);
    if holds_no_statement(&lexed) {
        return without_statements(kind, md, &lexed);
    }
    analyze_lexed(text, kind, md, lexed)
}

/// Whether the lexical pass found no `_word_` and no `like`: nothing a
/// keyword or a pattern comes from ([`without_statements`]).
fn holds_no_statement(lexed: &Lexed) -> bool {
    lexed.words.is_empty() && lexed.likes.is_empty()
}

/// The analysis of a text whose lexical pass found no `_word_` and no
/// `like`: markdown with `{variables}` and signals, the commonest rich
/// prompt (a list, a heading, a code span, indented lines). Every
/// keyword comes from a word and every pattern from a `like`, so there
/// are no keywords, patterns, branches, `_spawn_` targets or near-misses,
/// the text does not use the language, and each variable is free (in a
/// ```` ```md ```` example or not): the full analysis's result without
/// the line structure it would build for the statements
/// (`analyze_lexed`; the tests compare the two).
fn without_statements(kind: FragmentKind, md: Markdown, lexed: &Lexed) -> Instructions {
    let variables = variables(lexed, &md, &Blocks::EMPTY, &[], &[], &[], &[]);
    Instructions {
        kind,
        keywords: Vec::new(),
        signals: signals(lexed),
        patterns: Vec::new(),
        variables,
        branches: Vec::new(),
        near_misses: Vec::new(),
        spawns: Vec::new(),
        stray_thens: Vec::new(),
        uses_language: false,
        scopes: ScopeTree::default(),
        md,
        detail: None,
    }
}

/// The signals the lexical pass found.
fn signals(lexed: &Lexed) -> Vec<SignalOccurrence> {
    lexed
        .signals
        .iter()
        .map(|s| SignalOccurrence {
            name: s.name.clone(),
            range: s.range,
            in_code: s.place != Place::Prose,
        })
        .collect()
}

/// The whole analysis after the markdown and lexical passes.
fn analyze_lexed(text: &str, kind: FragmentKind, md: Markdown, lexed: Lexed) -> Instructions {
    let blocks = blocks::blocks(text, &md);
    let quotes: Vec<TextRange> = lexed
        .quotes
        .iter()
        .filter(|q| q.place == Place::Prose)
        .map(|q| q.range)
        .collect();
    let mut keywords: Vec<KeywordOccurrence> = lexed
        .words
        .iter()
        .filter_map(|w| {
            let keyword = w.keyword?;
            let role = match w.place {
                Place::Example => KeywordRole::Example,
                _ if within(&quotes, w.range) => KeywordRole::Quoted,
                _ => KeywordRole::Statement,
            };
            Some(KeywordOccurrence {
                keyword,
                range: w.range,
                role,
            })
        })
        .collect();
    mark_mentions(text, &mut keywords);
    let patterns = patterns(text, &lexed, &blocks, &md);
    let (branches, stray_thens) = branches(&keywords, &blocks, &lexed, &patterns);
    let args = action_args(text, &keywords, &md);
    let spawns = args
        .iter()
        .filter(|(k, _)| *k == Keyword::Spawn)
        .map(|(_, span)| {
            let content = text::slice(text, *span);
            SpawnTarget {
                path: clean_path(content),
                range: *span,
                templated: content.contains('{'),
            }
        })
        .collect();
    let variables = variables(&lexed, &md, &blocks, &keywords, &branches, &patterns, &args);
    let signals = signals(&lexed);
    let branches_for_tree: Vec<Option<TextRange>> = branches.iter().map(|b| b.scope).collect();
    let uses_language = uses_language(text, &keywords, &branches, &md, &lexed, &blocks);
    let near_misses = near_misses(text, &lexed, &quotes, &keywords, &blocks, uses_language);
    // Only the keywords' checks read the passes again.
    let detail = (!keywords.is_empty()).then(|| Box::new(super::Detail { lexed, blocks }));
    Instructions {
        kind,
        keywords,
        signals,
        patterns,
        variables,
        branches,
        near_misses,
        spawns,
        stray_thens,
        uses_language,
        scopes: ScopeTree::new(&branches_for_tree),
        md,
        detail,
    }
}

/// Whether a statement keyword is a use of the language: a coined word,
/// or a keyword in its form (see [`super::is_instruction_file`]).
fn uses_language(
    text: &str,
    keywords: &[KeywordOccurrence],
    branches: &[Branch],
    md: &Markdown,
    lexed: &Lexed,
    blocks: &Blocks,
) -> bool {
    if branches.iter().any(|b| b.then_range.is_some()) {
        return true;
    }
    keywords
        .iter()
        .filter(|k| k.role == KeywordRole::Statement)
        .any(|k| {
            let end = usize::from(k.range.end());
            match k.keyword {
                Keyword::Elif
                | Keyword::Instructed
                | Keyword::InstructedPreviously
                | Keyword::RepliedPreviously
                | Keyword::Subreplied
                | Keyword::SubrepliedPreviously => true,
                Keyword::Ask => quote_after(text, lexed, end).is_some(),
                // Also with the message unquoted, when it is a signal or code
                // (K004 then asks for quotes).
                Keyword::Terminate => {
                    quote_after(text, lexed, end).is_some()
                        || code_span_after(text, md, end).is_some()
                        || text[end..]
                            .trim_start_matches([' ', '\t', ':'])
                            .starts_with("SGN_")
                }
                Keyword::Run | Keyword::Spawn => code_span_after(text, md, end).is_some(),
                Keyword::Follow => {
                    text[end..].starts_with(':')
                        && blocks.next_non_blank(blocks.line_at(end)).is_some_and(|n| {
                            blocks.lines[n].kind == LineKind::Item { ordered: true }
                        })
                }
                _ => false,
            }
        })
}

/// The actions of the branches as a containment forest, so the branches
/// around a position are found without looking at every branch.
///
/// Scopes nest or are disjoint (a branch's action lies inside its block's
/// subtree, and inline branches close at the next `_elif_`/`_else_`): the
/// scopes containing a position are the last scope starting before it and
/// its ancestors.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct ScopeTree {
    /// `(scope, branch, parent)` sorted by start, longest first; `parent`
    /// indexes this list.
    order: Vec<(TextRange, usize, Option<usize>)>,
}

impl ScopeTree {
    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    pub(crate) fn new(scopes: &[Option<TextRange>]) -> ScopeTree {
        let mut order: Vec<(TextRange, usize, Option<usize>)> = scopes
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some(((*s)?, i, None)))
            .collect();
        order.sort_by_key(|(r, i, _)| (r.start(), std::cmp::Reverse(r.end()), *i));
        let mut stack: Vec<usize> = Vec::new();
        for j in 0..order.len() {
            let r = order[j].0;
            while stack.last().is_some_and(|&t| !order[t].0.contains_range(r)) {
                stack.pop();
            }
            order[j].2 = stack.last().copied();
            stack.push(j);
        }
        ScopeTree { order }
    }

    /// The branches whose scope contains `r`, innermost first.
    pub(crate) fn enclosing(&self, r: TextRange) -> Vec<usize> {
        let mut out = Vec::new();
        let i = self
            .order
            .partition_point(|(s, _, _)| s.start() <= r.start());
        let mut at = i.checked_sub(1);
        while let Some(j) = at {
            let (s, branch, parent) = self.order[j];
            if s.contains_range(r) {
                out.push(branch);
            }
            at = parent;
        }
        out
    }
}

/// The union of `ranges`, as sorted, disjoint ranges for [`within`].
pub(crate) fn union(ranges: impl Iterator<Item = TextRange>) -> Vec<TextRange> {
    let mut v: Vec<TextRange> = ranges.collect();
    v.sort_by_key(|r| (r.start(), std::cmp::Reverse(r.end())));
    let mut out: Vec<TextRange> = Vec::with_capacity(v.len());
    for r in v {
        match out.last_mut() {
            Some(last) if r.start() <= last.end() => *last = last.cover(r),
            _ => out.push(r),
        }
    }
    out
}

/// Whether `s` starts with `prefix`, ignoring ASCII case.
fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    s.as_bytes()
        .get(..prefix.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// Whether `r` lies inside one of the sorted, disjoint `ranges`.
pub(crate) fn within(ranges: &[TextRange], r: TextRange) -> bool {
    let i = ranges.partition_point(|q| q.start() <= r.start());
    i > 0 && ranges[i - 1].contains_range(r)
}

/// Keywords named in prose about the language: a run such as "the _if_,
/// _then_ and _else_ keywords" (keywords joined by commas, `and`, `or`
/// or `/`, followed by the word "keyword(s)").
fn mark_mentions(text: &str, keywords: &mut [KeywordOccurrence]) {
    let stmt: Vec<usize> = (0..keywords.len())
        .filter(|&i| keywords[i].role == KeywordRole::Statement)
        .collect();
    let mut run_start = 0;
    for (j, &i) in stmt.iter().enumerate() {
        let joined = stmt.get(j + 1).is_some_and(|&n| {
            let between = text::slice(
                text,
                range(
                    usize::from(keywords[i].range.end()),
                    usize::from(keywords[n].range.start()),
                ),
            );
            let b = between.trim();
            ["", ",", "and", "or", "/", "&", ", and", ", or", "and/or"]
                .iter()
                .any(|j| b.eq_ignore_ascii_case(j))
        });
        if joined {
            continue;
        }
        let after = &text[usize::from(keywords[i].range.end())..];
        let next_word =
            after.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ')' | '*' | '\''));
        if starts_with_ignore_case(next_word, "keyword") {
            for &k in &stmt[run_start..=j] {
                keywords[k].role = KeywordRole::Mention;
            }
        }
        run_start = j + 1;
    }
}

/// Every `like "…"` and `like:` + fenced block.
fn patterns(text: &str, lexed: &Lexed, blocks: &Blocks, md: &Markdown) -> Vec<Pattern> {
    let mut out = Vec::new();
    for l in &lexed.likes {
        if matches!(l.place, Place::Span(_)) {
            continue;
        }
        let after = usize::from(l.range.end());
        let rest = &text[after..];
        let gap = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let at = after + gap;
        let qi = lexed
            .quotes
            .partition_point(|q| usize::from(q.range.start()) < at);
        if let Some(q) = lexed.quotes.get(qi)
            && usize::from(q.range.start()) == at
        {
            out.push(Pattern {
                like_range: l.range,
                negated: l.negated,
                range: q.range,
                text_range: q.inner,
                block: false,
                in_example: l.place == Place::Example,
            });
            continue;
        }
        // `like:` at the end of its line, then a fenced block.
        let colon_ends_line = text[at..].strip_prefix(':').is_some_and(|r| {
            let r = r.trim_start_matches([' ', '\t', '\r']);
            r.is_empty() || r.starts_with('\n')
        });
        if l.place != Place::Prose || !colon_ends_line {
            continue;
        }
        let li = blocks.line_at(at);
        let next = blocks.next_non_blank(li).map(|n| &blocks.lines[n]);
        let Some(next) = next.filter(|ln| ln.kind == LineKind::Code) else {
            continue;
        };
        let first = next.start
            + (text[next.start..next.end].len() - text[next.start..next.end].trim_start().len());
        if let Some(f) = md
            .fences
            .iter()
            .find(|f| usize::from(f.range.start()) == first && scan::is_example_fence(&f.lang))
        {
            out.push(Pattern {
                like_range: l.range,
                negated: l.negated,
                range: f.content,
                text_range: f.content,
                block: true,
                in_example: false,
            });
        }
    }
    out
}

/// The branches of every `_if_`/`_elif_`/`_else_` chain, and the
/// `_then_`s that belong to none.
fn branches(
    keywords: &[KeywordOccurrence],
    blocks: &Blocks,
    lexed: &Lexed,
    patterns: &[Pattern],
) -> (Vec<Branch>, Vec<TextRange>) {
    let mut out: Vec<Branch> = Vec::new();
    let mut stray = Vec::new();
    // Per node: whether a chain is still open after its last keyword.
    let mut chain_open = vec![false; blocks.nodes.len()];
    // Per branch: its node, and whether an inline successor closed it.
    let mut meta: Vec<(usize, bool)> = Vec::new();
    let mut node_of_last: Option<usize> = None;
    let mut open_chain = false;
    let mut waiting_then: Option<usize> = None;
    // The branches of the current node not yet closed, innermost last.
    let mut node_open: Vec<usize> = Vec::new();
    for k in keywords.iter().filter(|k| k.role == KeywordRole::Statement) {
        if !matches!(
            k.keyword,
            Keyword::If | Keyword::Elif | Keyword::Else | Keyword::Then
        ) {
            continue;
        }
        let Some(node) = blocks.node_at(usize::from(k.range.start())) else {
            continue;
        };
        if node_of_last != Some(node) {
            if let Some(prev) = node_of_last {
                chain_open[prev] = open_chain;
            }
            node_of_last = Some(node);
            open_chain = blocks.nodes[node]
                .prev_sibling
                .is_some_and(|s| chain_open[s]);
            waiting_then = None;
            node_open.clear();
        }
        match k.keyword {
            Keyword::Then => match waiting_then.take() {
                Some(b) => {
                    out[b].then_range = Some(k.range);
                    out[b].condition =
                        Some(TextRange::new(out[b].keyword_range.end(), k.range.start()));
                    out[b].scope = Some(TextRange::empty(k.range.end()));
                }
                None => stray.push(k.range),
            },
            kw => {
                if matches!(kw, Keyword::Elif | Keyword::Else) {
                    // Close the nearest open branch of this node at this keyword.
                    if let Some(prev) = node_open.pop() {
                        meta[prev].1 = true;
                        if let Some(s) = out[prev].scope.as_mut() {
                            *s = TextRange::new(s.start(), k.range.start().max(s.start()));
                        }
                    }
                }
                let follows_if = kw == Keyword::If || open_chain;
                out.push(Branch {
                    keyword: kw,
                    keyword_range: k.range,
                    then_range: None,
                    condition: None,
                    scope: (kw == Keyword::Else).then(|| TextRange::empty(k.range.end())),
                    bindings: Vec::new(),
                    has_pattern: false,
                    follows_if,
                });
                meta.push((node, false));
                node_open.push(out.len() - 1);
                waiting_then = (kw != Keyword::Else).then_some(out.len() - 1);
                open_chain = kw != Keyword::Else;
            }
        }
    }
    // Open scopes run to the end of their node's subtree.
    for (b, &(node, closed)) in out.iter_mut().zip(&meta) {
        if let Some(s) = b.scope.as_mut()
            && !closed
        {
            *s = TextRange::new(s.start(), blocks.nodes[node].subtree.end().max(s.start()));
        }
        if let Some(c) = b.condition {
            let first = lexed
                .braces
                .partition_point(|br| br.range.start() < c.start());
            let mut names: Vec<String> = lexed.braces[first..]
                .iter()
                .take_while(|br| br.range.start() < c.end())
                .filter(|br| {
                    c.contains_range(br.range)
                        && !br.discard
                        && !br.choice
                        && !matches!(br.place, Place::Span(_))
                })
                .map(|br| br.name.clone())
                .collect();
            names.dedup();
            b.bindings = names;
            let p = patterns.partition_point(|p| p.like_range.start() < c.start());
            b.has_pattern = patterns
                .get(p)
                .is_some_and(|p| c.contains_range(p.like_range));
        }
    }
    (out, stray)
}

/// The code span right after each statement `_run_` and `_spawn_`.
fn action_args(
    text: &str,
    keywords: &[KeywordOccurrence],
    md: &Markdown,
) -> Vec<(Keyword, TextRange)> {
    keywords
        .iter()
        .filter(|k| {
            k.role == KeywordRole::Statement && matches!(k.keyword, Keyword::Run | Keyword::Spawn)
        })
        .filter_map(|k| {
            let span = code_span_after(text, md, usize::from(k.range.end()))?;
            Some((k.keyword, span))
        })
        .collect()
}

/// The content of a code span that starts after the blanks at `offset`.
pub(crate) fn code_span_after(text: &str, md: &Markdown, offset: usize) -> Option<TextRange> {
    let rest = &text[offset..];
    let at = offset + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
    md.code_at(at)
        .filter(|c| c.kind == CodeKind::Span && usize::from(c.range.start()) == at)
        .map(|c| c.content)
}

fn variables(
    lexed: &Lexed,
    md: &Markdown,
    blocks: &Blocks,
    keywords: &[KeywordOccurrence],
    branches: &[Branch],
    patterns: &[Pattern],
    args: &[(Keyword, TextRange)],
) -> Vec<Variable> {
    // Nodes holding an action statement: `{*}` there is in a statement.
    let action_nodes: Vec<usize> = keywords
        .iter()
        .filter(|k| {
            k.role == KeywordRole::Statement && k.keyword.category() == super::Category::Action
        })
        .filter_map(|k| blocks.node_at(usize::from(k.range.start())))
        .collect();
    // Sorted, disjoint ranges to look positions up in.
    let pattern_texts = union(patterns.iter().map(|p| p.text_range));
    let conditions = union(branches.iter().filter_map(|b| b.condition));
    let scopes = union(branches.iter().filter_map(|b| b.scope));
    let mut arg_spans: Vec<TextRange> = args.iter().map(|(_, a)| *a).collect();
    arg_spans.sort_by_key(|r| (r.start(), r.end()));
    let mut out = Vec::new();
    for br in &lexed.braces {
        if let Place::Span(i) = br.place {
            let content = md.code[i].content;
            if arg_spans
                .binary_search_by_key(&(content.start(), content.end()), |r| (r.start(), r.end()))
                .is_err()
            {
                continue;
            }
        }
        let in_example = br.place == Place::Example;
        let in_pattern = within(&pattern_texts, br.range);
        let in_condition = within(&conditions, br.range);
        let in_scope = within(&scopes, br.range);
        let role = if in_condition {
            VariableRole::Binding
        } else if in_pattern {
            VariableRole::Pattern
        } else if !in_example && in_scope {
            VariableRole::Use
        } else {
            VariableRole::Free
        };
        let in_action_node = blocks
            .node_at(usize::from(br.range.start()))
            .is_some_and(|n| action_nodes.binary_search(&n).is_ok());
        out.push(Variable {
            name: br.name.clone(),
            range: br.range,
            role,
            discard: br.discard,
            choice: br.choice,
            instruction: br.words > 4,
            in_example,
            in_pattern,
            in_statement: !in_example && (in_condition || in_scope || in_action_node),
        });
    }
    out
}

/// How far a misspelling may be from the keyword it stands for.
fn max_distance(keyword_len: usize, word_len: usize) -> usize {
    if keyword_len >= 8 && word_len >= 7 {
        2
    } else {
        1
    }
}

/// What the near-miss search looks at besides the word.
struct Around<'a> {
    text: &'a str,
    keywords: &'a [KeywordOccurrence],
    blocks: &'a Blocks,
    uses_language: bool,
    /// The end of the first statement `_if_`, if any.
    first_if: Option<TextSize>,
}

/// `_words_` that are close to a keyword and stand where that keyword
/// would (see [`fits_context`]), never ordinary emphasis.
fn near_misses(
    text: &str,
    lexed: &Lexed,
    quotes: &[TextRange],
    keywords: &[KeywordOccurrence],
    blocks: &Blocks,
    uses_language: bool,
) -> Vec<NearMiss> {
    let around = Around {
        text,
        keywords,
        blocks,
        uses_language,
        first_if: keywords
            .iter()
            .find(|k| k.role == KeywordRole::Statement && k.keyword == Keyword::If)
            .map(|k| k.range.end()),
    };
    let mut out = Vec::new();
    for w in &lexed.words {
        if w.keyword.is_some() || w.place != Place::Prose || within(quotes, w.range) {
            continue;
        }
        let lower = w.name.to_ascii_lowercase();
        let mut best: Option<(usize, Keyword)> = None;
        for k in KEYWORDS {
            let name = k.name();
            let d = if lower == name {
                0
            } else {
                // Inflections of the longer keywords (`_terminated_`,
                // `_resumes_`) are words; short keywords need their first
                // letter (`_task_` is no `_ask_`, `_it_` no `_if_` unless
                // it stands where `_if_` must).
                if name.len() >= 5 && (lower.starts_with(name) || name.starts_with(&lower)) {
                    continue;
                }
                if name.len() <= 4 && lower.as_bytes().first() != name.as_bytes().first() {
                    continue;
                }
                let bound = max_distance(name.len(), lower.len());
                if lower.len().abs_diff(name.len()) > bound {
                    continue;
                }
                let d = edit_distance(&lower, name);
                if d > bound {
                    continue;
                }
                d
            };
            if best.is_some_and(|(bd, _)| bd <= d) || !fits_context(&around, w.range, k) {
                continue;
            }
            best = Some((d, k));
        }
        if let Some((_, k)) = best {
            out.push(NearMiss {
                range: w.range,
                written: w.name.clone(),
                keyword: k,
            });
        }
    }
    out
}

/// How many keywords around a word the near-miss search looks at.
const LOOK_AROUND: usize = 64;

/// Whether the word at `r` stands where keyword `k` would: before the
/// argument `k` takes, or inside a statement that needs `k` there.
fn fits_context(a: &Around<'_>, r: TextRange, k: Keyword) -> bool {
    let (text, blocks) = (a.text, a.blocks);
    let end = usize::from(r.end());
    let start = usize::from(r.start());
    let next = text[end..].trim_start_matches([' ', '\t']);
    let next_char = next.chars().next();
    let node = blocks.node_at(start);
    let in_node = |o: &&KeywordOccurrence| blocks.node_at(usize::from(o.range.start())) == node;
    let is_stmt = |o: &&KeywordOccurrence| o.role == KeywordRole::Statement;
    let split = a.keywords.partition_point(|o| o.range.start() < r.start());
    let before = || {
        a.keywords[..split]
            .iter()
            .rev()
            .take(LOOK_AROUND)
            .take_while(in_node)
            .filter(is_stmt)
    };
    let after = || {
        a.keywords[split..]
            .iter()
            .take(LOOK_AROUND)
            .take_while(in_node)
            .filter(is_stmt)
    };
    let branch_kw = |o: &&KeywordOccurrence| {
        matches!(
            o.keyword,
            Keyword::If | Keyword::Elif | Keyword::Else | Keyword::Then
        )
    };
    // An `_if_`/`_elif_` earlier in this node with no `_then_` after it.
    let in_condition = || {
        before()
            .find(|o| matches!(o.keyword, Keyword::If | Keyword::Elif | Keyword::Then))
            .is_some_and(|o| o.keyword != Keyword::Then)
    };
    let line_start = blocks.lines[blocks.line_at(start)].start;
    let lead = &text[line_start.min(start)..start];
    let starts_item = lead.len() <= 16
        && lead
            .trim()
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches(['-', '*', '+', '.', ')', '#'])
            .trim()
            .is_empty();
    match k {
        Keyword::Terminate | Keyword::Ask => matches!(next_char, Some('"' | '“')),
        Keyword::Run | Keyword::Spawn => next_char == Some('`'),
        Keyword::Follow => next_char == Some(':'),
        Keyword::If | Keyword::Elif => {
            !in_condition()
                && after()
                    .find(branch_kw)
                    .is_some_and(|o| o.keyword == Keyword::Then)
        }
        Keyword::Then => in_condition(),
        Keyword::Else => starts_item && a.first_if.is_some_and(|e| e <= r.start()),
        Keyword::Remember => {
            a.uses_language && (starts_item || text[..start].trim_end().ends_with("_then_"))
        }
        _ => {
            starts_with_ignore_case(next, "like")
                || starts_with_ignore_case(next, "not like")
                || in_condition()
        }
    }
}

/// The quoted string that starts after the blanks (and an optional `:`)
/// at `offset`.
pub(crate) fn quote_after<'a>(
    text: &str,
    lexed: &'a Lexed,
    offset: usize,
) -> Option<&'a scan::Quote> {
    let rest = &text[offset..];
    let t = rest.trim_start_matches([' ', '\t']);
    let t = t
        .strip_prefix(':')
        .unwrap_or(t)
        .trim_start_matches([' ', '\t']);
    let at = offset + (rest.len() - t.len());
    let i = lexed
        .quotes
        .partition_point(|q| usize::from(q.range.start()) < at);
    lexed
        .quotes
        .get(i)
        .filter(|q| usize::from(q.range.start()) == at)
}

#[cfg(test)]
#[path = "structure_tests.rs"]
mod tests;
