//! Rule registry: Agents, sessions, resume, properties, skills and permissions.
//!
//! Also holds the small helpers these rules share: which construct a
//! property belongs to, and finding an agent's definition by name.

use crate::{
    contract::{Persist, agent_persist},
    openprose::rules::prelude::*,
};

// Its docs show a tab-indented program.
#[allow(clippy::tabs_in_doc_comments)]
#[path = "tab_indentation.rs"]
mod tab_indentation;

#[path = "missing_prompt_and_agent.rs"]
mod missing_prompt_and_agent;

#[path = "duplicate_agent.rs"]
mod duplicate_agent;
#[path = "undefined_agent.rs"]
mod undefined_agent;

#[path = "duplicate_property.rs"]
mod duplicate_property;
#[path = "invalid_model.rs"]
mod invalid_model;
#[path = "permission_pattern_not_string.rs"]
mod permission_pattern_not_string;
#[path = "permissions_not_block.rs"]
mod permissions_not_block;
#[path = "program_order.rs"]
mod program_order;
#[path = "resume_non_persistent.rs"]
mod resume_non_persistent;
#[path = "resume_without_memory.rs"]
pub(crate) mod resume_without_memory;
#[path = "skill_not_string.rs"]
mod skill_not_string;
#[path = "skills_not_array.rs"]
mod skills_not_array;

#[path = "empty_agent_prompt.rs"]
mod empty_agent_prompt;
#[path = "empty_session_prompt.rs"]
mod empty_session_prompt;
#[path = "empty_skills.rs"]
mod empty_skills;
#[path = "long_session_prompt.rs"]
mod long_session_prompt;
#[path = "session_ignores_memory.rs"]
mod session_ignores_memory;
#[path = "skill_not_imported.rs"]
pub(crate) mod skill_not_imported;
#[path = "unknown_permission_type.rs"]
mod unknown_permission_type;
#[path = "unknown_permission_value.rs"]
mod unknown_permission_value;
#[path = "unknown_property.rs"]
pub(crate) mod unknown_property;
#[path = "whitespace_session_prompt.rs"]
mod whitespace_session_prompt;

#[path = "invalid_persist.rs"]
mod invalid_persist;
#[path = "retry_on_agent.rs"]
mod retry_on_agent;

pub(crate) static RULES: &[&Rule] = &[
    &tab_indentation::RULE,
    &missing_prompt_and_agent::RULE,
    &duplicate_agent::RULE,
    &undefined_agent::RULE,
    &invalid_model::RULE,
    &duplicate_property::RULE,
    &skills_not_array::RULE,
    &skill_not_string::RULE,
    &permissions_not_block::RULE,
    &permission_pattern_not_string::RULE,
    &resume_non_persistent::RULE,
    &resume_without_memory::RULE,
    &empty_session_prompt::RULE,
    &whitespace_session_prompt::RULE,
    &long_session_prompt::RULE,
    &empty_agent_prompt::RULE,
    &unknown_property::RULE,
    &skill_not_imported::RULE,
    &unknown_permission_type::RULE,
    &unknown_permission_value::RULE,
    &empty_skills::RULE,
    &session_ignores_memory::RULE,
    &invalid_persist::RULE,
    &retry_on_agent::RULE,
];

/// The construct a property block belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    Agent,
    Session,
    Resume,
}

impl Owner {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Owner::Agent => "agent",
            Owner::Session => "session",
            Owner::Resume => "resume",
        }
    }
}

/// Every property written directly in an agent, session or resume block
/// (not the entries of a nested `permissions:` block), with its owner.
pub(crate) fn owned_properties(ctx: &Ctx<'_>) -> Vec<(Owner, ast::Property)> {
    shared_owned_properties(ctx).as_ref().clone()
}

/// The file's owned properties ([`owned_properties`]), computed once per
/// file and not copied.
fn shared_owned_properties(ctx: &Ctx<'_>) -> std::rc::Rc<Vec<(Owner, ast::Property)>> {
    ctx.shared(compute_owned_properties)
}

/// Every owned property ([`owned_properties`]), found from the kind index
/// of properties: a property counts when its parent is the first property
/// block of an agent, a session or a resume (what `property_block()`
/// finds). No handle is made for an owner's other children, and each block
/// is looked at once. The properties come grouped by owner, owners in
/// pre-order (they are sorted so only when an owner sits inside another's
/// property).
fn compute_owned_properties(ctx: &Ctx<'_>) -> Vec<(Owner, ast::Property)> {
    owners(ctx.nodes_of::<ast::Property>())
}

