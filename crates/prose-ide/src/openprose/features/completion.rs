//! Completion: what may be typed at the cursor.
//!
//! Completion runs on text that is being typed, so the tree around the
//! cursor is usually broken (`session: re`, `agent a:\n  mo`,
//! `context: [a, `). The context is therefore worked out in three steps
//! that each tolerate broken input:
//!
//! 1. **Lexical position.** Nothing inside a comment; inside a string only
//!    interpolations (`{na`) and the few strings that hold keywords (a
//!    `parallel` join strategy, an `on-fail:` policy, a skill name).
//! 2. **The tokens before the cursor on its logical line** (a line ends at
//!    a NEWLINE token, so an open bracket continues it): `session:` wants an
//!    agent, `do` a block, `|` a pipeline operator, `model:` a model,
//!    `context: [a, ` a variable, `research(` an input of that program,
//!    `parallel (` a modifier, `let x =` an expression, `if` a condition.
//!    A line start followed by `=` wants a variable to reassign.
//! 3. **The enclosing header, by indentation**, when the cursor starts a
//!    line: the nearest earlier line indented less than the cursor decides
//!    between the properties of an agent or a session, the permission
//!    types, `option` in a `choice`, and statements. The line just above at
//!    the same indentation decides whether `elif`/`else` or
//!    `catch`/`finally` may follow. Which construct a header line opens is
//!    read from the tree (the ancestors of its last token), falling back to
//!    its first word.
//!
//! Variables come from [`crate::semantics`]: scoped names whose scope holds
//! the cursor, program-wide bindings written before it (all of them inside
//! a `block` body or an agent, which run later), and inputs.

use prose_syntax::{
    AstNode, NodeOrToken, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast::{self},
};

use crate::{
    contract::{agent_persist, program_contract},
    db::{Db, SourceFile, Workspace, parse},
    features::hover::{PropertyContext, keyword_docs, property_docs, value_docs},
    semantics::{Def, DefKind, FileSemantics, file_semantics},
    vocabulary,
};

use SyntaxKind::*;

/// What a completion item inserts, for the editor's icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    Keyword,
    Property,
    Agent,
    Block,
    Variable,
    /// A value of a property or modifier (`opus`, `allow`, `"first"`).
    Value,
    /// An imported program.
    Program,
    /// A program input (declared here, or a named argument of a call).
    Input,
    /// A template of several constructs.
    Snippet,
    /// A file path (a prompt file's `/read`).
    File,
    /// A Pattern Dialect verb or alias (`/recall`, `/remember`).
    Verb,
    /// A reference to something in context (`@last.output`, `@thread`).
    Reference,
    /// A permission marker (`?`, `?ask`, `!`).
    Marker,
    /// A task of a job entry.
    Task,
    /// A tool of the job system (`job_boolean_true`).
    Tool,
}

/// One completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    pub documentation: Option<String>,
    /// The text to insert instead of the label; snippet syntax (`$1`,
    /// `${1:x}`, `${1|a,b|}`, `$0`) when `is_snippet`.
    pub insert_text: Option<String>,
    pub is_snippet: bool,
    /// The range the insertion replaces (the word being typed).
    pub replace_range: TextRange,
    /// Orders the items where the editor's fuzzy score ties.
    pub sort_text: Option<String>,
}

/// Completions at `offset` in `file`.
pub fn completions(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Vec<CompletionItem> {
    let text = file.text(db).as_str();
    let at = usize::from(offset);
    if at > text.len() || !text.is_char_boundary(at) {
        return Vec::new();
    }
    let root = parse(db, file).syntax_node();
    let tokens: Vec<SyntaxToken> = root
        .descendants_with_tokens()
        .filter_map(NodeOrToken::into_token)
        .collect();
    let lines = logical_lines(text, &tokens);
    let mut cx = Cx {
        db,
        workspace,
        file,
        text,
        sema: file_semantics(db, file),
        offset,
        tokens,
        lines,
        range: TextRange::empty(offset),
        rest_of_line_empty: true,
        items: Vec::new(),
    };
    cx.run();
    cx.items
}

// ---- lines ------------------------------------------------------------------

/// A logical line: its first and last non-trivia tokens (indices into the
/// token list) and the column of the first.
#[derive(Debug, Clone, Copy)]
struct Line {
    first: usize,
    last: usize,
    col: u32,
}

fn logical_lines(text: &str, tokens: &[SyntaxToken]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut cur: Option<(usize, usize)> = None;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind() {
            NEWLINE => {
                if let Some((first, last)) = cur.take() {
                    lines.push(line(text, tokens, first, last));
                }
            }
            k if k.is_trivia() => {}
            _ => {
                cur = Some(cur.map_or((i, i), |(first, _)| (first, i)));
            }
        }
    }
    if let Some((first, last)) = cur {
        lines.push(line(text, tokens, first, last));
    }
    lines
}

fn line(text: &str, tokens: &[SyntaxToken], first: usize, last: usize) -> Line {
    let col = column(text, tokens[first].text_range().start().into());
    Line { first, last, col }
}

/// The indentation column of byte offset `at` (a tab advances to the next
/// multiple of 4, as in the layout pass).
fn column(text: &str, at: usize) -> u32 {
    let start = prose_syntax::lines::line_start(text, at);
    let mut col = 0;
    for c in text[start..at].chars() {
        match c {
            '\t' => col = (col / 4 + 1) * 4,
            '\x0C' => col = 0,
            _ => col += 1,
        }
    }
    col
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// What the line above the cursor opens (or is, for a sibling).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Construct {
    Agent,
    Session,
    Permissions,
    /// A property whose value goes on the following lines (`context:`).
    PropertyValue(String),
    Body(SyntaxKind),
    Unknown,
}

/// The construct kinds a line can open.
const CONSTRUCTS: &[SyntaxKind] = &[
    AGENT_DEF,
    SESSION_EXPR,
    RESUME_EXPR,
    PROPERTY,
    BLOCK_DEF,
    IF_STMT,
    ELIF_CLAUSE,
    ELSE_CLAUSE,
    TRY_STMT,
    CATCH_CLAUSE,
    FINALLY_CLAUSE,
    CHOICE_STMT,
    OPTION_CLAUSE,
    PARALLEL_EXPR,
    FOR_EXPR,
    REPEAT_EXPR,
    LOOP_EXPR,
    PIPE_OP,
    DO_EXPR,
    ASSERT_STMT,
];

// ---- the context --------------------------------------------------------------

struct Cx<'a> {
    db: &'a dyn Db,
    workspace: Workspace,
    file: SourceFile,
    text: &'a str,
    sema: &'a FileSemantics,
    offset: TextSize,
    tokens: Vec<SyntaxToken>,
    lines: Vec<Line>,
    /// The word being typed: what every item replaces.
    range: TextRange,
    /// Nothing but whitespace follows the word on its line: templates may
    /// add their punctuation (`model: `, `(args)`) without doubling it.
    rest_of_line_empty: bool,
    items: Vec<CompletionItem>,
}

