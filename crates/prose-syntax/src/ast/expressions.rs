//! The [`Expr`] enum and the operator expressions: arrows, pipelines and
//! their operations, calls, field access, arrays, objects, binary, prefix,
//! ternary and parenthesised expressions, and literals.

use super::{
    Arg, ArgList, AstNode, Block, ChoiceStmt, DiscretionExpr, DoCall, DoExpr, ForExpr, IfStmt,
    LoopExpr, Name, NameRef, ParallelExpr, ParamList, RepeatExpr, ResumeExpr, SessionExpr,
    StringLit, TryStmt, support,
};
use crate::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

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
    /// `a -> b -> c`
    ArrowExpr, ARROW_EXPR
);
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

impl ArrowExpr {
    pub fn steps(&self) -> impl Iterator<Item = Expr> + use<> {
        support::children(&self.0)
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
