//! Typed views over the syntax tree, one type per construct.
//!
//! Every accessor returns `Option` (or an iterator): a tree built from
//! broken input may lack any part, and callers must cope.

use crate::{SyntaxElement, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken, TextSize};

/// A typed view of a syntax node of one (or a few) kinds.
pub trait AstNode: Sized {
    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: SyntaxNode) -> Option<Self>;
    fn syntax(&self) -> &SyntaxNode;
}

/// The node of type `N` spanning exactly `range` under `root` (the
/// innermost one when several do), found by descending from the root
/// rather than by scanning the tree.
pub fn node_spanning<N: AstNode>(root: &SyntaxNode, range: rowan::TextRange) -> Option<N> {
    if !root.text_range().contains_range(range) {
        return None;
    }
    let start = match root.covering_element(range) {
        rowan::NodeOrToken::Node(n) => n,
        rowan::NodeOrToken::Token(t) => t.parent()?,
    };
    start
        .ancestors()
        .take_while(|n| n.text_range().contains_range(range))
        .filter(|n| n.text_range() == range)
        .find_map(N::cast)
}

/// The token(s) at `offset` under `root`, as rowan's `token_at_offset`
/// answers (two when `offset` is between tokens), but found by binary
/// search at each level instead of scanning every child: a query costs the
/// depth of the tree, not the width of its widest node (a file of
/// thousands of statements is one wide node).
pub fn token_at_offset(root: &SyntaxNode, offset: TextSize) -> rowan::TokenAtOffset<SyntaxToken> {
    if !root.text_range().contains_inclusive(offset) {
        return rowan::TokenAtOffset::None;
    }
    element_at_offset(root, offset)
}

fn element_at_offset(node: &SyntaxNode, offset: TextSize) -> rowan::TokenAtOffset<SyntaxToken> {
    use rowan::TokenAtOffset;
    let Some(found) = node.child_or_token_at_range(rowan::TextRange::empty(offset)) else {
        return TokenAtOffset::None;
    };
    // The children touching `offset` are a run around `found` (with the
    // empty ones at `offset`); keep the non-empty ones: one, or two when
    // `offset` is between them.
    let mut first = found;
    while let Some(prev) = first.prev_sibling_or_token() {
        if prev.text_range().end() < offset {
            break;
        }
        first = prev;
    }
    let touching: Vec<SyntaxElement> =
        std::iter::successors(Some(first), |e| e.next_sibling_or_token())
            .take_while(|e| e.text_range().start() <= offset)
            .filter(|e| !e.text_range().is_empty() && e.text_range().contains_inclusive(offset))
            .take(2)
            .collect();
    let single = |e: &SyntaxElement| match e {
        rowan::NodeOrToken::Token(t) => TokenAtOffset::Single(t.clone()),
        rowan::NodeOrToken::Node(n) => element_at_offset(n, offset),
    };
    match touching.as_slice() {
        [] => TokenAtOffset::None,
        [one] => single(one),
        [left, right, ..] => match (single(left), single(right)) {
            (TokenAtOffset::Single(l), TokenAtOffset::Single(r)) => TokenAtOffset::Between(l, r),
            (l, TokenAtOffset::None) => l,
            (TokenAtOffset::None, r) => r,
            // Not reached: within `left`, `offset` is its end; within
            // `right`, its start.
            (l, _) => l,
        },
    }
}

mod support {
    use super::*;

    pub(super) fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
        parent.children().find_map(N::cast)
    }

    pub(super) fn children<N: AstNode>(parent: &SyntaxNode) -> impl Iterator<Item = N> + use<N> {
        parent.children().filter_map(N::cast)
    }

    pub(super) fn token(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
        parent
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| t.kind() == kind)
    }

    /// The first child of type `N` that comes after a `kind` token.
    pub(super) fn child_after<N: AstNode>(parent: &SyntaxNode, kind: SyntaxKind) -> Option<N> {
        let mut seen = false;
        for e in parent.children_with_tokens() {
            match e {
                rowan::NodeOrToken::Token(t) if t.kind() == kind => seen = true,
                rowan::NodeOrToken::Node(n) if seen => {
                    if let Some(n) = N::cast(n) {
                        return Some(n);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

macro_rules! ast_node {
    ($(#[$meta:meta])* $name:ident, $($kind:ident)|+) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(SyntaxNode);

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                matches!(kind, $($kind)|+)
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then(|| Self(node))
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.0
            }
        }
    };
}

macro_rules! ast_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident($ty:ident) = $($kind:ident)|+),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant($ty)),+
        }

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                matches!(kind, $($($kind)|+)|+)
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Some(match node.kind() {
                    $($($kind)|+ => $name::$variant($ty(node)),)+
                    _ => return None,
                })
            }
            fn syntax(&self) -> &SyntaxNode {
                match self {
                    $($name::$variant(it) => &it.0),+
                }
            }
        }
    };
}

