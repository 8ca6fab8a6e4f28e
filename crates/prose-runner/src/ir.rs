//! The program as the interpreter runs it: plain data, `Send + Sync`,
//! lowered once from the syntax tree ([`crate::lower`]).
//!
//! The syntax tree (rowan) cannot cross threads and keeps every token; the
//! IR keeps what execution needs: statements, expressions, resolved
//! properties, and for every construct its [`Site`] (source offset and
//! line) for events, state and the keys that make resume exact.

use std::collections::HashMap;

use crate::{backend::Permissions, value::Value};

/// Where a construct starts in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Site {
    /// Byte offset of the construct's first token.
    pub offset: u32,
    /// 1-based line.
    pub line: u32,
}

/// A lowered program.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// The program's text.
    pub source: String,
    pub body: Vec<Stmt>,
    pub agents: HashMap<String, Agent>,
    pub blocks: HashMap<String, BlockDef>,
    /// `use` statements by the name they bind.
    pub imports: HashMap<String, Import>,
    /// Every `input` declaration, in source order, wherever it is.
    pub inputs: Vec<InputDecl>,
    /// Every named `output`, in source order.
    pub outputs: Vec<String>,
}

/// `use "path" [as name]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    pub path: String,
    pub site: Site,
}

/// `input name: prompt`.
#[derive(Debug, Clone, PartialEq)]
pub struct InputDecl {
    pub name: String,
    /// The description or question (a string, or the text of a discretion).
    pub prompt: Template,
    pub site: Site,
}

/// Where a persistent agent keeps its memory.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Persist {
    /// `persist: true`: `.prose/runs/{id}/agents/{name}/`.
    Run,
    /// `persist: project`: `.prose/agents/{name}/`.
    Project,
    /// `persist: user`: `~/.prose/agents/{name}/`.
    User,
    /// `persist: "path"`: that directory (relative to the workspace root).
    Path(String),
}

/// How long to wait between retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backoff {
    #[default]
    None,
    Linear,
    Exponential,
}

/// Properties a session or an agent can carry. `None` = not written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Props {
    pub model: Option<String>,
    pub prompt: Option<Template>,
    pub context: Option<Expr>,
    pub retry: Option<Expr>,
    pub backoff: Option<Backoff>,
    pub timeout_ms: Option<u64>,
    pub permissions: Option<Permissions>,
    pub skills: Option<Vec<String>>,
    pub persist: Option<Persist>,
}

/// `agent name:` and its properties.
#[derive(Debug, Clone, PartialEq)]
pub struct Agent {
    pub name: String,
    pub props: Props,
    pub site: Site,
}

/// `block name(params):` body.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockDef {
    pub name: String,
    pub params: Vec<String>,
    pub body: Vec<Stmt>,
    pub site: Site,
}

/// A string with `{name.field}` interpolations.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Template {
    pub pieces: Vec<Piece>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    /// `{name}` or `{name.a.b}`; `raw` is the text as written, kept when
    /// the name is not bound (template text for the agent).
    Var {
        name: String,
        fields: Vec<String>,
        raw: String,
    },
}

impl Template {
    pub fn text(s: impl Into<String>) -> Self {
        Template {
            pieces: vec![Piece::Text(s.into())],
        }
    }

    /// The template as written, interpolations unexpanded.
    pub fn raw(&self) -> String {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.as_str(),
                Piece::Var { raw, .. } => raw.as_str(),
            })
            .collect()
    }
}

/// A statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub site: Site,
    /// The statement's source text (for the `source:` block of bindings).
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `let` / `const` (a name or a destructuring pattern).
    Let {
        target: Target,
        value: Expr,
        is_const: bool,
    },
    /// `name = expr`.
    Assign {
        name: String,
        value: Expr,
    },
    /// `output name = expr` (named) or a block's bare `output expr`
    /// (`name` is `None`: the block returns the value).
    Output {
        name: Option<String>,
        value: Expr,
    },
    /// A mid-program or top-level `input`.
    Input(InputDecl),
    Expr(Expr),
    Try {
        body: Vec<Stmt>,
        catch: Option<Catch>,
        finally: Option<Vec<Stmt>>,
    },
    Throw(Option<Expr>),
    Return(Option<Expr>),
    Break,
    Continue,
    Assert {
        condition: Expr,
        message: Option<Expr>,
    },
    /// Declarations (agents, blocks, `use`) and comments: nothing to run.
    Nop,
}

/// The left side of a `let`.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Name(String),
    Destructure(Vec<String>),
}