impl Cx<'_> {
    fn run(&mut self) {
        let at = usize::from(self.offset);
        // Inside (or at the end of) a comment: nothing.
        if self.tokens.iter().any(|t| {
            t.kind() == COMMENT
                && t.text_range().start() < self.offset
                && self.offset <= t.text_range().end()
        }) {
            return;
        }
        if let Some(s) = self.string_at_cursor() {
            self.in_string(&s);
            return;
        }
        let start = at
            - self.text[..at]
                .chars()
                .rev()
                .take_while(|c| is_word(*c))
                .map(char::len_utf8)
                .sum::<usize>();
        let end = at
            + self.text[at..]
                .chars()
                .take_while(|c| is_word(*c))
                .map(char::len_utf8)
                .sum::<usize>();
        let start_ts = TextSize::from(start as u32);
        // The word starts inside some other token (a discretion, a number
        // with a unit): nothing sensible to offer.
        if self.tokens.iter().any(|t| {
            let r = t.text_range();
            !t.kind().is_trivia() && r.start() < start_ts && start_ts < r.end()
        }) {
            return;
        }
        self.range = TextRange::new(start_ts, TextSize::from(end as u32));
        let rest = &self.text[end..prose_syntax::lines::line_end(self.text, end)];
        self.rest_of_line_empty = rest.trim().is_empty();
        let prev = self.line_tokens_before(start_ts);
        if prev.is_empty() {
            self.line_start(column(self.text, start));
            return;
        }
        let last = prev.last().map(|&i| &self.tokens[i]);
        if last.is_some_and(|t| t.kind() == DOT && t.text_range().end() == start_ts) {
            // A field (`result.findings`): not offered.
            return;
        }
        self.after(&prev);
    }

    // ---- positions ----------------------------------------------------------

    /// Indices of the non-trivia tokens of the cursor's logical line that
    /// end at or before `before`.
    fn line_tokens_before(&self, before: TextSize) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, t) in self.tokens.iter().enumerate() {
            if t.text_range().end() > before {
                break;
            }
            match t.kind() {
                NEWLINE => out.clear(),
                k if k.is_trivia() => {}
                _ => out.push(i),
            }
        }
        out
    }

    fn kind(&self, i: usize) -> SyntaxKind {
        self.tokens[i].kind()
    }

    fn tok_text(&self, i: usize) -> &str {
        self.tokens[i].text()
    }

    /// The lines that start before the cursor's line.
    fn lines_before(&self, line_start: TextSize) -> &[Line] {
        let n = self
            .lines
            .iter()
            .take_while(|l| self.tokens[l.first].text_range().start() < line_start)
            .count();
        &self.lines[..n]
    }

    /// The start of the cursor's physical line.
    fn cursor_line_start(&self) -> TextSize {
        let at = usize::from(self.range.start());
        TextSize::from(prose_syntax::lines::line_start(self.text, at) as u32)
    }

    /// The ranges of the lines being written: the cursor's logical line
    /// and the header lines enclosing it (all of them), and those headers
    /// alone.
    fn cursor_lines(&self) -> (Vec<TextRange>, Vec<TextRange>) {
        let line_start = self
            .tokens
            .iter()
            .take_while(|t| t.text_range().end() <= self.offset)
            .filter(|t| t.kind() == NEWLINE)
            .last()
            .map_or(TextSize::from(0), |t| t.text_range().end());
        let range = |l: &Line| {
            TextRange::new(
                self.tokens[l.first].text_range().start(),
                self.tokens[l.last].text_range().end(),
            )
        };
        let own = self.lines.iter().find(|l| {
            let start = self.tokens[l.first].text_range().start();
            start >= line_start && start <= self.offset
        });
        let col = own.map_or_else(|| column(self.text, usize::from(self.offset)), |l| l.col);
        let before = self.lines_before(line_start);
        let headers: Vec<TextRange> = Self::header_chain(before, col)
            .into_iter()
            .map(|h| range(&before[h]))
            .collect();
        let mut writing = headers.clone();
        if let Some(l) = own {
            let r = range(l);
            writing.push(TextRange::new(r.start(), r.end().max(self.offset)));
        }
        (writing, headers)
    }

    /// The header enclosing a line at `col`, and the line just above at
    /// the same column (its previous sibling), among `before`.
    fn header_and_sibling(before: &[Line], col: u32) -> (Option<usize>, Option<usize>) {
        let mut sibling = None;
        for (i, l) in before.iter().enumerate().rev() {
            if l.col < col {
                return (Some(i), sibling);
            }
            if l.col == col && sibling.is_none() {
                sibling = Some(i);
            }
        }
        (None, sibling)
    }

    /// What a line opens: the innermost construct on its last token's
    /// ancestors that starts on the line; else a guess from its first word.
    fn construct_of(&self, line: &Line) -> Construct {
        let line_start = self.tokens[line.first].text_range().start();
        let last = &self.tokens[line.last];
        for node in last.parent_ancestors() {
            if node.text_range().start() < line_start {
                break;
            }
            if !CONSTRUCTS.contains(&node.kind()) {
                continue;
            }
            let c = match node.kind() {
                AGENT_DEF => Construct::Agent,
                SESSION_EXPR | RESUME_EXPR => Construct::Session,
                PROPERTY => {
                    let key = ast::Property::cast(node.clone()).map(|p| p.key());
                    match key.as_deref() {
                        Some("permissions") => Construct::Permissions,
                        Some(k) => Construct::PropertyValue(k.to_string()),
                        None => Construct::Unknown,
                    }
                }
                k => Construct::Body(k),
            };
            return c;
        }
        match self.tok_text(line.first) {
            "agent" => Construct::Agent,
            "session" | "resume" => Construct::Session,
            "permissions" => Construct::Permissions,
            _ => Construct::Unknown,
        }
    }

    /// The header lines enclosing a line at `col` (indices into
    /// `before`), innermost first.
    fn header_chain(before: &[Line], mut col: u32) -> Vec<usize> {
        let mut out = Vec::new();
        let mut upto = before.len();
        while let (Some(h), _) = Self::header_and_sibling(&before[..upto], col) {
            out.push(h);
            col = before[h].col;
            upto = h;
        }
        out
    }

    /// Keys written on the lines at `col` under the header `header` (the
    /// line with index `header` in `self.lines`), except the cursor's line.
    fn sibling_keys(&self, header: Option<usize>, col: u32) -> Vec<String> {
        let from = header.map_or(0, |h| h + 1);
        let cursor_line = self.cursor_line_start();
        let mut keys = Vec::new();
        for l in &self.lines[from..] {
            if l.col < col {
                break;
            }
            let start = self.tokens[l.first].text_range().start();
            if l.col != col || (start >= cursor_line && start <= self.range.end()) {
                continue;
            }
            let next = self.tokens[l.first + 1..]
                .iter()
                .find(|t| !t.kind().is_trivia());
            if next.is_some_and(|t| t.kind() == COLON) {
                keys.push(self.tok_text(l.first).to_string());
            }
        }
        keys
    }

    // ---- strings --------------------------------------------------------------

    /// The string literal whose content holds the cursor.
    fn string_at_cursor(&self) -> Option<ast::StringLit> {
        let t = self.tokens.iter().find(|t| {
            let r = t.text_range();
            r.start() < self.offset && self.offset <= r.end()
        })?;
        let s = t.parent_ancestors().find_map(ast::StringLit::cast)?;
        let content = s.content_range();
        let open_end = s.open_token()?.text_range().end();
        let inside = open_end <= self.offset
            && (self.offset < s.syntax().text_range().end() && self.offset <= content.end()
                || !s.is_terminated());
        inside.then_some(s)
    }

    fn in_string(&mut self, s: &ast::StringLit) {
        let content = s.content_range();
        let at = usize::from(self.offset);
        let before = &self.text[usize::from(content.start())..at];
        let word_len: usize = before
            .chars()
            .rev()
            .take_while(|c| is_word(*c))
            .map(char::len_utf8)
            .sum();
        let end_limit = usize::from(content.end()).max(at);
        let after_len: usize = self.text[at..end_limit]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .map(char::len_utf8)
            .sum();
        let start = at - word_len;
        self.range = TextRange::new(
            TextSize::from(start as u32),
            TextSize::from((at + after_len) as u32),
        );
        let head = &before[..before.len() - word_len];
        // `{name` — an interpolation being typed (not `\{`).
        if head.ends_with('{') && !head.ends_with("\\{") {
            let word = &before[before.len() - word_len..];
            if word.contains('-') {
                return;
            }
            let closed = self.text[at + after_len..].starts_with('}');
            self.variables(&[], !closed);
            return;
        }
        if !head.is_empty() && !head.chars().all(|c| c.is_whitespace()) {
            return;
        }
        // A string holding a keyword-like word.
        let Some(parent) = s.syntax().parent() else {
            return;
        };
        if let Some(m) = ast::Modifier::cast(parent.clone()) {
            let owner = parent.parent().and_then(|l| l.parent()).map(|n| n.kind());
            match (m.key().as_deref(), owner) {
                (None, Some(PARALLEL_EXPR | FOR_EXPR)) => self.join_strategies(false),
                (Some("on-fail"), _) => self.failure_policies(false),
                _ => {}
            }
            return;
        }
        if parent.kind() == ARRAY_EXPR
            && parent
                .parent()
                .and_then(ast::Property::cast)
                .is_some_and(|p| p.key() == "skills")
        {
            self.skills(false);
        }
    }

    // ---- line start -----------------------------------------------------------

    fn line_start(&mut self, col: u32) {
        let rest = self.text[usize::from(self.range.end())..].trim_start_matches([' ', '\t']);
        if rest.starts_with('=') && !rest.starts_with("==") {
            // `name = value`: a variable to reassign.
            self.reassignable();
            return;
        }
        let line_start = self.cursor_line_start();
        let before = self.lines_before(line_start);
        let (header, sibling) = Self::header_and_sibling(before, col);
        let construct = header.map(|h| self.construct_of(&before[h]));
        match construct {
            Some(Construct::Agent) => {
                let present = self.sibling_keys(header, col);
                self.properties(AGENT_PROPERTIES, PropertyContext::Agent, &present);
            }
            Some(Construct::Session) => {
                let present = self.sibling_keys(header, col);
                self.properties(SESSION_PROPERTIES, PropertyContext::Session, &present);
            }
            Some(Construct::Permissions) => {
                let present = self.sibling_keys(header, col);
                self.properties(PERMISSION_TYPES, PropertyContext::Permissions, &present);
            }
            Some(Construct::PropertyValue(key)) => self.values(&key),
            Some(Construct::Body(CHOICE_STMT)) => self.keyword(&OPTION),
            _ => {
                let enclosing: Vec<Construct> = Self::header_chain(before, col)
                    .into_iter()
                    .map(|h| self.construct_of(&before[h]))
                    .collect();
                let previous = sibling.map(|s| self.construct_of(&before[s]));
                self.statements(&enclosing, previous);
            }
        }
    }

    fn statements(&mut self, enclosing: &[Construct], previous: Option<Construct>) {
        let top = enclosing.is_empty();
        match previous {
            Some(Construct::Body(IF_STMT | ELIF_CLAUSE)) => {
                self.keyword(&ELIF);
                self.keyword(&ELSE);
            }
            Some(Construct::Body(TRY_STMT)) => {
                self.keyword(&CATCH);
                self.keyword(&FINALLY);
            }
            Some(Construct::Body(CATCH_CLAUSE)) => self.keyword(&FINALLY),
            _ => {}
        }
        for t in STATEMENTS {
            self.keyword(t);
        }
        if top {
            for t in TOP_LEVEL {
                if t.label == "input" && self.executable_before() {
                    continue;
                }
                self.keyword(t);
            }
        }
        let in_loop = enclosing
            .iter()
            .any(|c| matches!(c, Construct::Body(FOR_EXPR | REPEAT_EXPR | LOOP_EXPR)));
        if in_loop {
            self.keyword(&BREAK);
            self.keyword(&CONTINUE);
        }
        if enclosing.contains(&Construct::Body(BLOCK_DEF)) {
            self.keyword(&RETURN);
        }
        self.programs();
    }

    /// Whether an executable statement comes before the cursor's line
    /// (inputs must be declared before them).
    fn executable_before(&self) -> bool {
        let root = parse(self.db, self.file).tree();
        let line_start = self.cursor_line_start();
        root.statements()
            .take_while(|s| s.syntax().text_range().end() <= line_start)
            .any(|s| s.is_executable())
    }

    // ---- after tokens on the line ----------------------------------------------

    fn after(&mut self, prev: &[usize]) {
        let kinds: Vec<SyntaxKind> = prev.iter().map(|&i| self.kind(i)).collect();
        let n = kinds.len();
        let tail = kinds[n - 1];
        // `session:`, `session name:`, `resume:`.
        if tail == COLON {
            if n >= 2 && kinds[n - 2] == SESSION_KW
                || n >= 3 && kinds[n - 2] == IDENT && kinds[n - 3] == SESSION_KW
            {
                self.agents(false);
                return;
            }
            if n >= 2 && kinds[n - 2] == RESUME_KW {
                self.agents(true);
                return;
            }
        }
        if tail == DO_KW {
            self.blocks();
            return;
        }
        if tail == PIPE {
            self.pipe_ops();
            return;
        }
        // `key: value` at the start of a property line.
        if n >= 2 && kinds[1] == COLON && self.is_key(prev[0]) {
            let key = self.tok_text(prev[0]).to_string();
            if key == "context" {
                self.context_value(&prev[2..]);
            } else if n == 2 {
                self.values(&key);
            } else if key == "skills" && matches!(tail, L_BRACK | COMMA) {
                self.skills(true);
            }
            return;
        }
        // Inside an unclosed `(`: modifiers, program inputs, block arguments.
        if let Some(p) = self.innermost_open(prev, L_PAREN) {
            self.in_parens(prev, p);
            return;
        }
        match tail {
            EQ | ARROW | RETURN_KW => self.expressions(),
            IN_KW => self.variables(&[], false),
            IF_KW | ELIF_KW | UNTIL_KW | WHILE_KW | CHOICE_KW => {
                let mut item = self.item("**…**", CompletionKind::Snippet);
                item.detail = Some("a condition the AI judges".into());
                item.documentation = keyword_docs("**").map(str::to_string);
                item.insert_text = Some("**$1**".into());
                item.is_snippet = true;
                self.push(item);
                if tail != CHOICE_KW {
                    self.variables(&[], false);
                }
            }
            _ => {}
        }
    }

    /// A property key: a name (or a keyword used as one) at a line start.
    fn is_key(&self, i: usize) -> bool {
        let k = self.kind(i);
        k == IDENT || k.is_keyword()
    }

    /// The index (into `prev`) of the innermost unclosed `open` bracket,
    /// if it is the innermost unclosed bracket of any kind.
    fn innermost_open(&self, prev: &[usize], open: SyntaxKind) -> Option<usize> {
        let mut stack: Vec<usize> = Vec::new();
        for (j, &i) in prev.iter().enumerate() {
            match self.kind(i) {
                L_PAREN | L_BRACK | L_BRACE => stack.push(j),
                R_PAREN | R_BRACK | R_BRACE => {
                    stack.pop();
                }
                _ => {}
            }
        }
        let j = *stack.last()?;
        (self.kind(prev[j]) == open).then_some(j)
    }

    /// Whether the tokens after an open bracket end where a new element
    /// starts (`(`, `,`), or after `name:` (`Some(name)`).
    fn element_position(&self, prev: &[usize], open: usize) -> Option<Option<String>> {
        let after = &prev[open + 1..];
        match after {
            [] => Some(None),
            [.., c] if self.kind(*c) == COMMA => Some(None),
            [.., k, c] if self.kind(*c) == COLON && self.is_key(*k) => {
                Some(Some(self.tok_text(*k).to_string()))
            }
            _ => None,
        }
    }

    fn in_parens(&mut self, prev: &[usize], p: usize) {
        let Some(position) = self.element_position(prev, p) else {
            return;
        };
        let paren = self.tokens[prev[p]].clone();
        let Some(list) = paren.parent() else { return };
        let owner = list.parent();
        match (list.kind(), owner.as_ref().map(|o| o.kind())) {
            (MODIFIER_LIST, Some(owner_kind)) => {
                let mut given: Vec<String> = self.keys_in(&prev[p + 1..]);
                given.extend(self.keys_in(&self.tokens_after_word()));
                match position {
                    Some(key) => self.values(&key),
                    None => self.modifiers(owner_kind, owner.as_ref(), &given),
                }
            }
            (ARG_LIST, Some(CALL_EXPR)) => {
                let callee = owner
                    .and_then(ast::CallExpr::cast)
                    .and_then(|c| c.callee())
                    .and_then(|c| match c {
                        ast::Expr::NameRef(n) => Some(n.text()),
                        _ => None,
                    });
                match (position, callee) {
                    (None, Some(callee)) => {
                        let mut given = self.keys_in(&prev[p + 1..]);
                        given.extend(self.keys_in(&self.tokens_after_word()));
                        self.program_inputs(&callee, &given);
                    }
                    (Some(_), _) => self.variables(&[], false),
                    _ => {}
                }
            }
            (ARG_LIST, Some(DO_CALL)) => self.variables(&[], false),
            _ => {}
        }
    }

    /// The `key` of every `key:` among `toks` (arguments already given).
    fn keys_in(&self, toks: &[usize]) -> Vec<String> {
        toks.windows(2)
            .filter(|w| self.kind(w[1]) == COLON && self.is_key(w[0]))
            .map(|w| self.tok_text(w[0]).to_string())
            .collect()
    }

    /// `context:` followed by `rest`: a variable where a name may start.
    fn context_value(&mut self, rest: &[usize]) {
        let at_element = match rest.last() {
            None => true,
            Some(&i) => {
                matches!(self.kind(i), L_BRACK | L_BRACE | COMMA)
                    && (self.innermost_open(rest, L_BRACK).is_some()
                        || self.innermost_open(rest, L_BRACE).is_some())
            }
        };
        if !at_element {
            return;
        }
        let listed: Vec<String> = rest
            .iter()
            .chain(&self.tokens_after_word())
            .filter(|&&i| self.kind(i) == IDENT)
            .map(|&i| self.tok_text(i).to_string())
            .collect();
        self.variables(&listed, false);
    }

    /// Indices of the non-trivia tokens after the word, up to the end of
    /// the logical line or the bracket that closes the one the word is in.
    fn tokens_after_word(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        for (i, t) in self.tokens.iter().enumerate() {
            if t.text_range().start() < self.range.end() || t.kind().is_trivia() {
                continue;
            }
            match t.kind() {
                NEWLINE => break,
                L_PAREN | L_BRACK | L_BRACE => depth += 1,
                R_PAREN | R_BRACK | R_BRACE => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            out.push(i);
        }
        out
    }

    // ---- item producers -----------------------------------------------------------

    fn push(&mut self, mut item: CompletionItem) {
        if item.sort_text.is_none() {
            item.sort_text = Some(format!("{:03}", self.items.len()));
        }
        self.items.push(item);
    }

    fn item(&self, label: &str, kind: CompletionKind) -> CompletionItem {
        CompletionItem {
            label: label.to_string(),
            kind,
            detail: None,
            documentation: None,
            insert_text: None,
            is_snippet: false,
            replace_range: self.range,
            sort_text: None,
        }
    }

    /// Whether a `:` follows the word (a key is being renamed).
    fn colon_follows(&self) -> bool {
        self.text[usize::from(self.range.end())..]
            .trim_start_matches([' ', '\t'])
            .starts_with(':')
    }

    /// A space before an inserted value written right after `:`.
    fn lead(&self) -> &'static str {
        let at = usize::from(self.range.start());
        if self.text[..at].ends_with(':') {
            " "
        } else {
            ""
        }
    }

    /// A plain value; gets a leading space when it follows `:` directly.
    fn value_item(&self, label: &str, kind: CompletionKind) -> CompletionItem {
        let mut item = self.item(label, kind);
        let lead = self.lead();
        if !lead.is_empty() {
            item.insert_text = Some(format!("{lead}{label}"));
        }
        item
    }

    fn keyword(&mut self, t: &Template) {
        let mut item = self.item(t.label, t.kind);
        item.detail = Some(t.detail.to_string());
        item.documentation = keyword_docs(t.label).map(str::to_string);
        if self.rest_of_line_empty && t.snippet != t.label {
            item.insert_text = Some(t.snippet.to_string());
            item.is_snippet = true;
        }
        self.push(item);
    }

    fn properties(&mut self, props: &[Template], context: PropertyContext, present: &[String]) {
        for t in props {
            if present.iter().any(|p| p == t.label) {
                continue;
            }
            let mut item = self.item(t.label, CompletionKind::Property);
            item.detail = Some(t.detail.to_string());
            item.documentation = property_docs(context, t.label).map(str::to_string);
            if !self.colon_follows() {
                if self.rest_of_line_empty {
                    item.insert_text = Some(t.snippet.to_string());
                    item.is_snippet = true;
                } else {
                    item.insert_text = Some(format!("{}: ", t.label));
                }
            }
            self.push(item);
        }
    }

    /// Values of `key:`.
    fn values(&mut self, key: &str) {
        let (words, details): (&[&str], &[&str]) = match key {
            "model" => (vocabulary::MODELS, &MODEL_DETAILS),
            "persist" => (vocabulary::PERSIST_VALUES, &PERSIST_DETAILS),
            "backoff" => (vocabulary::BACKOFF_STRATEGIES, &BACKOFF_DETAILS),
            k if vocabulary::PERMISSION_TYPES.contains(&k) => {
                (vocabulary::PERMISSION_VALUES, &PERMISSION_VALUE_DETAILS)
            }
            "on-fail" => {
                self.failure_policies(true);
                return;
            }
            "skills" => {
                self.skills_array();
                return;
            }
            "context" => {
                self.variables(&[], false);
                return;
            }
            _ => return,
        };
        if vocabulary::PATTERN_PERMISSION_TYPES.contains(&key) {
            let mut item = self.value_item("[\"…\"]", CompletionKind::Snippet);
            item.detail = Some("glob patterns".into());
            item.insert_text = Some(format!("{}[\"$1\"]", self.lead()));
            item.is_snippet = true;
            self.push(item);
        }
        for (v, doc) in words.iter().zip(details) {
            let mut item = self.value_item(v, CompletionKind::Value);
            item.detail = Some(doc.to_string());
            item.documentation = value_docs(key, v).map(str::to_string);
            self.push(item);
        }
    }

    fn join_strategies(&mut self, quoted: bool) {
        for (v, doc) in vocabulary::JOIN_STRATEGIES.iter().zip(JOIN_DETAILS) {
            let label = if quoted {
                format!("\"{v}\"")
            } else {
                v.to_string()
            };
            let mut item = self.item(&label, CompletionKind::Value);
            item.detail = Some(doc.to_string());
            item.documentation = value_docs("join", v).map(str::to_string);
            self.push(item);
        }
    }

    fn failure_policies(&mut self, quoted: bool) {
        for (v, doc) in vocabulary::FAILURE_POLICIES.iter().zip(FAILURE_DETAILS) {
            let mut item = if quoted {
                self.value_item(&format!("\"{v}\""), CompletionKind::Value)
            } else {
                self.item(v, CompletionKind::Value)
            };
            item.detail = Some(doc.to_string());
            item.documentation = value_docs("on-fail", v).map(str::to_string);
            self.push(item);
        }
    }

    /// The keys of a modifier list owned by `owner`, minus those given.
    fn modifiers(&mut self, owner: SyntaxKind, node: Option<&SyntaxNode>, given: &[String]) {
        let parallel = match owner {
            PARALLEL_EXPR => true,
            FOR_EXPR => node
                .and_then(|n| ast::ForExpr::cast(n.clone()))
                .is_some_and(|f| f.is_parallel()),
            _ => false,
        };
        let (keys, context): (&[Template], PropertyContext) = if parallel {
            let has_strategy = node
                .and_then(|n| n.children().find_map(ast::ModifierList::cast))
                .is_some_and(|l| {
                    l.modifiers()
                        .any(|m| m.key().is_none() && m.value().is_some())
                });
            if !has_strategy {
                self.join_strategies(true);
            }
            (&PARALLEL_MODIFIERS, PropertyContext::Parallel)
        } else if owner == LOOP_EXPR {
            (&LOOP_MODIFIERS, PropertyContext::Loop)
        } else if owner == SESSION_EXPR {
            (SESSION_PROPERTIES, PropertyContext::Session)
        } else {
            return;
        };
        for t in keys {
            if given.iter().any(|g| g == t.label) || t.label == "permissions" {
                continue;
            }
            let mut item = self.item(t.label, CompletionKind::Property);
            item.detail = Some(t.detail.to_string());
            item.documentation = property_docs(context, t.label).map(str::to_string);
            item.insert_text = Some(format!("{}: ", t.label));
            self.push(item);
        }
    }

    fn pipe_ops(&mut self) {
        for t in &PIPE_OPS {
            let mut item = self.item(t.label, CompletionKind::Keyword);
            item.detail = Some(t.detail.to_string());
            item.documentation = keyword_docs(t.label).map(str::to_string);
            if self.rest_of_line_empty {
                item.insert_text = Some(t.snippet.to_string());
                item.is_snippet = true;
            }
            self.push(item);
        }
    }

    fn expressions(&mut self) {
        for t in EXPRESSIONS {
            self.keyword(t);
        }
        self.programs();
        self.variables(&[], false);
    }

    // ---- names ------------------------------------------------------------------

    /// Agents; for `resume:` persistent agents first.
    fn agents(&mut self, resume: bool) {
        let root = parse(self.db, self.file).tree();
        let mut agents: Vec<(bool, CompletionItem)> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for node in root.syntax().descendants() {
            let Some(a) = ast::AgentDef::cast(node) else {
                continue;
            };
            let Some(name) = a.name().map(|n| n.text()) else {
                continue;
            };
            if name.is_empty() || seen.contains(&name) {
                continue;
            }
            seen.push(name.clone());
            let persistent = agent_persist(&a).is_some();
            let model = a
                .property("model")
                .and_then(|p| p.any_value())
                .map(|v| v.syntax().text().to_string());
            let mut detail = model.map_or_else(|| "agent".to_string(), |m| format!("model: {m}"));
            if let Some(p) = a.property("persist").and_then(|p| p.any_value()) {
                detail.push_str(&format!(", persist: {}", p.syntax().text()));
            } else if resume {
                detail.push_str(", not persistent");
            }
            let mut item = self.value_item(&name, CompletionKind::Agent);
            item.detail = Some(detail);
            item.documentation =
                a.property("prompt")
                    .and_then(|p| p.any_value())
                    .map(|v| match v {
                        ast::Expr::String(s) => s.value(),
                        other => other.syntax().text().to_string(),
                    });
            agents.push((persistent, item));
        }
        if resume {
            agents.sort_by_key(|(persistent, _)| !persistent);
        }
        for (_, item) in agents {
            self.push(item);
        }
    }

    /// Blocks, with an argument snippet when they take parameters.
    fn blocks(&mut self) {
        let root = parse(self.db, self.file).tree();
        let mut seen: Vec<String> = Vec::new();
        for node in root.syntax().descendants() {
            let Some(b) = ast::BlockDef::cast(node) else {
                continue;
            };
            let Some(name) = b.name().map(|n| n.text()) else {
                continue;
            };
            if name.is_empty() || seen.contains(&name) {
                continue;
            }
            seen.push(name.clone());
            let params: Vec<String> = b
                .params()
                .filter_map(|p| p.name())
                .map(|n| n.text())
                .collect();
            let mut item = self.item(&name, CompletionKind::Block);
            item.detail = Some(format!("block {name}({})", params.join(", ")));
            let paren_follows = self.text[usize::from(self.range.end())..].starts_with('(');
            if !params.is_empty() && !paren_follows {
                let args: Vec<String> = params
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("${{{}:{}}}", i + 1, p))
                    .collect();
                item.insert_text = Some(format!("{name}({})", args.join(", ")));
                item.is_snippet = true;
            }
            self.push(item);
        }
    }

    /// Imported programs, as calls with their inputs when the program is
    /// available.
    fn programs(&mut self) {
        let defs: Vec<Def> = self
            .sema
            .defs_of(DefKind::Program)
            .map(|(_, d)| d.clone())
            .collect();
        let mut seen: Vec<String> = Vec::new();
        for d in defs {
            if seen.contains(&d.name) {
                continue;
            }
            seen.push(d.name.clone());
            let path = self.use_path(&d);
            let inputs = path
                .as_deref()
                .and_then(|p| self.contract_inputs(p))
                .unwrap_or_default();
            let mut item = self.item(&d.name, CompletionKind::Program);
            item.detail = path.map(|p| format!("use \"{p}\""));
            if self.rest_of_line_empty {
                let args: Vec<String> = inputs
                    .iter()
                    .enumerate()
                    .map(|(i, (n, _))| format!("{n}: ${}", i + 1))
                    .collect();
                item.insert_text = Some(format!("{}({})", d.name, args.join(", ")));
                item.is_snippet = true;
            }
            self.push(item);
        }
    }

    /// The `use` path of a program definition.
    fn use_path(&self, def: &Def) -> Option<String> {
        let root = parse(self.db, self.file).syntax_node();
        let node = match root.covering_element(def.range) {
            NodeOrToken::Node(n) => n,
            NodeOrToken::Token(t) => t.parent()?,
        };
        let u = node.ancestors().find_map(ast::UseStmt::cast)?;
        Some(u.path()?.value())
    }

    /// The inputs (name, description) of the program a `use` path names,
    /// if the host loaded it.
    fn contract_inputs(&self, use_path: &str) -> Option<Vec<(String, String)>> {
        let db = self.db;
        let target =
            crate::features::hover::resolve_use_path(db, self.workspace, self.file, use_path)?;
        Some(program_contract(db, target).inputs.clone())
    }

    /// The inputs of program `callee` not yet given, as `name: ` snippets.
    fn program_inputs(&mut self, callee: &str, given: &[String]) {
        let Some((_, def)) = self.sema.find(DefKind::Program, callee) else {
            return;
        };
        let def = def.clone();
        let Some(inputs) = self.use_path(&def).and_then(|p| self.contract_inputs(&p)) else {
            return;
        };
        for (name, desc) in inputs {
            if given.contains(&name) {
                continue;
            }
            let mut item = self.item(&name, CompletionKind::Input);
            item.detail = Some(format!("input of {callee}"));
            item.documentation = (!desc.is_empty()).then_some(desc);
            if !self.colon_follows() {
                item.insert_text = Some(format!("{name}: $1"));
                item.is_snippet = true;
            }
            self.push(item);
        }
    }

    /// Variables that may be assigned again (not constants, inputs or
    /// scoped names).
    fn reassignable(&mut self) {
        let (writing, headers) = self.cursor_lines();
        let defs = visible_variables(self.sema, self.text, self.offset, &writing, &headers);
        for d in defs {
            if !matches!(
                d.kind,
                DefKind::Let | DefKind::Assigned | DefKind::Output | DefKind::SessionName
            ) {
                continue;
            }
            let mut item = self.item(&d.name, CompletionKind::Variable);
            item.detail = Some(d.kind.describe().to_string());
            item.documentation = first_line(self.text, d.range);
            self.push(item);
        }
    }

    /// Names of imports, for `skills:`.
    fn skills(&mut self, quoted: bool) {
        let names: Vec<String> = self
            .sema
            .defs
            .iter()
            .filter(|d| matches!(d.kind, DefKind::Program | DefKind::Skill))
            .map(|d| d.name.clone())
            .collect();
        let mut seen = Vec::new();
        for n in names {
            if seen.contains(&n) {
                continue;
            }
            let label = if quoted {
                format!("\"{n}\"")
            } else {
                n.clone()
            };
            let mut item = self.item(&label, CompletionKind::Value);
            item.detail = Some("imported skill".into());
            self.push(item);
            seen.push(n);
        }
    }

    /// `skills: ` followed by nothing: an array of the imports.
    fn skills_array(&mut self) {
        let mut item = self.value_item("[\"…\"]", CompletionKind::Snippet);
        item.detail = Some("skills to assign".into());
        item.insert_text = Some(format!("{}[\"$1\"]", self.lead()));
        item.is_snippet = true;
        self.push(item);
    }

    /// The variables visible at `at`, except those in `skip`. With
    /// `close`, each insertion ends an interpolation with `}`.
    fn variables(&mut self, skip: &[String], close: bool) {
        let (writing, headers) = self.cursor_lines();
        let defs = visible_variables(self.sema, self.text, self.offset, &writing, &headers);
        let input_docs: Vec<(String, String)> = program_contract(self.db, self.file).inputs.clone();
        for d in defs {
            if skip.contains(&d.name) {
                continue;
            }
            let kind = if d.kind == DefKind::Input {
                CompletionKind::Input
            } else {
                CompletionKind::Variable
            };
            let mut item = if close {
                let mut item = self.item(&d.name, kind);
                item.insert_text = Some(format!("{}}}", d.name));
                item
            } else {
                self.value_item(&d.name, kind)
            };
            item.detail = Some(d.kind.describe().to_string());
            item.documentation = if d.kind == DefKind::Input {
                input_docs
                    .iter()
                    .find(|(n, _)| *n == d.name)
                    .map(|(_, desc)| desc.clone())
                    .filter(|d| !d.is_empty())
            } else {
                first_line(self.text, d.range)
            };
            self.push(item);
        }
    }
}

