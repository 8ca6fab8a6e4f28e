//! Names, the file and its blocks, the [`Stmt`] enum, bindings (`let`,
//! `const`, assignment, destructuring) and expression statements.

use super::{
    AgentDef, AssertStmt, AstNode, BlockDef, BreakStmt, CatchClause, ChoiceStmt, ContinueStmt,
    ElifClause, ElseClause, Expr, FinallyClause, IfStmt, ImportStmt, InputDecl, OptionClause,
    OutputDecl, ReturnStmt, ThrowStmt, TryStmt, UseStmt, support,
};
use crate::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

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
    /// The text of [`Name::ident_token`] (empty without one).
    pub fn text(&self) -> String {
        support::first_token_text(&self.0)
    }
}

impl NameRef {
    pub fn ident_token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    /// The text of [`NameRef::ident_token`] (empty without one).
    pub fn text(&self) -> String {
        support::first_token_text(&self.0)
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
