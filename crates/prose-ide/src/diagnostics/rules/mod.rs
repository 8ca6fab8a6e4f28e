//! The rule registry: one module per diagnostic code.

#[allow(unused_imports)]
pub(crate) mod prelude {
    pub(crate) use prose_syntax::{
        AstNode, SyntaxErrorCode, SyntaxKind, SyntaxNode, TextRange, ast,
    };

    pub(crate) use crate::{
        config::Level,
        diagnostics::{Acc, Ctx, Related, Rule, Severity, Tag},
        semantics::{Def, DefId, DefKind, RefKind, RefSite},
    };

    /// Reports the parser's errors with `code`.
    pub(crate) fn syntax_errors(ctx: &Ctx<'_>, acc: &mut Acc, code: SyntaxErrorCode) {
        for e in ctx.parse.errors().iter().filter(|e| e.code == code) {
            acc.report(e.range, e.message.clone());
        }
    }

    /// A related location in the same file.
    pub(crate) fn related(ctx: &Ctx<'_>, range: TextRange, message: &str) -> Related {
        Related {
            path: ctx.path().to_string(),
            range,
            message: message.to_string(),
        }
    }

    /// The closest candidate to `name` by edit distance, if close enough.
    pub(crate) fn did_you_mean<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
        candidates
            .iter()
            .map(|c| (strsim::damerau_levenshtein(name, c), *c))
            .filter(|(d, c)| *d <= (name.len().max(c.len()) / 3).max(1))
            .min()
            .map(|(_, c)| c)
    }

    /// Every node of type `N` in the file.
    pub(crate) fn nodes<'c, N: AstNode>(ctx: &'c Ctx<'_>) -> impl Iterator<Item = N> + use<'c, N> {
        ctx.all_nodes()
            .filter(|n| N::can_cast(n.kind()))
            .filter_map(|n| N::cast(n.clone()))
    }
}

// Rules are registered per group (one registry file each, so the groups
// can grow independently); `RULES` merges them ordered by code.
mod group_agents;
mod group_control;
mod group_program;
mod group_syntax;
mod group_variables;

use std::sync::OnceLock;

use super::Rule;

/// Every rule, ordered by code.
pub(crate) fn rules() -> &'static [&'static Rule] {
    static RULES: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut all: Vec<&'static Rule> = [
            group_syntax::RULES,
            group_program::RULES,
            group_agents::RULES,
            group_variables::RULES,
            group_control::RULES,
        ]
        .concat();
        all.sort_by_key(|r| r.code);
        all
    })
}