// ---- names -------------------------------------------------------------

ast_node!(
    /// A name being defined (agent, block, variable, parameter, alias).
    Name, NAME
);
ast_node!(
    /// A use of a name (agent reference, variable, block call target).
    NameRef, NAME_REF
);

impl Name {
    pub fn ident_token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    pub fn text(&self) -> String {
        self.ident_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

impl NameRef {
    pub fn ident_token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    pub fn text(&self) -> String {
        self.ident_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

// ---- file and blocks ------------------------------------------------------

ast_node!(
    /// The whole program.
    SourceFile, SOURCE_FILE
);
ast_node!(
    /// An indented body (or an inline statement after `:`).
    Block, BLOCK
);

impl SourceFile {
    pub fn statements(&self) -> impl Iterator<Item = Stmt> + use<> {
        support::children(&self.0)
    }
}

impl Block {
    pub fn statements(&self) -> impl Iterator<Item = Stmt> + use<> {
        support::children(&self.0)
    }
    /// Whether the body is written on the same line as its header.
    pub fn is_inline(&self) -> bool {
        self.0.first_token().is_none_or(|t| t.kind() != NEWLINE)
    }
}

ast_enum!(
    /// Any statement.
    Stmt {
        Use(UseStmt) = USE_STMT,
        Import(ImportStmt) = IMPORT_STMT,
        Input(InputDecl) = INPUT_DECL,
        Output(OutputDecl) = OUTPUT_DECL,
        Agent(AgentDef) = AGENT_DEF,
        BlockDef(BlockDef) = BLOCK_DEF,
        Let(LetStmt) = LET_STMT | CONST_STMT,
        Assign(AssignStmt) = ASSIGN_STMT,
        Expr(ExprStmt) = EXPR_STMT,
        Try(TryStmt) = TRY_STMT,
        Catch(CatchClause) = CATCH_CLAUSE,
        Finally(FinallyClause) = FINALLY_CLAUSE,
        Throw(ThrowStmt) = THROW_STMT,
        Choice(ChoiceStmt) = CHOICE_STMT,
        Option(OptionClause) = OPTION_CLAUSE,
        If(IfStmt) = IF_STMT,
        Elif(ElifClause) = ELIF_CLAUSE,
        Else(ElseClause) = ELSE_CLAUSE,
        Return(ReturnStmt) = RETURN_STMT,
        Break(BreakStmt) = BREAK_STMT,
        Continue(ContinueStmt) = CONTINUE_STMT,
        Assert(AssertStmt) = ASSERT_STMT,
    }
);

impl Stmt {
    /// Whether this statement executes something (everything but
    /// declarations: use, import, input, agent and block definitions).
    pub fn is_executable(&self) -> bool {
        !matches!(
            self,
            Stmt::Use(_) | Stmt::Import(_) | Stmt::Input(_) | Stmt::Agent(_) | Stmt::BlockDef(_)
        )
    }
}

// ---- program composition ---------------------------------------------------

ast_node!(
    /// `use "@handle/slug" [as alias]`
    UseStmt, USE_STMT
);
ast_node!(
    /// Legacy `import "name" from "source"`.
    ImportStmt, IMPORT_STMT
);
ast_node!(
    /// `input name: "description"`
    InputDecl, INPUT_DECL
);
ast_node!(
    /// `output name = expr`, or the bare `output expr`.
    OutputDecl, OUTPUT_DECL
);

impl UseStmt {
    pub fn path(&self) -> Option<StringLit> {
        support::child(&self.0)
    }
    pub fn alias(&self) -> Option<Name> {
        support::child(&self.0)
    }
}

impl ImportStmt {
    pub fn name(&self) -> Option<StringLit> {
        support::children(&self.0).next()
    }
    pub fn source(&self) -> Option<StringLit> {
        support::child_after(&self.0, FROM_KW)
    }
}

impl InputDecl {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, INPUT_KW)
    }
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn description(&self) -> Option<Expr> {
        support::child_after(&self.0, COLON)
    }
}

impl OutputDecl {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, OUTPUT_KW)
    }
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    /// `=` is present: a named output (possibly with an empty name).
    pub fn is_named(&self) -> bool {
        support::token(&self.0, EQ).is_some()
    }
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

// ---- definitions --------------------------------------------------------------

ast_node!(
    /// `agent name:` with a property block.
    AgentDef, AGENT_DEF
);
ast_node!(
    /// `block name(params):` body.
    BlockDef, BLOCK_DEF
);
ast_node!(
    /// `(a, b)` parameters of a block or of `reduce`.
    ParamList, PARAM_LIST
);
ast_node!(Param, PARAM);
ast_node!(
    /// Indented `key: value` lines.
    PropertyBlock, PROPERTY_BLOCK
);
ast_node!(
    /// `key: value`.
    Property, PROPERTY
);

impl AgentDef {
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn property_block(&self) -> Option<PropertyBlock> {
        support::child(&self.0)
    }
    pub fn properties(&self) -> impl Iterator<Item = Property> + use<> {
        self.property_block()
            .into_iter()
            .flat_map(|b| b.properties())
    }
    /// The first property called `key`.
    pub fn property(&self, key: &str) -> Option<Property> {
        self.properties().find(|p| p.key() == key)
    }
}

impl BlockDef {
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        support::child::<ParamList>(&self.0)
            .into_iter()
            .flat_map(|l| l.params())
    }
    pub fn param_list(&self) -> Option<ParamList> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl ParamList {
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        support::children(&self.0)
    }
}

