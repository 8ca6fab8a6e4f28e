//! What the cursor wants, worked out from broken input: inside a string
//! (interpolations, join strategies, failure policies, skill names), at
//! the start of a line (statements, clauses, properties by the enclosing
//! header), or after tokens on its line (`session:`, `do`, `|`, `model:`,
//! `context: [`, a call's parentheses, `=`).

use prose_syntax::{
    AstNode, SyntaxKind, TextRange, TextSize,
    ast::{self},
};

use super::{
    CompletionKind, Cx,
    keywords::{
        AGENT_PROPERTIES, BREAK, CATCH, CONTINUE, ELIF, ELSE, FINALLY, OPTION, PERMISSION_TYPES,
        RETURN, SESSION_PROPERTIES, STATEMENTS, TOP_LEVEL,
    },
    lines::{Construct, is_word},
};
use crate::{
    db::parse,
    features::hover::{PropertyContext, keyword_docs},
};

use SyntaxKind::*;

impl Cx<'_> {
    // ---- strings --------------------------------------------------------------

    /// The string literal whose content holds the cursor.
    pub(super) fn string_at_cursor(&self) -> Option<ast::StringLit> {
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

    pub(super) fn in_string(&mut self, s: &ast::StringLit) {
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

    pub(super) fn line_start(&mut self, col: u32) {
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

    pub(super) fn after(&mut self, prev: &[usize]) {
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
}