/// Those of `properties` (in pre-order) that are owned, with their owners,
/// grouped by owner ([`compute_owned_properties`]).
fn owners(properties: impl Iterator<Item = ast::Property>) -> Vec<(Owner, ast::Property)> {
    let mut out: Vec<(Owner, ast::Property)> = Vec::new();
    // Each property's owner in pre-order: by start, an outer one first.
    let mut keys: Vec<(TextSize, std::cmp::Reverse<TextSize>)> = Vec::new();
    let mut last: Option<(SyntaxNode, Option<(Owner, TextRange)>)> = None;
    for p in properties {
        let Some(block) = p.syntax().parent() else {
            continue;
        };
        let owner = match &last {
            Some((b, owner)) if *b == block => *owner,
            _ => {
                let owner = block_owner(&block);
                last = Some((block, owner));
                owner
            }
        };
        if let Some((owner, range)) = owner {
            keys.push((range.start(), std::cmp::Reverse(range.end())));
            out.push((owner, p));
        }
    }
    if !keys.is_sorted() {
        // Stable: an owner's properties keep their order.
        let mut keyed: Vec<_> = keys.into_iter().zip(out).collect();
        keyed.sort_by_key(|(key, _)| *key);
        out = keyed.into_iter().map(|(_, owned)| owned).collect();
    }
    out
}

/// The kind of owner of `block` and the owner's range, if `block` is the
/// first property block of an agent, a session or a resume.
fn block_owner(block: &SyntaxNode) -> Option<(Owner, TextRange)> {
    if block.kind() != SyntaxKind::PROPERTY_BLOCK {
        return None;
    }
    let owner = block.parent()?;
    let kind = owner.kind();
    let which = if ast::AgentDef::can_cast(kind) {
        Owner::Agent
    } else if ast::SessionExpr::can_cast(kind) {
        Owner::Session
    } else if ast::ResumeExpr::can_cast(kind) {
        Owner::Resume
    } else {
        return None;
    };
    let first = owner
        .green()
        .children()
        .position(|c| c.kind() == SyntaxKind::PROPERTY_BLOCK.into())?;
    (first == block.index()).then(|| (which, owner.text_range()))
}

/// The properties of `node`'s block with its kind of owner (none if it is
/// not an agent, a session or a resume, or has no block): what
/// [`compute_owned_properties`] finds, asked of one node.
#[cfg(test)]
fn block_properties(node: SyntaxNode) -> impl Iterator<Item = (Owner, ast::Property)> {
    owner_block(node)
        .into_iter()
        .flat_map(|(owner, block)| block.properties().map(move |p| (owner, p)))
}

/// The kind of owner `node` is and its block of properties, if it is an
/// agent, a session or a resume with one.
#[cfg(test)]
fn owner_block(node: SyntaxNode) -> Option<(Owner, ast::PropertyBlock)> {
    if let Some(a) = ast::AgentDef::cast(node.clone()) {
        Some((Owner::Agent, a.property_block()?))
    } else if let Some(s) = ast::SessionExpr::cast(node.clone()) {
        Some((Owner::Session, s.property_block()?))
    } else {
        Some((
            Owner::Resume,
            ast::ResumeExpr::cast(node)?.property_block()?,
        ))
    }
}

/// Whether the property's key is `key` (what `p.key() == key` says),
/// compared on the key token's text without copying it.
pub(crate) fn has_key(p: &ast::Property, key: &str) -> bool {
    green_first_token_text(p.syntax().green()).map_or(key.is_empty(), |t| t == key)
}

/// A node of the green tree (rowan's `GreenNodeData`).
pub(crate) type GreenNodeData = <prose_syntax::GreenNode as std::ops::Deref>::Target;

/// The text of the first token under a green node, what
/// `SyntaxNode::first_token` finds (the first child, descending into
/// nodes; `None` at an empty node), without making a handle per level.
pub(crate) fn green_first_token_text(node: &GreenNodeData) -> Option<&str> {
    let mut first = node.children().next();
    loop {
        match first? {
            prose_syntax::NodeOrToken::Node(inner) => first = inner.children().next(),
            prose_syntax::NodeOrToken::Token(t) => return Some(t.text()),
        }
    }
}