/// The first line of a definition's source, shortened.
fn first_line(text: &str, range: TextRange) -> Option<String> {
    let src = text.get(usize::from(range.start())..usize::from(range.end()))?;
    let line = src.lines().next()?.trim_end();
    if line.is_empty() {
        return None;
    }
    let mut out: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        out.push('…');
    }
    Some(out)
}

/// Whether `range` holds `at`: the end counts only at the end of an
/// unterminated last line (a statement being typed at the end of the file).
fn covers(range: TextRange, at: TextSize, text: &str) -> bool {
    range.contains(at)
        || range.end() == at
            && !text[..usize::from(at)].ends_with(['\n', '\r'])
            && range.start() < at
}

/// Variables visible at `at`, each name once, innermost first: scoped
/// names whose scope holds `at` (or whose header line encloses it by
/// indentation), program-wide bindings written before `at` (all of them
/// inside a block body or an agent), then inputs. Bindings made by the
/// lines being written (`writing`: the cursor's line and its headers) are
/// left out; scoped names defined on a header line (`headers`) are in.
fn visible_variables<'s>(
    sema: &'s FileSemantics,
    text: &str,
    at: TextSize,
    writing: &[TextRange],
    headers: &[TextRange],
) -> Vec<&'s Def> {
    let enclosing_block = sema
        .defs_of(DefKind::Block)
        .map(|(_, d)| d.range)
        .filter(|r| covers(*r, at, text))
        .min_by_key(|r| r.len());
    let hoisted = enclosing_block.is_some()
        || sema
            .defs_of(DefKind::Agent)
            .any(|(_, d)| covers(d.range, at, text));
    let on_header = |r: TextRange| headers.iter().any(|h| h.contains_range(r));
    let mut scoped: Vec<&Def> = sema
        .defs
        .iter()
        .filter(|d| {
            d.kind.is_scoped()
                && (d.scope.is_some_and(|s| covers(s, at, text)) || on_header(d.name_range))
        })
        .collect();
    scoped.sort_by_key(|d| d.scope.map(|s| s.len()));
    let being_written = |d: &Def| writing.iter().any(|w| w.contains(d.range.start()));
    let mut flat: Vec<&Def> = sema
        .defs
        .iter()
        .filter(|d| d.kind.is_flat_binding() && !covers(d.range, at, text) && !being_written(d))
        .filter(|d| {
            if d.in_block_def {
                // Bound inside a block body: visible in that body only.
                enclosing_block.is_some_and(|b| b.contains_range(d.range)) && d.range.start() < at
            } else {
                hoisted || d.range.start() < at
            }
        })
        .collect();
    // The nearest binding before the cursor first; later ones (visible in
    // hoisted code) after them.
    flat.sort_by_key(|d| {
        if d.range.start() < at {
            (0, u32::MAX - u32::from(d.range.start()))
        } else {
            (1, u32::from(d.range.start()))
        }
    });
    let inputs = sema.defs.iter().filter(|d| d.kind == DefKind::Input);
    let mut out: Vec<&Def> = Vec::new();
    for d in scoped.into_iter().chain(flat).chain(inputs) {
        if !d.name.is_empty() && !out.iter().any(|o| o.name == d.name) {
            out.push(d);
        }
    }
    out
}

