//! Documents: agent output or a `.dialect` file, with every action in it.
//!
//! An action starts at a `/` followed by a letter at the start of a line
//! (indentation allowed); everything else is prose and ignored. A
//! multi-line content block belongs to its action, and a chain is one
//! action. `/batch {` opens a batch: the actions on the following lines,
//! up to a line starting with `}`, are its actions (batches nest up to
//! [`MAX_BATCH_DEPTH`] deep); a marker or a chain may follow the `}`.
//!
//! One pass over the text, one line at a time: linear in its length.

use serde::Serialize;

use crate::{
    BlockRegistry, Span,
    action::{Arguments, Batch, ParsedAction},
    args::Cx,
    diagnostics::{self, Diagnostic, Severity},
    lexer::{self, Kind, Token},
    parse::{parse_action, parse_tail},
    resolve::{self, VerbMatch},
    semantic::{SemanticKind, SemanticToken},
    verbs::Verb,
};

/// How deep batches may nest.
pub const MAX_BATCH_DEPTH: usize = 16;

/// Every action of a text.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Document {
    /// In the order written. A batch is one action (its actions are in its
    /// arguments).
    pub actions: Vec<DocumentAction>,
    /// Highlighted pieces, ordered by position.
    pub tokens: Vec<SemanticToken>,
}

/// One action of a document.
#[derive(Clone, Debug, Serialize)]
pub struct DocumentAction {
    /// The action's text: from its `/` to the end of its last line
    /// (content blocks, chain and a batch's `}` line included).
    pub span: Span,
    /// The 1-based line of its `/`.
    pub line: usize,
    /// `None` when its verb is unknown or ambiguous.
    pub action: Option<ParsedAction>,
    /// Ordered by position; a batch holds those of its actions.
    pub diagnostics: Vec<Diagnostic>,
}

impl DocumentAction {
    /// The first error: when there is one, the action must not run.
    pub fn error(&self) -> Option<&Diagnostic> {
        self.diagnostics.iter().find(|d| d.is_error())
    }
}

impl Document {
    /// Every diagnostic, ordered by position.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.actions.iter().flat_map(|a| &a.diagnostics)
    }

    /// The action whose text holds `offset` (its end included).
    pub fn action_at(&self, offset: usize) -> Option<&DocumentAction> {
        let i = self.actions.partition_point(|a| a.span.end < offset);
        self.actions.get(i).filter(|a| a.span.touches(offset))
    }

    /// Whether some action has an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics().any(|d| d.severity == Severity::Error)
    }
}

/// A batch being read.
struct Frame {
    /// `None` when the batch's verb did not resolve.
    head: Option<ParsedAction>,
    /// The braces of batches opened inside this one past the depth limit,
    /// still open: their actions are this batch's.
    phantoms: Vec<Span>,
    start: usize,
    line: usize,
    brace: Span,
    actions: Vec<ParsedAction>,
}

pub(crate) fn parse_document(
    text: &str,
    registry: Option<&BlockRegistry>,
    semantic: bool,
) -> Document {
    let mut p = DocParser {
        cx: Cx::new(text, registry, semantic),
        doc: Document::default(),
        stack: Vec::new(),
        buffer: Vec::new(),
        pending: Vec::new(),
        line: 1,
        counted: 0,
    };
    let mut pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
    while pos < text.len() {
        let end = p.line_at(pos);
        pos = lexer::line_end(text, end) + 1;
    }
    let unclosed = "This /batch is never closed - end it with `}` on a line of its own";
    while let Some(mut frame) = p.stack.pop() {
        for brace in frame.phantoms.drain(..) {
            p.cx.report(&diagnostics::UNCLOSED_BATCH, brace, unclosed);
        }
        p.cx.report(&diagnostics::UNCLOSED_BATCH, frame.brace, unclosed);
        p.close(frame, None, text.len());
    }
    if let Some(tokens) = p.cx.tokens.take() {
        p.doc.tokens = tokens;
    }
    p.doc
}

struct DocParser<'t> {
    cx: Cx<'t>,
    doc: Document,
    stack: Vec<Frame>,
    /// The token buffer, reused from one action to the next.
    buffer: Vec<Token>,
    /// The diagnostics of the outermost open batch (and of everything in
    /// it): all of them belong to that one action.
    pending: Vec<Diagnostic>,
    /// The line number of offset `counted`.
    line: usize,
    counted: usize,
}