/// Every `key:` property written directly in an agent definition.
pub(crate) fn agent_properties(ctx: &Ctx<'_>, key: &str) -> Vec<ast::Property> {
    owned_with_key(ctx, key)
        .into_iter()
        .filter(|(owner, _)| *owner == Owner::Agent)
        .map(|(_, p)| p)
        .collect()
}

/// The keys of the owned properties the file-wide rules read (E016's
/// `permissions`, W007's `skills`). After an edit the file's context does
/// not index every property: its index keeps the properties with these
/// keys apart (`kind_index::Narrowed::also`).
const FILE_RULE_KEYS: &[&str] = &["permissions", "skills"];

/// Whether a green node is a property whose key is one of
/// [`FILE_RULE_KEYS`] (as [`has_key`] reads it).
pub(crate) fn has_file_rule_key(g: &GreenNodeData) -> bool {
    g.kind().0 == SyntaxKind::PROPERTY as u16
        && green_first_token_text(g).is_some_and(|t| FILE_RULE_KEYS.contains(&t))
}

/// The owned properties whose key is `key`, with their owners: those of
/// [`owned_properties`], in its order (from the properties the kind index
/// keeps apart when it has them).
fn owned_with_key(ctx: &Ctx<'_>, key: &str) -> Vec<(Owner, ast::Property)> {
    if FILE_RULE_KEYS.contains(&key)
        && let Some(keyed) = ctx.index_also()
    {
        return owners(
            (keyed.iter())
                .filter_map(|n| ast::Property::cast(n.clone()))
                .filter(|p| has_key(p, key)),
        );
    }
    shared_owned_properties(ctx)
        .iter()
        .filter(|(_, p)| has_key(p, key))
        .cloned()
        .collect()
}

/// The elements of every agent's `skills: [...]` array.
pub(crate) fn skill_elements(ctx: &Ctx<'_>) -> Vec<ast::Expr> {
    agent_properties(ctx, "skills")
        .into_iter()
        .filter_map(|p| match p.any_value() {
            Some(ast::Expr::Array(array)) => Some(array),
            _ => None,
        })
        .flat_map(|array| array.elements())
        .collect()
}

/// Every `permissions:` property with a nested block: the property, its
/// owner, and the permission entries.
pub(crate) fn permission_entries(ctx: &Ctx<'_>) -> Vec<(Owner, ast::Property)> {
    ctx.shared(compute_permission_entries).as_ref().clone()
}

fn compute_permission_entries(ctx: &Ctx<'_>) -> Vec<(Owner, ast::Property)> {
    owned_with_key(ctx, "permissions")
        .into_iter()
        .flat_map(|(owner, p)| {
            p.nested()
                .into_iter()
                .flat_map(|b| b.properties())
                .map(move |e| (owner, e))
        })
        .collect()
}

/// The agent definition the name resolves to (the first one, like name
/// resolution does).
pub(crate) fn agent_def(ctx: &Ctx<'_>, name: &str) -> Option<ast::AgentDef> {
    let (_, def) = ctx.sema().find(DefKind::Agent, name)?;
    ast::node_spanning::<ast::AgentDef>(ctx.syntax(), def.range)
}

/// The agents looked up by [`agent_with_persist`] so far, by name.
type AgentCache =
    std::cell::RefCell<rustc_hash::FxHashMap<String, Option<(ast::AgentDef, Option<Persist>)>>>;

fn agent_cache(_: &Ctx<'_>) -> AgentCache {
    AgentCache::default()
}

/// The agent definition the name resolves to ([`agent_def`]) and its
/// `persist:` scope (`agent_persist`), found once per name and file
/// however many invocations and rules ask.
pub(crate) fn agent_with_persist(
    ctx: &Ctx<'_>,
    name: &str,
) -> Option<(ast::AgentDef, Option<Persist>)> {
    let cache = ctx.shared(agent_cache);
    if let Some(hit) = cache.borrow().get(name) {
        return hit.clone();
    }
    let found = agent_def(ctx, name).map(|a| {
        let persist = agent_persist(&a);
        (a, persist)
    });
    cache.borrow_mut().insert(name.to_string(), found.clone());
    found
}

/// The range of a property's value wherever it is written, or of its key
/// when it has none.
pub(crate) fn value_or_key_range(p: &ast::Property) -> TextRange {
    p.any_value()
        .map(|v| v.syntax().text_range())
        .or_else(|| p.key_token().map(|t| t.text_range()))
        .unwrap_or_else(|| p.syntax().text_range())
}