// ---- tables -------------------------------------------------------------------------

/// A keyword or property with its template.
struct Template {
    label: &'static str,
    kind: CompletionKind,
    snippet: &'static str,
    detail: &'static str,
}

const fn kw(label: &'static str, snippet: &'static str, detail: &'static str) -> Template {
    Template {
        label,
        kind: CompletionKind::Keyword,
        snippet,
        detail,
    }
}

const fn prop(label: &'static str, snippet: &'static str, detail: &'static str) -> Template {
    Template {
        label,
        kind: CompletionKind::Property,
        snippet,
        detail,
    }
}

const SESSION: Template = kw("session", "session \"$0\"", "run a session with a prompt");
const SESSION_AGENT: Template = kw(
    "session:",
    "session: ${1:agent}\n  prompt: \"$0\"",
    "run a session with an agent",
);
const RESUME: Template = kw(
    "resume:",
    "resume: ${1:agent}\n  prompt: \"$0\"",
    "continue a persistent agent",
);
const DO_CALL_T: Template = kw("do", "do ${1:block}", "run a block");
const DO_BLOCK: Template = kw("do:", "do:\n  $0", "a sequential block");
const PARALLEL: Template = kw("parallel", "parallel:\n  $0", "run branches concurrently");
const PARALLEL_FOR: Template = kw(
    "parallel for",
    "parallel for ${1:item} in ${2:items}:\n  $0",
    "a loop whose iterations run concurrently",
);
const FOR: Template = kw(
    "for",
    "for ${1:item} in ${2:items}:\n  $0",
    "repeat for each item",
);
const REPEAT: Template = kw(
    "repeat",
    "repeat ${1:3}:\n  $0",
    "repeat a fixed number of times",
);
const LOOP: Template = kw(
    "loop",
    "loop until **$1** (max: ${2:10}):\n  $0",
    "loop until a condition holds",
);
const LOOP_WHILE: Template = kw(
    "loop while",
    "loop while **$1** (max: ${2:10}):\n  $0",
    "loop while a condition holds",
);
const TRY: Template = kw(
    "try",
    "try:\n  $1\ncatch as ${2:err}:\n  $0",
    "handle failures",
);
const IF: Template = kw("if", "if **$1**:\n  $0", "run when a condition holds");
const CHOICE: Template = kw(
    "choice",
    "choice **$1**:\n  option \"$2\":\n    $0",
    "let the AI pick one option",
);

