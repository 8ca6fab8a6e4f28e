//! Lowering agent and session properties (and a session's `(modifiers)`).

use prose_syntax::{AstNode, ast};

use super::{Cx, expr::word_of};
use crate::{
    backend::{PermissionKind, PermissionRule, PermissionValue, Permissions},
    ir::{Backoff, Expr, Persist, Props, Template},
};

impl Cx {
    /// The properties of an agent or a session; `modifiers` are a session's
    /// `(retry: 3)` and count as properties written first.
    pub(crate) fn props(
        &mut self,
        properties: impl Iterator<Item = ast::Property>,
        modifiers: Option<ast::ModifierList>,
    ) -> Props {
        let mut props = Props::default();
        for m in modifiers.into_iter().flat_map(|l| l.modifiers()) {
            let site = self.site(m.syntax());
            let (Some(key), Some(value)) = (m.key(), m.value()) else {
                continue;
            };
            self.prop(&mut props, &key, Some(value), None, site);
        }
        for p in properties {
            let site = self.site(p.syntax());
            let key = p.key();
            self.prop(&mut props, &key, p.any_value(), p.nested(), site);
        }
        props
    }

    fn prop(
        &mut self,
        props: &mut Props,
        key: &str,
        value: Option<ast::Expr>,
        nested: Option<ast::PropertyBlock>,
        site: crate::ir::Site,
    ) {
        match key {
            "model" => props.model = value.as_ref().map(word_of),
            "prompt" => {
                props.prompt = value.map(|v| match &v {
                    ast::Expr::String(s) => self.template(s),
                    ast::Expr::Discretion(d) => Template::text(d.text()),
                    other => Template::text(word_of(other)),
                })
            }
            "context" => {
                props.context = match (value, nested) {
                    (Some(v), _) => Some(self.expr(&v)),
                    (None, Some(block)) => Some(Expr::Object(
                        block
                            .properties()
                            .map(|p| {
                                let v = self.opt_expr(p.any_value(), site, "a context value");
                                (p.key(), v)
                            })
                            .collect(),
                    )),
                    (None, None) => Some(Expr::Array(Vec::new())),
                }
            }
            "retry" => props.retry = value.map(|v| self.expr(&v)),
            "backoff" => {
                props.backoff = value.map(|v| match word_of(&v).as_str() {
                    "linear" => Backoff::Linear,
                    "exponential" => Backoff::Exponential,
                    _ => Backoff::None,
                })
            }
            "timeout" => {
                let text = value.as_ref().map(word_of).unwrap_or_default();
                match prose_ide::config::runner::parse_duration_ms(&text) {
                    Some(ms) => props.timeout_ms = Some(ms),
                    None => self.ignore(format!("timeout `{text}` (not a duration)"), site),
                }
            }
            "permissions" => props.permissions = Some(permissions(nested)),
            "skills" => {
                props.skills = Some(match value {
                    Some(ast::Expr::Array(a)) => a.elements().map(|e| word_of(&e)).collect(),
                    Some(other) => vec![word_of(&other)],
                    None => Vec::new(),
                })
            }
            "persist" => {
                props.persist = value.map(|v| match (&v, word_of(&v).as_str()) {
                    (ast::Expr::String(_), "project") | (_, "project") => Persist::Project,
                    (ast::Expr::String(_), "user") | (_, "user") => Persist::User,
                    (ast::Expr::String(s), _) => Persist::Path(s.value()),
                    _ => Persist::Run,
                })
            }
            other => self.ignore(format!("property `{other}`"), site),
        }
    }
}

/// A `permissions:` block as rules.
fn permissions(block: Option<ast::PropertyBlock>) -> Permissions {
    let rules = block
        .into_iter()
        .flat_map(|b| b.properties())
        .map(|p| {
            let kind = PermissionKind::parse(&p.key());
            let value = match p.any_value() {
                Some(ast::Expr::Array(a)) => {
                    PermissionValue::Patterns(a.elements().map(|e| word_of(&e)).collect())
                }
                Some(v) => match word_of(&v).as_str() {
                    "allow" => PermissionValue::Allow,
                    "prompt" => PermissionValue::Prompt,
                    "deny" => PermissionValue::Deny,
                    other => PermissionValue::Patterns(vec![other.to_string()]),
                },
                // A rule without a value restricts: nothing was allowed.
                None => PermissionValue::Deny,
            };
            PermissionRule::new(kind, value)
        })
        .collect();
    Permissions { rules }
}