/// The range of a property's key.
pub(crate) fn key_range(p: &ast::Property) -> TextRange {
    p.key_token()
        .map_or_else(|| p.syntax().text_range(), |t| t.text_range())
}

/// A property from its key to the end of its value (no trailing newline).
pub(crate) fn property_range(p: &ast::Property) -> TextRange {
    let start = key_range(p).start();
    let end = p
        .syntax()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia() && t.kind() != SyntaxKind::NEWLINE)
        .last()
        .map_or(start, |t| t.text_range().end());
    TextRange::new(start, end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After an edit, the `permissions:` and `skills:` properties the
    /// file-wide rules' index keeps apart are those of every owned
    /// property, filtered by key, over the sample programs (the edit moves
    /// every statement).
    #[test]
    fn keyed_properties_of_the_file_rules_index_are_the_owned_ones() {
        let mut host = crate::AnalysisHost::new();
        let mut found = 0;
        crate::openprose::rule_tests::each_sample_after_an_edit(
            &mut host,
            |host, file, path, _| {
                let analysis = host.analysis();
                found += analysis
                    .with_db(|db| {
                        let f = analysis.source_file(file);
                        let (narrowed, all) = (Ctx::new(db, f, None), Ctx::new(db, f, None));
                        narrowed.index_for_file_rules();
                        assert!(narrowed.index_also().is_some(), "{path}");
                        assert!(all.index_also().is_none(), "{path}");
                        let mut n = 0;
                        for key in FILE_RULE_KEYS {
                            let routed = owned_with_key(&narrowed, key);
                            assert_eq!(routed, owned_with_key(&all, key), "{key} in {path}");
                            n += routed.len();
                        }
                        n
                    })
                    .unwrap();
            },
        );
        assert!(found > 0, "the sample programs hold such properties");
    }

    /// Every node's first token as `first_token` finds it and as
    /// [`green_first_token_text`] reads it agree.
    fn first_tokens_agree(text: &str) {
        let root = prose_syntax::parse(text).syntax_node();
        for node in root.descendants() {
            let slow = node.first_token().map(|t| t.text().to_string());
            let fast = green_first_token_text(node.green()).map(str::to_string);
            assert_eq!(fast, slow, "{node:?} in {text:?}");
        }
    }

    #[test]
    fn first_token_text_of_programs() {
        first_tokens_agree(
            "agent a:\n  model: opus\n  permissions:\n    read: [\"*.md\", x]\nsession: a\n  prompt: \"p\"\nresume: \nblock b():\n  do b\n",
        );
        first_tokens_agree("");
        first_tokens_agree("agent :\n  :\n  permissions\n");
    }

    /// The owned properties, skipping owners without a block by their green
    /// children, are every owner's block's properties: on every sample
    /// program and on broken blocks.
    #[test]
    fn owned_properties_of_programs() {
        let mut texts = crate::openprose::rule_tests::sample_texts();
        texts.push("agent a:\n  :\nsession \"s\"\n  model\nresume: a\n  prompt: \"p\"\n".into());
        // An owner inside another's property, and a second block.
        texts.push("session \"a\"\n  context: session \"b\"\n    model: opus\n  model: haiku\nagent b:\n  model: opus\n  model: x\n".into());
        texts.push("let x = session \"a\"\n  prompt: resume: b\n    prompt: \"q\"\n    model: m\n  model: n\n".into());
        for text in texts {
            let mut host = crate::AnalysisHost::new();
            let file = host.set_file_text("/ws/p.prose", text.as_str());
            let analysis = host.analysis();
            analysis
                .with_db(|db| {
                    let ctx = Ctx::new(db, analysis.source_file(file), None);
                    let fast: Vec<_> = compute_owned_properties(&ctx)
                        .into_iter()
                        .map(|(o, p)| (o.describe(), p))
                        .collect();
                    // Every node asked, without the look at green children.
                    let obvious: Vec<_> = ctx
                        .syntax()
                        .descendants()
                        .flat_map(block_properties)
                        .map(|(o, p)| (o.describe(), p))
                        .collect();
                    assert_eq!(fast, obvious, "{text:?}");
                })
                .unwrap();
        }
    }

    proptest::proptest! {
        #[test]
        fn first_token_text_matches_first_token(
            text in "(agent |session|resume|: |a|\"x\"|\\[|\\]|, |permissions|model|\n|  |do |block |#c){0,40}"
        ) {
            first_tokens_agree(&text);
        }
    }
}