impl Param {
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
}

impl PropertyBlock {
    pub fn properties(&self) -> impl Iterator<Item = Property> + use<> {
        support::children(&self.0)
    }
}

impl Property {
    pub fn key_token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    pub fn key(&self) -> String {
        self.key_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
    /// The value written on the same line.
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    /// A nested property block (`permissions:`).
    pub fn nested(&self) -> Option<PropertyBlock> {
        support::child(&self.0)
    }
    /// A value written on the following indented lines (e.g. a `"""` prompt).
    pub fn value_block(&self) -> Option<Block> {
        support::child(&self.0)
    }
    /// The value, wherever it was written: same line or the next lines.
    pub fn any_value(&self) -> Option<Expr> {
        self.value().or_else(|| {
            self.value_block()?.statements().find_map(|s| match s {
                Stmt::Expr(e) => e.expr(),
                _ => None,
            })
        })
    }
}

// ---- bindings ------------------------------------------------------------------

ast_node!(
    /// `let name = expr` or `const name = expr` (or a destructuring pattern).
    LetStmt, LET_STMT | CONST_STMT
);
ast_node!(
    /// `name = expr`
    AssignStmt, ASSIGN_STMT
);
ast_node!(
    /// `{ a, b }` on the left of `let`.
    DestructurePat, DESTRUCTURE_PAT
);
ast_node!(
    /// A statement that is just an expression.
    ExprStmt, EXPR_STMT
);

impl LetStmt {
    pub fn is_const(&self) -> bool {
        self.0.kind() == CONST_STMT
    }
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn pattern(&self) -> Option<DestructurePat> {
        support::child(&self.0)
    }
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl AssignStmt {
    pub fn target(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    pub fn value(&self) -> Option<Expr> {
        support::child_after(&self.0, EQ)
    }
}

impl DestructurePat {
    pub fn names(&self) -> impl Iterator<Item = Name> + use<> {
        support::children(&self.0)
    }
}

impl ExprStmt {
    pub fn expr(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

// ---- control flow statements --------------------------------------------------

ast_node!(TryStmt, TRY_STMT);
ast_node!(CatchClause, CATCH_CLAUSE);
ast_node!(FinallyClause, FINALLY_CLAUSE);
ast_node!(ThrowStmt, THROW_STMT);
ast_node!(ChoiceStmt, CHOICE_STMT);
ast_node!(OptionClause, OPTION_CLAUSE);
ast_node!(IfStmt, IF_STMT);
ast_node!(ElifClause, ELIF_CLAUSE);
ast_node!(ElseClause, ELSE_CLAUSE);
ast_node!(ReturnStmt, RETURN_STMT);
ast_node!(BreakStmt, BREAK_STMT);
ast_node!(ContinueStmt, CONTINUE_STMT);
ast_node!(
    /// `assert condition` with an optional message body.
    AssertStmt, ASSERT_STMT
);

impl TryStmt {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, TRY_KW)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
    pub fn catch_clause(&self) -> Option<CatchClause> {
        support::child(&self.0)
    }
    pub fn finally_clause(&self) -> Option<FinallyClause> {
        support::child(&self.0)
    }
}

impl CatchClause {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, CATCH_KW)
    }
    pub fn error_name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl FinallyClause {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, FINALLY_KW)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl ThrowStmt {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, THROW_KW)
    }
    pub fn message(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl ChoiceStmt {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, CHOICE_KW)
    }
    pub fn criteria(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
    pub fn options(&self) -> impl Iterator<Item = OptionClause> + use<> {
        self.body()
            .into_iter()
            .flat_map(|b| support::children(&b.0))
    }
}

impl OptionClause {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, OPTION_KW)
    }
    pub fn label(&self) -> Option<StringLit> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl IfStmt {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, IF_KW)
    }
    pub fn condition(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
    pub fn elif_clauses(&self) -> impl Iterator<Item = ElifClause> + use<> {
        support::children(&self.0)
    }
    pub fn else_clauses(&self) -> impl Iterator<Item = ElseClause> + use<> {
        support::children(&self.0)
    }
}