const STATEMENTS: &[Template] = &[
    SESSION,
    SESSION_AGENT,
    RESUME,
    kw("let", "let ${1:name} = $0", "bind a variable"),
    kw("const", "const ${1:name} = $0", "bind a constant"),
    kw("output", "output ${1:name} = $0", "bind a program output"),
    DO_CALL_T,
    DO_BLOCK,
    PARALLEL,
    PARALLEL_FOR,
    FOR,
    REPEAT,
    LOOP,
    LOOP_WHILE,
    TRY,
    IF,
    CHOICE,
    kw("throw", "throw \"$0\"", "raise an error"),
];

/// Statements offered only at the top level of the file.
const TOP_LEVEL: &[Template] = &[
    kw(
        "agent",
        "agent ${1:name}:\n  model: ${2|sonnet,opus,haiku|}\n  prompt: \"$0\"",
        "define an agent",
    ),
    kw(
        "block",
        "block ${1:name}($2):\n  $0",
        "define a reusable block",
    ),
    kw(
        "input",
        "input ${1:name}: \"$2\"",
        "declare a program input",
    ),
    kw("use", "use \"@${1:handle}/${2:slug}\"", "import a program"),
];

const EXPRESSIONS: &[Template] = &[
    SESSION,
    SESSION_AGENT,
    RESUME,
    DO_CALL_T,
    DO_BLOCK,
    PARALLEL,
    PARALLEL_FOR,
    FOR,
    REPEAT,
    LOOP,
    LOOP_WHILE,
    TRY,
    IF,
    CHOICE,
];

const ELIF: Template = kw("elif", "elif **$1**:\n  $0", "another condition");
const ELSE: Template = kw("else", "else:\n  $0", "when no condition held");
const CATCH: Template = kw("catch", "catch as ${1:err}:\n  $0", "handle the failure");
const FINALLY: Template = kw("finally", "finally:\n  $0", "run in every case");
const OPTION: Template = kw("option", "option \"$1\":\n  $0", "an option of the choice");
const BREAK: Template = kw("break", "break", "leave the loop");
const CONTINUE: Template = kw("continue", "continue", "next iteration");
const RETURN: Template = kw("return", "return", "the block's result");

const PIPE_OPS: [Template; 4] = [
    kw("map", "map:\n  $0", "transform each item"),
    kw("filter", "filter:\n  $0", "keep the items that pass"),
    kw(
        "reduce",
        "reduce(${1:acc}, ${2:item}):\n  $0",
        "combine the items into one",
    ),
    kw("pmap", "pmap:\n  $0", "transform each item concurrently"),
];

// Properties that agents and sessions share.
const MODEL_PROPERTY: Template = prop(
    "model",
    "model: ${1|sonnet,opus,haiku|}",
    "sonnet, opus or haiku",
);
const CONTEXT_PROPERTY: Template = prop("context", "context: $0", "variables passed in");
const PERMISSIONS_PROPERTY: Template = prop("permissions", "permissions:\n  $0", "access rules");

const AGENT_PROPERTIES: &[Template] = &[
    MODEL_PROPERTY,
    prop("prompt", "prompt: \"$0\"", "system prompt"),
    prop(
        "persist",
        "persist: ${1|true,project,user|}",
        "persistent memory",
    ),
    prop("skills", "skills: [\"$0\"]", "imported skills"),
    PERMISSIONS_PROPERTY,
    CONTEXT_PROPERTY,
];

const SESSION_PROPERTIES: &[Template] = &[
    MODEL_PROPERTY,
    prop("prompt", "prompt: \"$0\"", "the task"),
    CONTEXT_PROPERTY,
    prop("retry", "retry: ${1:3}", "retries on failure"),
    prop(
        "backoff",
        "backoff: ${1|none,linear,exponential|}",
        "delay between retries",
    ),
    PERMISSIONS_PROPERTY,
];

const PERMISSION_TYPES: &[Template] = &[
    prop("read", "read: [\"$0\"]", "files it may read"),
    prop("write", "write: [\"$0\"]", "files it may write"),
    prop("execute", "execute: [\"$0\"]", "files it may execute"),
    prop("bash", "bash: ${1|allow,deny,prompt|}", "shell access"),
    prop(
        "network",
        "network: ${1|allow,deny,prompt|}",
        "network access",
    ),
];

const PARALLEL_MODIFIERS: [Template; 2] = [
    prop(
        "on-fail",
        "on-fail: ",
        "\"fail-fast\", \"continue\" or \"ignore\"",
    ),
    prop("count", "count: ", "successes to wait for (with \"any\")"),
];

