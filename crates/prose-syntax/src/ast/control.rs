//! Control flow: `try`/`catch`/`finally`, `throw`, `choice`/`option`,
//! `if`/`elif`/`else`, `return`/`break`/`continue`, `assert`, and the
//! loops: `parallel`, `for`, `repeat` and `loop` (with [`LoopKind`]).

use super::{AstNode, Block, Expr, ModifierList, Name, StringLit, support};
use crate::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

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

// ---- loops and parallel blocks (expressions) -------------------------------------------------------------------

ast_node!(ParallelExpr, PARALLEL_EXPR);
ast_node!(
    /// `[parallel] for item[, i] in collection:` body.
    ForExpr, FOR_EXPR
);
ast_node!(RepeatExpr, REPEAT_EXPR);
ast_node!(LoopExpr, LOOP_EXPR);

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
        self.variables().next()
    }
    pub fn index(&self) -> Option<Name> {
        self.variables().nth(1)
    }
    /// The item, then the index if there is one, from one walk over the
    /// children.
    pub fn variables(&self) -> impl Iterator<Item = Name> + use<> {
        support::children(&self.0).take(2)
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