impl ElifClause {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, ELIF_KW)
    }
    pub fn condition(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl ElseClause {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, ELSE_KW)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl ReturnStmt {
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl AssertStmt {
    pub fn condition(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

// ---- expressions -------------------------------------------------------------------

ast_enum!(
    /// Any expression.
    Expr {
        Session(SessionExpr) = SESSION_EXPR,
        Resume(ResumeExpr) = RESUME_EXPR,
        Do(DoExpr) = DO_EXPR,
        DoCall(DoCall) = DO_CALL,
        Arrow(ArrowExpr) = ARROW_EXPR,
        Parallel(ParallelExpr) = PARALLEL_EXPR,
        For(ForExpr) = FOR_EXPR,
        Repeat(RepeatExpr) = REPEAT_EXPR,
        Loop(LoopExpr) = LOOP_EXPR,
        Pipe(PipeExpr) = PIPE_EXPR,
        Call(CallExpr) = CALL_EXPR,
        Field(FieldExpr) = FIELD_EXPR,
        Array(ArrayExpr) = ARRAY_EXPR,
        Object(ObjectExpr) = OBJECT_EXPR,
        Binary(BinaryExpr) = BINARY_EXPR,
        Prefix(PrefixExpr) = PREFIX_EXPR,
        Ternary(TernaryExpr) = TERNARY_EXPR,
        Paren(ParenExpr) = PAREN_EXPR,
        Literal(Literal) = LITERAL,
        String(StringLit) = STRING,
        Discretion(DiscretionExpr) = DISCRETION_EXPR,
        NameRef(NameRef) = NAME_REF,
        Try(TryStmt) = TRY_STMT,
        If(IfStmt) = IF_STMT,
        Choice(ChoiceStmt) = CHOICE_STMT,
    }
);

ast_node!(
    /// `session "prompt"`, `session: agent`, `session name: agent`, with
    /// optional `(modifiers)` and properties.
    SessionExpr, SESSION_EXPR
);
ast_node!(
    /// `resume: agent` with optional properties.
    ResumeExpr, RESUME_EXPR
);
ast_node!(
    /// `do:` followed by a block.
    DoExpr, DO_EXPR
);
ast_node!(
    /// `do name` or `do name(args)`.
    DoCall, DO_CALL
);
ast_node!(ArgList, ARG_LIST);
ast_node!(
    /// A positional or `name: value` argument.
    Arg, ARG
);
ast_node!(
    /// `a -> b -> c`
    ArrowExpr, ARROW_EXPR
);
ast_node!(ParallelExpr, PARALLEL_EXPR);
ast_node!(
    /// `("first", on-fail: "continue", count: 2)`, `(max: 10)`, ...
    ModifierList, MODIFIER_LIST
);
ast_node!(Modifier, MODIFIER);
ast_node!(
    /// `[parallel] for item[, i] in collection:` body.
    ForExpr, FOR_EXPR
);
ast_node!(RepeatExpr, REPEAT_EXPR);
ast_node!(LoopExpr, LOOP_EXPR);
ast_node!(
    /// `source | op: body` (chains nest to the left).
    PipeExpr, PIPE_EXPR
);
ast_node!(PipeOp, PIPE_OP);
ast_node!(
    /// `program(input: value)` (also `xs[i]` indexing).
    CallExpr, CALL_EXPR
);
ast_node!(
    /// `receiver.field`
    FieldExpr, FIELD_EXPR
);
ast_node!(ArrayExpr, ARRAY_EXPR);
ast_node!(
    /// `{ a, b }` or `{ key: value }`.
    ObjectExpr, OBJECT_EXPR
);
ast_node!(ObjectField, OBJECT_FIELD);
ast_node!(BinaryExpr, BINARY_EXPR);
ast_node!(PrefixExpr, PREFIX_EXPR);
ast_node!(TernaryExpr, TERNARY_EXPR);
ast_node!(ParenExpr, PAREN_EXPR);
ast_node!(
    /// A number, `true`, `false`, `null` or `...`.
    Literal, LITERAL
);
ast_node!(
    /// A string literal (single or triple quoted) with its pieces.
    StringLit, STRING
);
ast_node!(
    /// `{name}` or `{name.field}` inside a string.
    Interpolation, INTERPOLATION
);
ast_node!(
    /// `**text**` or `***text***`.
    DiscretionExpr, DISCRETION_EXPR
);

/// The role of a session statement.
impl SessionExpr {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, SESSION_KW)
    }
    /// `session name: agent` binds `name`.
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn agent(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    /// The inline prompt `session "..."`.
    pub fn prompt(&self) -> Option<StringLit> {
        support::child(&self.0)
    }
    pub fn modifiers(&self) -> Option<ModifierList> {
        support::child(&self.0)
    }
    pub fn property_block(&self) -> Option<PropertyBlock> {
        support::child(&self.0)
    }
    pub fn properties(&self) -> impl Iterator<Item = Property> + use<> {
        self.property_block()
            .into_iter()
            .flat_map(|b| b.properties())
    }
    pub fn property(&self, key: &str) -> Option<Property> {
        self.properties().find(|p| p.key() == key)
    }
}

impl ResumeExpr {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, RESUME_KW)
    }
    pub fn agent(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    pub fn property_block(&self) -> Option<PropertyBlock> {
        support::child(&self.0)
    }
    pub fn properties(&self) -> impl Iterator<Item = Property> + use<> {
        self.property_block()
            .into_iter()
            .flat_map(|b| b.properties())
    }
    pub fn property(&self, key: &str) -> Option<Property> {
        self.properties().find(|p| p.key() == key)
    }
}

impl DoExpr {
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl DoCall {
    pub fn name_ref(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    pub fn arg_list(&self) -> Option<ArgList> {
        support::child(&self.0)
    }
    pub fn args(&self) -> impl Iterator<Item = Arg> + use<> {
        self.arg_list().into_iter().flat_map(|l| l.args())
    }
}

impl ArgList {
    pub fn args(&self) -> impl Iterator<Item = Arg> + use<> {
        support::children(&self.0)
    }
}

impl Arg {
    /// The name of a `name: value` argument.
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl ArrowExpr {
    pub fn steps(&self) -> impl Iterator<Item = Expr> + use<> {
        support::children(&self.0)
    }
}

impl ParallelExpr {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, PARALLEL_KW)
    }
    pub fn modifiers(&self) -> Option<ModifierList> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl ModifierList {
    pub fn modifiers(&self) -> impl Iterator<Item = Modifier> + use<> {
        support::children(&self.0)
    }
}

impl Modifier {
    /// `on-fail` in `on-fail: "continue"`; `None` for a bare `"first"`.
    pub fn key_token(&self) -> Option<SyntaxToken> {
        let first = self.0.first_token()?;
        (first.kind() == IDENT && support::token(&self.0, COLON).is_some()).then_some(first)
    }
    pub fn key(&self) -> Option<String> {
        self.key_token().map(|t| t.text().to_string())
    }
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl ForExpr {
    pub fn is_parallel(&self) -> bool {
        support::token(&self.0, PARALLEL_KW).is_some()
    }
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, FOR_KW)
    }
    pub fn modifiers(&self) -> Option<ModifierList> {
        support::child(&self.0)
    }
    pub fn item(&self) -> Option<Name> {
        support::children(&self.0).next()
    }
    pub fn index(&self) -> Option<Name> {
        support::children(&self.0).nth(1)
    }
    pub fn collection(&self) -> Option<Expr> {
        support::child_after(&self.0, IN_KW)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl RepeatExpr {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, REPEAT_KW)
    }
    pub fn count(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn index(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

/// Which kind of unbounded loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopKind {
    Plain,
    Until,
    While,
}

impl LoopExpr {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, LOOP_KW)
    }
    pub fn loop_kind(&self) -> LoopKind {
        if support::token(&self.0, UNTIL_KW).is_some() {
            LoopKind::Until
        } else if support::token(&self.0, WHILE_KW).is_some() {
            LoopKind::While
        } else {
            LoopKind::Plain
        }
    }
    /// The `until` / `while` keyword.
    pub fn condition_keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, UNTIL_KW).or_else(|| support::token(&self.0, WHILE_KW))
    }
    pub fn condition(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn modifiers(&self) -> Option<ModifierList> {
        support::child(&self.0)
    }
    pub fn index(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl PipeExpr {
    /// The collection (or the previous pipeline stage).
    pub fn source(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn op(&self) -> Option<PipeOp> {
        support::child(&self.0)
    }
    /// The first source of a chain and its operations, left to right.
    pub fn flatten(&self) -> (Option<Expr>, Vec<PipeOp>) {
        let mut ops = Vec::new();
        let mut cur = self.clone();
        loop {
            if let Some(op) = cur.op() {
                ops.push(op);
            }
            match cur.source() {
                Some(Expr::Pipe(inner)) => cur = inner,
                other => {
                    ops.reverse();
                    return (other, ops);
                }
            }
        }
    }
}

impl PipeOp {
    /// The operation token (`map`, `filter`, `reduce`, `pmap`, or an unknown name).
    pub fn op_token(&self) -> Option<SyntaxToken> {
        let t = self
            .0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| !t.kind().is_trivia() && t.kind() != PIPE);
        t.or_else(|| support::child::<NameRef>(&self.0).and_then(|n| n.ident_token()))
    }
    pub fn op_name(&self) -> String {
        self.op_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
    pub fn params(&self) -> Option<ParamList> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl CallExpr {
    pub fn callee(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn arg_list(&self) -> Option<ArgList> {
        support::child(&self.0)
    }
    pub fn args(&self) -> impl Iterator<Item = Arg> + use<> {
        self.arg_list().into_iter().flat_map(|l| l.args())
    }
}

impl FieldExpr {
    pub fn receiver(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    pub fn field(&self) -> Option<NameRef> {
        support::child_after(&self.0, DOT)
    }
}

impl ArrayExpr {
    pub fn elements(&self) -> impl Iterator<Item = Expr> + use<> {
        support::children(&self.0)
    }
}

impl ObjectExpr {
    pub fn fields(&self) -> impl Iterator<Item = ObjectField> + use<> {
        support::children(&self.0)
    }
}

impl ObjectField {
    /// `key` in `key: value`.
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    /// The variable of a shorthand field `{ a }`.
    pub fn shorthand(&self) -> Option<NameRef> {
        if support::token(&self.0, COLON).is_some() {
            return None;
        }
        support::child(&self.0)
    }
    /// The dotted path of a shorthand field `{ access.token }`.
    pub fn shorthand_path(&self) -> Option<FieldExpr> {
        if support::token(&self.0, COLON).is_some() {
            return None;
        }
        support::child(&self.0)
    }
    pub fn value(&self) -> Option<Expr> {
        support::child_after(&self.0, COLON)
    }
}

impl BinaryExpr {
    pub fn lhs(&self) -> Option<Expr> {
        support::children(&self.0).next()
    }
    pub fn rhs(&self) -> Option<Expr> {
        support::children(&self.0).nth(1)
    }
    pub fn op_token(&self) -> Option<SyntaxToken> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| !t.kind().is_trivia() && t.kind() != NEWLINE)
    }
}

impl PrefixExpr {
    pub fn op_token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    pub fn operand(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl TernaryExpr {
    pub fn condition(&self) -> Option<Expr> {
        support::children(&self.0).next()
    }
    pub fn then_branch(&self) -> Option<Expr> {
        support::children(&self.0).nth(1)
    }
    pub fn else_branch(&self) -> Option<Expr> {
        support::children(&self.0).nth(2)
    }
}

impl ParenExpr {
    pub fn expr(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl Literal {
    pub fn token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    /// The integer value of a plain integer literal (`3`, not `2.5` or `120s`).
    pub fn as_integer(&self) -> Option<i64> {
        let t = self.token()?;
        if t.kind() != NUMBER || !t.text().bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.text().parse().ok()
    }
    /// The numeric value of a number without a unit suffix.
    pub fn as_number(&self) -> Option<f64> {
        let t = self.token()?;
        if t.kind() != NUMBER || !t.text().bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return None;
        }
        t.text().parse().ok()
    }
}

impl StringLit {
    pub fn open_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, STRING_OPEN)
    }
    pub fn is_triple(&self) -> bool {
        self.open_token().is_some_and(|t| t.text().len() == 3)
    }
    pub fn is_terminated(&self) -> bool {
        support::token(&self.0, STRING_CLOSE).is_some()
    }
    pub fn interpolations(&self) -> impl Iterator<Item = Interpolation> + use<> {
        support::children(&self.0)
    }
    /// The text between the quotes with escapes decoded; interpolations
    /// are kept as written (`{name}`).
    pub fn value(&self) -> String {
        let mut out = String::new();
        for e in self.0.children_with_tokens() {
            match e {
                rowan::NodeOrToken::Token(t) => match t.kind() {
                    STRING_TEXT => out.push_str(t.text()),
                    STRING_ESCAPE => out.push_str(decode_escape(t.text())),
                    _ => {}
                },
                rowan::NodeOrToken::Node(n) => out.push_str(&n.text().to_string()),
            }
        }
        out
    }
    /// The range of the content between the quotes.
    pub fn content_range(&self) -> crate::TextRange {
        let range = self.0.text_range();
        let start = self
            .open_token()
            .map_or(range.start(), |t| t.text_range().end());
        let end =
            support::token(&self.0, STRING_CLOSE).map_or(range.end(), |t| t.text_range().start());
        crate::TextRange::new(start, end.max(start))
    }
}

/// The text an escape sequence stands for (`\\n` is a line break); an
/// unknown escape stands for itself.
pub fn decode_escape(escape: &str) -> &str {
    match escape {
        "\\n" => "\n",
        "\\t" => "\t",
        "\\\\" => "\\",
        "\\\"" => "\"",
        "\\{" => "{",
        "\\}" => "}",
        other => other,
    }
}

impl Interpolation {
    pub fn name_ref(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    /// The field path after the variable: `["b"]` for `{a.b}`.
    pub fn fields(&self) -> Vec<SyntaxToken> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == IDENT)
            .collect()
    }
}

impl DiscretionExpr {
    pub fn token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    pub fn is_multiline(&self) -> bool {
        self.token()
            .is_some_and(|t| t.text().starts_with("***") || crate::lines::has_line_break(t.text()))
    }
    /// The condition text between the markers, trimmed.
    pub fn text(&self) -> String {
        let Some(t) = self.token() else {
            return String::new();
        };
        let s = t.text();
        let open = s.bytes().take_while(|&b| b == b'*').count();
        let inner = &s[open..];
        let close = inner
            .bytes()
            .rev()
            .take_while(|&b| b == b'*')
            .count()
            .min(open);
        inner[..inner.len() - close].trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn token_at_offset_agrees_with_rowan() {
        for text in [
            "",
            "session \"a\"\n",
            "agent a:\n  model: opus\n\n# c\nif **x**:\n  let y = [1, (2)]\n",
            "let x = [a,\n\n  b, **c**]\r\nsession \"\"\"\n  {x}\n\"\"\"",
            "\u{FEFF}  \n\n\t x = \"unterminated\n)))",
        ] {
            let root = crate::parse(text).syntax_node();
            for offset in 0..=text.len() as u32 {
                let offset = TextSize::from(offset);
                let ours: Vec<_> = super::token_at_offset(&root, offset).collect();
                let rowans: Vec<_> = root.token_at_offset(offset).collect();
                assert_eq!(ours, rowans, "{text:?} at {offset:?}");
            }
        }
    }

    use super::*;

    fn file(text: &str) -> SourceFile {
        crate::parse(text).tree()
    }

    #[test]
    fn session_forms() {
        let f = file("session \"hi\"\nsession: a\nsession s: b\n  model: opus\n");
        let sessions: Vec<SessionExpr> = f
            .statements()
            .filter_map(|s| match s {
                Stmt::Expr(e) => match e.expr()? {
                    Expr::Session(s) => Some(s),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(sessions.len(), 3);
        assert_eq!(sessions[0].prompt().unwrap().value(), "hi");
        assert_eq!(sessions[1].agent().unwrap().text(), "a");
        assert_eq!(sessions[2].name().unwrap().text(), "s");
        assert_eq!(sessions[2].agent().unwrap().text(), "b");
        assert_eq!(
            sessions[2]
                .property("model")
                .unwrap()
                .value()
                .unwrap()
                .syntax()
                .text()
                .to_string(),
            "opus"
        );
    }

    #[test]
    fn pipeline_flatten_and_discretion_text() {
        let f = file(
            "let r = xs\n  | filter:\n      session \"a\"\n  | map:\n      session \"b\"\nif ***\n  done\n***:\n  session \"x\"\n",
        );
        let Some(Stmt::Let(l)) = f.statements().next() else {
            panic!()
        };
        let Some(Expr::Pipe(p)) = l.value() else {
            panic!("{:#?}", l.syntax())
        };
        let (src, ops) = p.flatten();
        assert_eq!(src.unwrap().syntax().text().to_string(), "xs");
        assert_eq!(
            ops.iter().map(|o| o.op_name()).collect::<Vec<_>>(),
            ["filter", "map"]
        );
        let Some(Stmt::If(i)) = f.statements().nth(1) else {
            panic!()
        };
        let Some(Expr::Discretion(d)) = i.condition() else {
            panic!()
        };
        assert_eq!(d.text(), "done");
        assert!(d.is_multiline());
    }

    #[test]
    fn string_value_decodes_escapes() {
        let f = file(r#"session "a\nb \"q\" {x} \{""#);
        let Some(Stmt::Expr(e)) = f.statements().next() else {
            panic!()
        };
        let Some(Expr::Session(s)) = e.expr() else {
            panic!()
        };
        let p = s.prompt().unwrap();
        assert_eq!(p.value(), "a\nb \"q\" {x} {");
        assert_eq!(
            p.interpolations()
                .next()
                .unwrap()
                .name_ref()
                .unwrap()
                .text(),
            "x"
        );
    }

    #[test]
    fn loops_and_for() {
        let f = file(
            "parallel for x, i in items:\n  session \"a\"\nloop until **done** (max: 3) as n:\n  session \"b\"\n",
        );
        let mut st = f.statements();
        let Some(Stmt::Expr(e)) = st.next() else {
            panic!()
        };
        let Some(Expr::For(fe)) = e.expr() else {
            panic!("{:#?}", e.syntax())
        };
        assert!(fe.is_parallel());
        assert_eq!(fe.item().unwrap().text(), "x");
        assert_eq!(fe.index().unwrap().text(), "i");
        assert_eq!(
            fe.collection().unwrap().syntax().text().to_string(),
            "items"
        );
        let Some(Stmt::Expr(e)) = st.next() else {
            panic!()
        };
        let Some(Expr::Loop(lp)) = e.expr() else {
            panic!()
        };
        assert_eq!(lp.loop_kind(), LoopKind::Until);
        assert_eq!(lp.index().unwrap().text(), "n");
        let m = lp.modifiers().unwrap().modifiers().next().unwrap();
        assert_eq!(m.key().as_deref(), Some("max"));
    }
}