impl DocParser<'_> {
    /// The 1-based line of `offset` (offsets asked for only grow).
    fn line_of(&mut self, offset: usize) -> usize {
        let text = self.cx.text;
        self.line += text.as_bytes()[self.counted..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.counted = offset;
        self.line
    }

    /// Handles the line at `pos`; returns an offset on the last line it
    /// took. The semantic tokens of what it took are put in order here:
    /// each call covers the text after the previous one.
    fn line_at(&mut self, pos: usize) -> usize {
        let from = self.cx.tokens.as_ref().map_or(0, Vec::len);
        let end = self.take_line(pos);
        if let Some(tokens) = &mut self.cx.tokens {
            tokens[from..].sort_unstable_by_key(|t| (t.span.start, t.span.end));
        }
        end
    }

    fn take_line(&mut self, pos: usize) -> usize {
        let text = self.cx.text;
        let first = lexer::skip_blanks(text, pos);
        if !self.stack.is_empty() && text[first..].starts_with('}') {
            let brace = Span::new(first, first + 1);
            self.cx.mark(brace, SemanticKind::Operator);
            let tail = lexer::lex_tail(text, first + 1);
            let end = tail.end.max(brace.end);
            let top = self.stack.last_mut().expect("a batch is open");
            if top.phantoms.pop().is_some() {
                // A batch past the depth limit (reported): what follows its
                // `}` is dropped with it.
                return end;
            }
            let frame = self.stack.pop().expect("a batch is open");
            self.close(frame, Some(&tail.tokens), end);
            return end;
        }
        if lexer::is_action_start(text, first) {
            let lexed = lexer::lex_action_into(text, first, std::mem::take(&mut self.buffer));
            let line = self.line_of(first);
            if let Some(head) = batch_head(text, &lexed.tokens) {
                self.open(head, first, line);
            } else {
                let action = parse_action(&mut self.cx, &lexed.tokens);
                let diagnostics = std::mem::take(&mut self.cx.diagnostics);
                self.deliver(DocumentAction {
                    span: Span::new(first, lexed.end),
                    line,
                    action,
                    diagnostics,
                });
            }
            self.buffer = lexed.tokens;
            return lexed.end;
        }
        let eol = lexer::line_end(text, pos);
        if !self.stack.is_empty() {
            let line = text[first..eol].trim_end();
            if !line.is_empty() {
                self.pending.push(Diagnostic::new(
                    &diagnostics::TEXT_IN_BATCH,
                    Span::new(first, first + line.len()),
                    "This line is not an action, so the batch ignores it - start it with / or move it out of the batch",
                ));
            }
        }
        eol
    }

    /// Opens a batch whose head (without the `{`) is `head`.
    fn open(&mut self, head: &[Token], start: usize, line: usize) {
        let brace = *head.last().expect("the head ends with `{`");
        self.cx.mark(brace.span, SemanticKind::Operator);
        let head = &head[..head.len() - 1];
        let depth = self.stack.len();
        if let Some(top) = self.stack.last_mut()
            && depth >= MAX_BATCH_DEPTH
        {
            self.pending.push(Diagnostic::new(
                &diagnostics::NESTING_LIMIT,
                Span::new(start, brace.span.end),
                format!(
                    "Batches nest at most {MAX_BATCH_DEPTH} deep - this one's actions join the enclosing batch"
                ),
            ));
            top.phantoms.push(brace.span);
            return;
        }
        self.cx.batch_open = true;
        let action = parse_action(&mut self.cx, head);
        self.cx.batch_open = false;
        self.pending.append(&mut self.cx.diagnostics);
        self.stack.push(Frame {
            head: action,
            phantoms: Vec::new(),
            start,
            line,
            brace: brace.span,
            actions: Vec::new(),
        });
    }

    /// Closes `frame` at `end`, with what followed its `}`.
    fn close(&mut self, frame: Frame, tail: Option<&[Token]>, end: usize) {
        let (marker, chain) = match tail {
            Some(t) => parse_tail(&mut self.cx, t),
            None => (None, None),
        };
        self.pending.append(&mut self.cx.diagnostics);
        let action = frame.head.map(|mut head| {
            if let Some(m) = marker {
                if let Some(first) = &head.permission_marker {
                    self.pending.push(Diagnostic::new(
                        &diagnostics::INVALID_MARKER,
                        Span::new(head.span.start, end),
                        format!(
                            "Two permission markers (`{first}` and `{m}`) - keep the one you mean"
                        ),
                    ));
                }
                head.permission_marker = Some(m);
            }
            head.chain = chain;
            head.arguments = Arguments::Batch(Batch {
                actions: frame.actions,
            });
            head.span.end = end;
            head
        });
        let diagnostics = if self.stack.is_empty() {
            std::mem::take(&mut self.pending)
        } else {
            Vec::new()
        };
        self.deliver(DocumentAction {
            span: Span::new(frame.start, end),
            line: frame.line,
            action,
            diagnostics,
        });
    }

    /// Adds a finished action to the open batch, or to the document.
    fn deliver(&mut self, mut item: DocumentAction) {
        match self.stack.last_mut() {
            Some(frame) => {
                frame.actions.extend(item.action);
                self.pending.append(&mut item.diagnostics);
            }
            None => {
                item.diagnostics.sort_by_key(|d| d.span.start);
                self.doc.actions.push(item);
            }
        }
    }
}

/// The tokens of `/batch ... {` when the action opens a batch.
fn batch_head<'t>(text: &str, tokens: &'t [Token]) -> Option<&'t [Token]> {
    let last = tokens.last()?;
    if tokens.len() < 2
        || last.kind != Kind::Word
        || last.span.text(text) != "{"
        || tokens.iter().any(|t| t.kind == Kind::Arrow)
    {
        return None;
    }
    let verb = match resolve::match_verb(tokens[0].span.text(text)) {
        VerbMatch::Exact(w) | VerbMatch::Corrected { word: w, .. } => w.verb,
        _ => return None,
    };
    (verb == Verb::Batch).then_some(tokens)
}