/// `catch [as name]:` body.
#[derive(Debug, Clone, PartialEq)]
pub struct Catch {
    pub name: Option<String>,
    pub body: Vec<Stmt>,
}

/// A session or `resume:`.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSpec {
    pub resume: bool,
    /// `session name: agent` binds `name`.
    pub name: Option<String>,
    pub agent: Option<String>,
    /// `session "prompt"`.
    pub inline_prompt: Option<Template>,
    /// The properties written on the session (and its `(modifiers)`).
    pub props: Props,
    pub site: Site,
    /// The session's source text.
    pub text: String,
}

/// Join strategy of a parallel block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Join {
    #[default]
    All,
    First,
    Any,
}

/// Failure policy of a parallel block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnFail {
    #[default]
    FailFast,
    Continue,
    Ignore,
}

/// A parallel block.
#[derive(Debug, Clone, PartialEq)]
pub struct Parallel {
    pub join: Join,
    pub on_fail: OnFail,
    /// `count:` (with `any`).
    pub count: Option<Expr>,
    pub branches: Vec<Branch>,
    pub site: Site,
}

/// One branch: an optional result name and a statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    pub name: Option<String>,
    pub stmt: Stmt,
}

/// `repeat N [as i]:`.
#[derive(Debug, Clone, PartialEq)]
pub struct Repeat {
    pub count: Expr,
    pub index: Option<String>,
    pub body: Vec<Stmt>,
    pub site: Site,
}

/// `[parallel] for item[, i] in collection:`.
#[derive(Debug, Clone, PartialEq)]
pub struct ForLoop {
    pub parallel: bool,
    pub item: String,
    pub index: Option<String>,
    pub collection: Expr,
    pub body: Vec<Stmt>,
    pub site: Site,
}

/// `loop [until|while cond] [(max: N)] [as i]:`.
#[derive(Debug, Clone, PartialEq)]
pub struct Loop {
    pub condition: Option<(LoopCond, Expr)>,
    pub max: Option<Expr>,
    pub index: Option<String>,
    pub body: Vec<Stmt>,
    pub site: Site,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopCond {
    Until,
    While,
}

/// `source | op | op ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipe {
    pub source: Expr,
    pub ops: Vec<PipeOp>,
    pub site: Site,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PipeOp {
    pub kind: PipeKind,
    pub body: Vec<Stmt>,
    pub site: Site,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PipeKind {
    Map,
    Filter,
    Pmap,
    Reduce { acc: String, item: String },
}

/// `if` / `elif` / `else`.
#[derive(Debug, Clone, PartialEq)]
pub struct If {
    pub arms: Vec<(Expr, Vec<Stmt>)>,
    pub otherwise: Option<Vec<Stmt>>,
    pub site: Site,
}

/// `choice **criteria**:` with options.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub criteria: Expr,
    pub options: Vec<(String, Vec<Stmt>)>,
    pub site: Site,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Session(Box<SessionSpec>),
    /// `do:` body.
    Do(Vec<Stmt>),
    /// `do name(args)`.
    CallBlock {
        name: String,
        args: Vec<Expr>,
        site: Site,
    },
    /// `program(input: value)`, or `name(args)` calling a block.
    Call {
        name: String,
        args: Vec<(Option<String>, Expr)>,
        site: Site,
    },
    /// `a -> b -> c`.
    Arrow(Vec<Expr>),
    Parallel(Box<Parallel>),
    For(Box<ForLoop>),
    Repeat(Box<Repeat>),
    Loop(Box<Loop>),
    Pipe(Box<Pipe>),
    If(Box<If>),
    Choice(Box<Choice>),
    /// `try` used as an expression.
    Try(Box<Stmt>),
    Field(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    Array(Vec<Expr>),
    Object(Vec<(String, Expr)>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Literal(Value),
    String(Template),
    /// `**text**`: decided by the backend.
    Discretion {
        text: String,
        site: Site,
    },
    Name(String),
    /// Something the runner cannot execute (broken syntax the checker let
    /// through as a warning, or a construct with no runtime meaning):
    /// running it is an error naming it.
    Unsupported {
        what: String,
        site: Site,
    },
}

impl Expr {
    /// The name a context item gets for this expression: the variable or
    /// field path it names, else `context`.
    pub fn context_name(&self) -> String {
        match self {
            Expr::Name(n) => n.clone(),
            Expr::Field(base, f) => format!("{}.{f}", base.context_name()),
            _ => "context".to_string(),
        }
    }
}