const LOOP_MODIFIERS: [Template; 1] = [prop("max", "max: ", "iteration limit")];

// The property and modifier keys above are the `vocabulary` lists, in their
// order (checked when compiling); `permissions` also completes in a session.
const _: () = assert!(labels_are(AGENT_PROPERTIES, vocabulary::AGENT_PROPERTIES));
const _: () = assert!(labels_are(
    SESSION_PROPERTIES.split_last().unwrap().1,
    vocabulary::SESSION_PROPERTIES
));
const _: () = assert!(vocabulary::str_eq(
    SESSION_PROPERTIES.last().unwrap().label,
    "permissions"
));
const _: () = assert!(labels_are(PERMISSION_TYPES, vocabulary::PERMISSION_TYPES));
const _: () = assert!(labels_are(
    &PARALLEL_MODIFIERS,
    vocabulary::PARALLEL_MODIFIERS
));
const _: () = assert!(labels_are(&LOOP_MODIFIERS, vocabulary::LOOP_MODIFIERS));

/// Whether the labels of `templates` are `words`, in order.
const fn labels_are(templates: &[Template], words: &[&str]) -> bool {
    if templates.len() != words.len() {
        return false;
    }
    let mut i = 0;
    while i < words.len() {
        if !vocabulary::str_eq(templates[i].label, words[i]) {
            return false;
        }
        i += 1;
    }
    true
}

// ---- value details: one per word of a `vocabulary` list, in its order ----------

/// sonnet, opus, haiku.
const MODEL_DETAILS: [&str; vocabulary::MODELS.len()] = [
    "balanced, general purpose",
    "complex reasoning, detailed analysis",
    "fast, simple tasks",
];

/// true, project, user.
const PERSIST_DETAILS: [&str; vocabulary::PERSIST_VALUES.len()] = [
    "memory for this run only",
    "memory in .prose/agents/{name}/",
    "memory in ~/.prose/agents/{name}/",
];

/// none, linear, exponential.
const BACKOFF_DETAILS: [&str; vocabulary::BACKOFF_STRATEGIES.len()] = [
    "retry at once",
    "a fixed delay between retries",
    "a doubling delay between retries",
];

/// allow, deny, prompt.
const PERMISSION_VALUE_DETAILS: [&str; vocabulary::PERMISSION_VALUES.len()] =
    ["granted", "denied", "ask the user"];

/// "all", "first", "any".
const JOIN_DETAILS: [&str; vocabulary::JOIN_STRATEGIES.len()] = [
    "wait for every branch (default)",
    "the first branch to finish wins",
    "wait for `count` successes",
];

