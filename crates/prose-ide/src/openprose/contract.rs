//! Per-file summaries other files depend on.
//!
//! A program that `use`s another only needs that program's *contract*: the
//! names of its inputs and outputs. The contract holds no ranges, so an
//! edit that does not change it (a comment, a prompt, a moved line) is
//! backdated by salsa and importing files are not re-checked.

use prose_syntax::ast::{self, Expr};

use crate::db::{Db, SourceFile, parse};

/// The interface of a program: what a caller must pass and may read.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Contract {
    /// Input names with their descriptions, in declaration order.
    pub inputs: Vec<(String, String)>,
    /// Output names, in declaration order.
    pub outputs: Vec<String>,
}

impl Contract {
    pub fn has_input(&self, name: &str) -> bool {
        self.inputs.iter().any(|(n, _)| n == name)
    }
    pub fn has_output(&self, name: &str) -> bool {
        self.outputs.iter().any(|n| n == name)
    }
}

#[salsa::tracked(returns(ref))]
pub fn program_contract(db: &dyn Db, file: SourceFile) -> Contract {
    let root = parse(db, file).tree();
    let mut contract = Contract::default();
    for node in prose_syntax::AstNode::syntax(&root).descendants() {
        if let Some(i) = <ast::InputDecl as prose_syntax::AstNode>::cast(node.clone()) {
            if let Some(n) = i.name() {
                let desc = match i.description() {
                    Some(Expr::String(s)) => s.value(),
                    Some(Expr::Discretion(d)) => d.text(),
                    _ => String::new(),
                };
                contract.inputs.push((n.text(), desc));
            }
        } else if let Some(n) =
            <ast::OutputDecl as prose_syntax::AstNode>::cast(node).and_then(|o| o.name())
            && !contract.outputs.contains(&n.text())
        {
            contract.outputs.push(n.text());
        }
    }
    contract
}

/// Where a persistent agent keeps its memory (`persist:`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Persist {
    /// `persist: true`: `.prose/runs/{id}/agents/{name}/`, dies with the run.
    Execution,
    /// `persist: project`: `.prose/agents/{name}/`.
    Project,
    /// `persist: user`: `~/.prose/agents/{name}/`.
    User,
    /// `persist: "path"`.
    Path(String),
}

/// The persistence an agent declares, if any (`persist: false` is none).
pub fn agent_persist(agent: &ast::AgentDef) -> Option<Persist> {
    let value = agent.property("persist")?.any_value()?;
    match value {
        Expr::Literal(l) => match l.token()?.text() {
            "true" => Some(Persist::Execution),
            _ => None,
        },
        Expr::NameRef(n) => match n.text().as_str() {
            "project" => Some(Persist::Project),
            "user" => Some(Persist::User),
            "execution" => Some(Persist::Execution),
            _ => None,
        },
        Expr::String(s) => {
            let v = s.value();
            match v.as_str() {
                "" => None,
                "project" => Some(Persist::Project),
                "user" => Some(Persist::User),
                "true" => Some(Persist::Execution),
                _ => Some(Persist::Path(v)),
            }
        }
        _ => None,
    }
}