/// "fail-fast", "continue", "ignore".
const FAILURE_DETAILS: [&str; vocabulary::FAILURE_POLICIES.len()] = [
    "cancel the others on the first failure (default)",
    "let every branch finish, then report failures",
    "always succeed",
];

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;
    use crate::{FilePosition, fixture::Fixture};

    /// The value choices written into property snippets are the
    /// vocabulary's.
    #[test]
    fn snippet_choices_are_the_vocabulary() {
        let choices = |words: &[&str]| format!("${{1|{}|}}", words.join(","));
        let templates = AGENT_PROPERTIES
            .iter()
            .chain(SESSION_PROPERTIES)
            .chain(PERMISSION_TYPES);
        for t in templates {
            let words = match t.label {
                "model" => vocabulary::MODELS,
                "persist" => vocabulary::PERSIST_VALUES,
                "backoff" => vocabulary::BACKOFF_STRATEGIES,
                "bash" | "network" => vocabulary::PERMISSION_VALUES,
                _ => continue,
            };
            assert_eq!(
                t.snippet,
                format!("{}: {}", t.label, choices(words)),
                "{}",
                t.label
            );
        }
    }

    fn complete(fixture: &str) -> (String, Vec<CompletionItem>) {
        let f = Fixture::parse(fixture);
        let (host, pos) = f.position();
        let analysis = host.analysis();
        let text = analysis.file_text(pos.file).unwrap();
        (text, analysis.completions(pos).unwrap())
    }

    /// One line per item: kind, label, detail, and what it inserts.
    fn check(fixture: &str, expect: Expect) {
        let (_, items) = complete(fixture);
        let mut out = String::new();
        for i in &items {
            out.push_str(&format!("{:?} {}", i.kind, i.label));
            if let Some(d) = &i.detail {
                out.push_str(&format!(" ({d})"));
            }
            if let Some(t) = &i.insert_text {
                out.push_str(&format!(" => {}", t.replace('\n', "⏎")));
            }
            out.push('\n');
        }
        expect.assert_eq(&out);
    }

    /// The labels only.
    fn check_labels(fixture: &str, expect: Expect) {
        let (_, items) = complete(fixture);
        let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
        expect.assert_eq(&labels.join(", "));
    }

    /// The text after accepting the item `label` (snippet syntax kept).
    fn check_edit(fixture: &str, label: &str, expect: Expect) {
        let (mut text, items) = complete(fixture);
        let item = items
            .iter()
            .find(|i| i.label == label)
            .unwrap_or_else(|| panic!("no item {label}: {items:#?}"));
        let insert = item.insert_text.as_deref().unwrap_or(&item.label);
        text.replace_range(
            usize::from(item.replace_range.start())..usize::from(item.replace_range.end()),
            insert,
        );
        expect.assert_eq(&text);
    }

    /// `$` is a trigger character (for job entries' variables): in a
    /// program it offers nothing, in a string or out of one.
    #[test]
    fn a_dollar_offers_nothing() {
        check_labels("session \"costs $$0\"\n", expect![""]);
        check_labels("let x = $$0\n", expect![""]);
        check_labels("agent a:\n  prompt: \"$$0\"\n", expect![""]);
    }

    #[test]
    fn empty_file_offers_statements() {
        check(
            "$0",
            expect![[r#"
                Keyword session (run a session with a prompt) => session "$0"
                Keyword session: (run a session with an agent) => session: ${1:agent}⏎  prompt: "$0"
                Keyword resume: (continue a persistent agent) => resume: ${1:agent}⏎  prompt: "$0"
                Keyword let (bind a variable) => let ${1:name} = $0
                Keyword const (bind a constant) => const ${1:name} = $0
                Keyword output (bind a program output) => output ${1:name} = $0
                Keyword do (run a block) => do ${1:block}
                Keyword do: (a sequential block) => do:⏎  $0
                Keyword parallel (run branches concurrently) => parallel:⏎  $0
                Keyword parallel for (a loop whose iterations run concurrently) => parallel for ${1:item} in ${2:items}:⏎  $0
                Keyword for (repeat for each item) => for ${1:item} in ${2:items}:⏎  $0
                Keyword repeat (repeat a fixed number of times) => repeat ${1:3}:⏎  $0
                Keyword loop (loop until a condition holds) => loop until **$1** (max: ${2:10}):⏎  $0
                Keyword loop while (loop while a condition holds) => loop while **$1** (max: ${2:10}):⏎  $0
                Keyword try (handle failures) => try:⏎  $1⏎catch as ${2:err}:⏎  $0
                Keyword if (run when a condition holds) => if **$1**:⏎  $0
                Keyword choice (let the AI pick one option) => choice **$1**:⏎  option "$2":⏎    $0
                Keyword throw (raise an error) => throw "$0"
                Keyword agent (define an agent) => agent ${1:name}:⏎  model: ${2|sonnet,opus,haiku|}⏎  prompt: "$0"
                Keyword block (define a reusable block) => block ${1:name}($2):⏎  $0
                Keyword input (declare a program input) => input ${1:name}: "$2"
                Keyword use (import a program) => use "@${1:handle}/${2:slug}"
            "#]],
        );
    }

    #[test]
    fn statements_after_executable_code_skip_input() {
        check_labels(
            "input topic: \"t\"\nsession \"a\"\nse$0",
            expect![[
                r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, use"#
            ]],
        );
        check_edit(
            "session \"a\"\nse$0",
            "session",
            expect![[r#"
                session "a"
                session "$0""#]],
        );
    }

    #[test]
    fn nested_statements_and_clauses() {
        // Only `option` in a choice body.
        check_labels("choice **best**:\n  o$0", expect![[r#"option"#]]);
        // `elif`/`else` right after an `if` body, at the `if`'s column.
        check_labels(
            "if **x**:\n  session \"a\"\nel$0",
            expect![[
                r#"elif, else, session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, use"#
            ]],
        );
        check_labels(
            "parallel:\n  let y = if **x**:\n    session \"a\"\n  elif **y**:\n    session \"b\"\n  $0",
            expect![[
                r#"elif, else, session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw"#
            ]],
        );
        // ... but not inside the `if` body.
        check_labels(
            "if **x**:\n  session \"a\"\n  $0",
            expect![[
                r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw"#
            ]],
        );
        check_labels(
            "try:\n  session \"a\"\n$0",
            expect![[
                r#"catch, finally, session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, use"#
            ]],
        );
        check_labels(
            "try:\n  session \"a\"\ncatch as err:\n  session \"b\"\nfin$0",
            expect![[
                r#"finally, session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, use"#
            ]],
        );
        check_labels(
            "for x in xs:\n  repeat 2:\n    br$0",
            expect![[
                r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, break, continue"#
            ]],
        );
        check_labels(
            "block b(p):\n  $0",
            expect![[
                r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, return"#
            ]],
        );
    }

    #[test]
    fn keyword_snippet_only_on_an_empty_rest_of_line() {
        check_edit("$0pa \"x\"", "parallel", expect![[r#"parallel "x""#]]);
        check_edit(
            "if **a**:\n  session \"x\"\nel$0",
            "else",
            expect![[r#"
                if **a**:
                  session "x"
                else:
                  $0"#]],
        );
    }

    #[test]
    fn agent_properties() {
        check(
            "agent a:\n  model: opus\n  mo$0",
            expect![[r#"
                Property prompt (system prompt) => prompt: "$0"
                Property persist (persistent memory) => persist: ${1|true,project,user|}
                Property skills (imported skills) => skills: ["$0"]
                Property permissions (access rules) => permissions:⏎  $0
                Property context (variables passed in) => context: $0
            "#]],
        );
        // A blank line at the end of the file, and a property below the cursor.
        check_labels(
            "agent a:\n  model: opus\n  $0\n  prompt: \"p\"\nsession: a\n",
            expect![[r#"persist, skills, permissions, context"#]],
        );
        // A key already followed by `:` is completed alone.
        check_edit(
            "agent a:\n  pe$0: true",
            "persist",
            expect![[r#"
                agent a:
                  persist: true"#]],
        );
        // Dedented back to the top level: statements again.
        check_labels(
            "agent a:\n  model: opus\nag$0",
            expect![[
                r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, agent, block, input, use"#
            ]],
        );
    }

    #[test]
    fn session_and_resume_properties() {
        check_labels(
            "session \"x\"\n  $0",
            expect![[r#"model, prompt, context, retry, backoff, permissions"#]],
        );
        check_labels(
            "agent a:\n  model: opus\nlet r = session: a\n  context: x\n  re$0",
            expect![[r#"model, prompt, retry, backoff, permissions"#]],
        );
        check_labels(
            "parallel:\n  resume: a\n    prompt: \"p\"\n    $0",
            expect![[r#"model, context, retry, backoff, permissions"#]],
        );
    }

    #[test]
    fn permission_types() {
        check(
            "agent a:\n  permissions:\n    bash: deny\n    $0",
            expect![[r#"
                Property read (files it may read) => read: ["$0"]
                Property write (files it may write) => write: ["$0"]
                Property execute (files it may execute) => execute: ["$0"]
                Property network (network access) => network: ${1|allow,deny,prompt|}
            "#]],
        );
    }

    #[test]
    fn property_values() {
        check(
            "agent a:\n  model: $0",
            expect![[r#"
                Value sonnet (balanced, general purpose)
                Value opus (complex reasoning, detailed analysis)
                Value haiku (fast, simple tasks)
            "#]],
        );
        check_edit(
            "agent a:\n  model:$0",
            "opus",
            expect![[r#"
                agent a:
                  model: opus"#]],
        );
        check_edit(
            "agent a:\n  persist: pro$0\n  model: opus",
            "project",
            expect![[r#"
                agent a:
                  persist: project
                  model: opus"#]],
        );
        check_labels(
            "session \"x\"\n  retry: 3\n  backoff: $0",
            expect![[r#"none, linear, exponential"#]],
        );
        check_labels(
            "agent a:\n  permissions:\n    network: $0",
            expect![[r#"allow, deny, prompt"#]],
        );
        check(
            "agent a:\n  permissions:\n    read: $0",
            expect![[r#"
                Snippet ["…"] (glob patterns) => ["$1"]
                Value allow (granted)
                Value deny (denied)
                Value prompt (ask the user)
            "#]],
        );
        // No values for free-form keys.
        check_labels("agent a:\n  prompt: $0", expect![[r#""#]]);
    }

    #[test]
    fn parallel_loop_and_session_modifiers() {
        check(
            "parallel ($0",
            expect![[r#"
                Value "all" (wait for every branch (default))
                Value "first" (the first branch to finish wins)
                Value "any" (wait for `count` successes)
                Property on-fail ("fail-fast", "continue" or "ignore") => on-fail: 
                Property count (successes to wait for (with "any")) => count: 
            "#]],
        );
        check_labels(
            "parallel (\"any\", $0):\n  session \"a\"",
            expect![[r#"on-fail, count"#]],
        );
        check_labels("parallel (\"any\", count: 2, $0", expect![[r#"on-fail"#]]);
        check_labels(
            "parallel (on-fail: $0",
            expect![[r#""fail-fast", "continue", "ignore""#]],
        );
        check_labels(
            "let xs = [1]\nparallel (on-fail: \"continue\", $0) for x in xs:\n  session \"{x}\"",
            expect![[r#""all", "first", "any", count"#]],
        );
        // Inside the strings themselves.
        check_edit(
            "parallel (\"fi$0",
            "first",
            expect![[r#"parallel ("first"#]],
        );
        check_edit(
            "parallel (on-fail: \"co$0\"):\n  session \"a\"",
            "continue",
            expect![[r#"
                parallel (on-fail: "continue"):
                  session "a""#]],
        );
        check_labels("loop until **done** ($0", expect![[r#"max"#]]);
        check_labels(
            "session \"x\" (retry: 2, $0",
            expect![[r#"model, prompt, context, backoff"#]],
        );
        check_labels(
            "session \"x\" (retry: 2, backoff: $0",
            expect![[r#"none, linear, exponential"#]],
        );
    }

    const AGENTS: &str = "agent writer:\n  model: opus\n  prompt: \"You write\"\nagent captain:\n  model: sonnet\n  persist: project\n";

    #[test]
    fn agents_after_session_and_resume() {
        check(
            &format!("{AGENTS}session: wr$0"),
            expect![[r#"
                Agent writer (model: opus)
                Agent captain (model: sonnet, persist: project)
            "#]],
        );
        check_edit(
            &format!("{AGENTS}let s = session:$0"),
            "writer",
            expect![[r#"
                agent writer:
                  model: opus
                  prompt: "You write"
                agent captain:
                  model: sonnet
                  persist: project
                let s = session: writer"#]],
        );
        check_labels(
            &format!("{AGENTS}session review: $0"),
            expect![[r#"writer, captain"#]],
        );
        // `resume:` puts persistent agents first.
        check(
            &format!("{AGENTS}resume: $0\n  prompt: \"go on\"\n"),
            expect![[r#"
                Agent captain (model: sonnet, persist: project)
                Agent writer (model: opus, not persistent)
            "#]],
        );
    }

    #[test]
    fn blocks_after_do() {
        let blocks =
            "block review(draft, focus):\n  session \"r\"\nblock cleanup:\n  session \"c\"\n";
        check(
            &format!("{blocks}do $0"),
            expect![[r#"
                Block review (block review(draft, focus)) => review(${1:draft}, ${2:focus})
                Block cleanup (block cleanup())
            "#]],
        );
        check_edit(
            &format!("do rev$0(x, y)\n{blocks}"),
            "review",
            expect![[r#"
                do review(x, y)
                block review(draft, focus):
                  session "r"
                block cleanup:
                  session "c"
            "#]],
        );
    }

    const VARS: &str = "input topic: \"The subject\"\nlet research = session \"Research {topic}\"\nconst style = session \"Pick a style\"\n";

    #[test]
    fn context_variables() {
        check(
            &format!("{VARS}session \"Write\"\n  context: $0"),
            expect![[r#"
                Variable style (const variable)
                Variable research (let variable)
                Input topic (input)
            "#]],
        );
        // Half-typed lists skip the names already listed.
        check_labels(
            &format!("{VARS}session \"Write\"\n  context: [research, $0"),
            expect![[r#"style, topic"#]],
        );
        check_labels(
            &format!("{VARS}session \"Write\"\n  context: {{ style, re$0 }}\n"),
            expect![[r#"research, topic"#]],
        );
        // The value on the next line.
        check_labels(
            &format!("{VARS}session \"Write\"\n  context:\n    $0"),
            expect![[r#"style, research, topic"#]],
        );
        // Not after a complete value.
        check_labels(
            &format!("{VARS}session \"Write\"\n  context: research $0"),
            expect![[r#""#]],
        );
        // A binding written later is not visible, nor the one being written.
        check_labels(
            "let a = session \"a\"\nlet b = session \"b\"\n  context: $0\nlet c = session \"c\"\n",
            expect![[r#"a"#]],
        );
    }

    #[test]
    fn hoisted_code_sees_later_bindings() {
        check_labels(
            "agent a:\n  context: $0\nlet later = session \"l\"\n",
            expect![[r#"later"#]],
        );
        check_labels(
            "block b(p):\n  let inner = session \"i\"\n  session \"x\"\n    context: [$0]\nlet later = session \"l\"\n",
            expect![[r#"p, inner, later"#]],
        );
        // A binding inside a block body is not offered outside it.
        check_labels(
            "block b(p):\n  let inner = session \"i\"\nsession \"x\"\n  context: $0",
            expect![[r#""#]],
        );
    }

    #[test]
    fn interpolation_variables() {
        check(
            &format!("{VARS}session \"Summarise {{$0"),
            expect![[r#"
                Variable style (const variable) => style}
                Variable research (let variable) => research}
                Input topic (input) => topic}
            "#]],
        );
        check_edit(
            &format!("{VARS}session \"About {{to$0}} now\""),
            "topic",
            expect![[r#"
                input topic: "The subject"
                let research = session "Research {topic}"
                const style = session "Pick a style"
                session "About {topic} now""#]],
        );
        // Loop variables, the pipeline's `item`, and `catch` variables are
        // visible in their bodies only.
        check_labels(
            "let xs = [1]\nfor x, i in xs:\n  session \"{$0\"\nsession \"after\"",
            expect![[r#"x, i, xs"#]],
        );
        check_labels(
            "let xs = [1]\nlet r = xs | map:\n  session \"{$0\"",
            expect![[r#"item, xs"#]],
        );
        check_labels(
            "let xs = [1]\nlet r = xs | reduce(acc, x):\n  session \"\"\"{$0\n\"\"\"",
            expect![[r#"acc, x, xs"#]],
        );
        check_labels(
            "try:\n  session \"a\"\ncatch as err:\n  session \"{e$0\"\nsession \"{$0\"",
            expect![[r#"err"#]],
        );
        check_labels(
            "for x in [1]:\n  session \"a\"\nsession \"{$0\"",
            expect![[r#""#]],
        );
        // Plain string text and escaped braces: nothing.
        check_labels(&format!("{VARS}session \"Summ$0"), expect![[r#""#]]);
        check_labels(&format!("{VARS}session \"\\{{$0"), expect![[r#""#]]);
    }

    #[test]
    fn expressions_after_equals() {
        check_labels(
            &format!("{VARS}let draft = $0"),
            expect![[
                r#"session, session:, resume:, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, style, research, topic"#
            ]],
        );
        check_labels(
            &format!("{VARS}for x in $0"),
            expect![[r#"style, research, topic"#]],
        );
    }

    #[test]
    fn pipeline_operators() {
        check(
            "let xs = [1]\nlet r = xs | $0",
            expect![[r#"
                Keyword map (transform each item) => map:⏎  $0
                Keyword filter (keep the items that pass) => filter:⏎  $0
                Keyword reduce (combine the items into one) => reduce(${1:acc}, ${2:item}):⏎  $0
                Keyword pmap (transform each item concurrently) => pmap:⏎  $0
            "#]],
        );
        check_labels(
            "let xs = [1]\nlet r = xs\n  | filter:\n      session \"keep?\"\n  | pm$0",
            expect![[r#"map, filter, reduce, pmap"#]],
        );
    }

    const PROGRAMS: &str = "#- /ws/lib/research.prose\ninput topic: \"What to research\"\ninput depth: \"How deep\"\noutput findings = session \"r\"\n#- /ws/main.prose\nuse \"./lib/research.prose\" as research\n";

    #[test]
    fn program_inputs_in_calls() {
        check(
            &format!("{PROGRAMS}let r = research($0"),
            expect![[r#"
                Input topic (input of research) => topic: $1
                Input depth (input of research) => depth: $1
            "#]],
        );
        check_labels(
            &format!("{PROGRAMS}let r = research(topic: \"tides\", $0)"),
            expect![[r#"depth"#]],
        );
        check_labels(
            &format!("{PROGRAMS}let x = session \"x\"\nlet r = research(topic: $0"),
            expect![[r#"x"#]],
        );
        // An unknown program: nothing.
        check_labels("let r = nothing($0", expect![[r#""#]]);
        // The program itself, as a statement or a value.
        check(
            &format!("{PROGRAMS}let r = res$0"),
            expect![[r#"
                Keyword session (run a session with a prompt) => session "$0"
                Keyword session: (run a session with an agent) => session: ${1:agent}⏎  prompt: "$0"
                Keyword resume: (continue a persistent agent) => resume: ${1:agent}⏎  prompt: "$0"
                Keyword do (run a block) => do ${1:block}
                Keyword do: (a sequential block) => do:⏎  $0
                Keyword parallel (run branches concurrently) => parallel:⏎  $0
                Keyword parallel for (a loop whose iterations run concurrently) => parallel for ${1:item} in ${2:items}:⏎  $0
                Keyword for (repeat for each item) => for ${1:item} in ${2:items}:⏎  $0
                Keyword repeat (repeat a fixed number of times) => repeat ${1:3}:⏎  $0
                Keyword loop (loop until a condition holds) => loop until **$1** (max: ${2:10}):⏎  $0
                Keyword loop while (loop while a condition holds) => loop while **$1** (max: ${2:10}):⏎  $0
                Keyword try (handle failures) => try:⏎  $1⏎catch as ${2:err}:⏎  $0
                Keyword if (run when a condition holds) => if **$1**:⏎  $0
                Keyword choice (let the AI pick one option) => choice **$1**:⏎  option "$2":⏎    $0
                Program research (use "./lib/research.prose") => research(topic: $1, depth: $2)
            "#]],
        );
    }

    #[test]
    fn block_arguments_and_skills() {
        check_labels(
            "let x = session \"x\"\nblock b(p):\n  session \"b\"\ndo b($0",
            expect![[r#"x"#]],
        );
        check_labels(
            "use \"@anthropic/web-search\"\nimport \"summarizer\" from \"x\"\nagent a:\n  skills: [\"$0",
            expect![[r#"web-search, summarizer"#]],
        );
        check_labels(
            "use \"@anthropic/web-search\"\nagent a:\n  skills: [$0",
            expect![[r#""web-search""#]],
        );
    }

    #[test]
    fn nothing_in_comments_fields_and_names() {
        check_labels("# sess$0", expect![[r#""#]]);
        check_labels("session \"a\" # note$0\n", expect![[r#""#]]);
        check_labels("let x = session \"a\"\nsession x.$0", expect![[r#""#]]);
        check_labels("let na$0", expect![[r#""#]]);
        check_labels("if **cond$0**:", expect![[r#""#]]);
        check_labels("agent a:$0", expect![[r#""#]]);
    }

    #[test]
    fn replace_range_covers_the_whole_word() {
        let (text, items) = complete("agent a:\n  mo$0del\n");
        let r = items[0].replace_range;
        assert_eq!(&text[usize::from(r.start())..usize::from(r.end())], "model");
    }

    #[test]
    fn end_of_file_after_trailing_spaces() {
        // The statement being written binds nothing yet, even when the
        // tree ends before the cursor.
        check_labels(
            "let a = session \"a\"\nlet b = session \"b\"\n  context: $0",
            expect![[r#"a"#]],
        );
        // A new line of a loop body at the end of the file sees the loop variable.
        check_labels(
            "for x in [1]:\n  session \"a\"\n  let y = session \"{$0",
            expect![[r#"x"#]],
        );
        check_labels(
            "let xs = [1]\nfor x in xs:\n  session \"a\"\n  $0",
            expect![[
                r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, break, continue"#
            ]],
        );
    }

    #[test]
    fn names_after_the_cursor_count_as_given() {
        check_labels(
            &format!("{VARS}session \"x\"\n  context: {{$0 research, style }}"),
            expect![[r#"topic"#]],
        );
        check_labels(
            &format!("{PROGRAMS}let r = research($0, depth: \"deep\")"),
            expect![[r#"topic"#]],
        );
        // Replacing a name that already has its `:`.
        check_edit(
            &format!("{PROGRAMS}let r = research(de$0pth: \"deep\")"),
            "topic",
            expect![[r#"
                use "./lib/research.prose" as research
                let r = research(topic: "deep")"#]],
        );
        check_labels(
            "parallel ($0, count: 2):\n  session \"a\"",
            expect![[r#""all", "first", "any", on-fail"#]],
        );
    }

    #[test]
    fn reassignment_targets() {
        check_labels(
            &format!("{VARS}let draft = session \"d\"\ndr$0 = session \"again\""),
            expect![[r#"draft, research"#]],
        );
    }

    #[test]
    fn conditions() {
        check(
            "let depth = session \"d\"\nloop until $0",
            expect![[r#"
                Snippet **…** (a condition the AI judges) => **$1**
                Variable depth (let variable)
            "#]],
        );
        check_labels("choice $0", expect![[r#"**…**"#]]);
        check_labels(
            "let x = session \"x\"\nsession \"y\" (context: $0",
            expect![[r#"x"#]],
        );
    }

    #[test]
    fn half_typed_lines_in_the_middle_of_a_file() {
        check_labels(
            &format!("{VARS}session \"x\"\n  context: [research, $0\nsession \"y\"\n"),
            expect![[r#"style, topic"#]],
        );
        check_labels(
            "agent a:\n  mo$0\nsession: a\n",
            expect![[r#"model, prompt, persist, skills, permissions, context"#]],
        );
        check_labels(
            "agent a:\n  model: opus\nsession: $0\nagent b:\n  model: haiku\n",
            expect![[r#"a, b"#]],
        );
    }

    /// Keywords, properties and values carry the hover texts.
    #[test]
    fn documentation_from_hover() {
        let undocumented = |fixture: &str| -> Vec<String> {
            let (_, items) = complete(fixture);
            assert!(!items.is_empty(), "{fixture}");
            items
                .into_iter()
                .filter(|i| i.documentation.is_none())
                .map(|i| i.label)
                .collect()
        };
        let none: Vec<String> = Vec::new();
        assert_eq!(undocumented("$0"), none);
        assert_eq!(undocumented("if **x**:\n  session \"a\"\n$0"), none);
        assert_eq!(undocumented("agent a:\n  $0"), none);
        assert_eq!(undocumented("session \"x\"\n  $0"), none);
        assert_eq!(undocumented("agent a:\n  permissions:\n    $0"), none);
        assert_eq!(undocumented("agent a:\n  model: $0"), none);
        assert_eq!(undocumented("parallel ($0"), none);
        assert_eq!(undocumented("let r = xs | $0"), none);
    }

    /// Every offset of a program with every construct, and every prefix
    /// of it (typing at the end of the file): no panic, ranges in bounds.
    #[test]
    fn any_offset_and_any_prefix() {
        let text = r#"use "@alice/research" as research
import "web-search" from "anthropic"
input topic: "The subject"
agent captain:
  model: opus
  persist: project
  skills: ["web-search"]
  permissions:
    read: ["*.md"]
    bash: deny
  prompt: """
    You lead {topic}.
  """
block review(draft, focus):
  let notes = session "Review {draft} for {focus}"
    context: [draft, notes]
  return notes
let r = research(topic: topic)
parallel ("any", count: 1, on-fail: "continue"):
  a = session: captain
    retry: 2
    backoff: exponential
  b = resume: captain
loop until **done** (max: 3) as i:
  try:
    do review(a, "style")
  catch as err:
    throw
  finally:
    session "x" -> session "y"
let xs = [a, b] | map:
  session "{item}"
| reduce(acc, x):
  session "{acc} {x}"
if **good** and i > 2:
  choice **pick**:
    option "A":
      session "a"
elif **bad**:
  session "b"
else:
  output result = session "done"
    context: { a, b }
# trailing comment with "quote and {brace
"#;
        let mut host = crate::AnalysisHost::new();
        let file = host.set_file_text("/ws/main.prose", text);
        let analysis = host.analysis();
        for off in (0..=text.len()).filter(|o| text.is_char_boundary(*o)) {
            let pos = FilePosition {
                file,
                offset: TextSize::from(off as u32),
            };
            for item in analysis.completions(pos).unwrap() {
                assert!(
                    item.replace_range.contains_inclusive(pos.offset),
                    "{off}: {item:?}"
                );
                assert!(usize::from(item.replace_range.end()) <= text.len());
            }
        }
        drop(analysis);
        for cut in (0..=text.len()).filter(|o| text.is_char_boundary(*o)) {
            let file = host.set_file_text("/ws/cut.prose", &text[..cut]);
            let pos = FilePosition {
                file,
                offset: TextSize::from(cut as u32),
            };
            let analysis = host.analysis();
            for item in analysis.completions(pos).unwrap() {
                assert!(
                    item.replace_range.contains_inclusive(pos.offset),
                    "{cut}: {item:?}"
                );
            }
        }
    }
}
