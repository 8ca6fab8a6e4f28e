//! Name completions: agents (after `session:`/`resume:`), blocks (after
//! `do`), imported programs and their inputs, skills, reassignment
//! targets, and the variables visible at the cursor.

use prose_syntax::{
    AstNode, NodeOrToken, TextRange, TextSize,
    ast::{self},
};

use super::{CompletionItem, CompletionKind, Cx};
use crate::{
    contract::{agent_persist, program_contract},
    db::parse,
    semantics::{Def, DefKind, FileSemantics, Name},
};

impl Cx<'_> {
    // ---- names ------------------------------------------------------------------

    /// Agents; for `resume:` persistent agents first.
    pub(super) fn agents(&mut self, resume: bool) {
        let root = parse(self.db, self.file).tree();
        let mut agents: Vec<(bool, CompletionItem)> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for node in root.syntax().descendants() {
            let Some(a) = ast::AgentDef::cast(node) else {
                continue;
            };
            let Some(name) = a.name().map(|n| n.text()) else {
                continue;
            };
            if name.is_empty() || seen.contains(&name) {
                continue;
            }
            seen.push(name.clone());
            let persistent = agent_persist(&a).is_some();
            let model = a
                .property("model")
                .and_then(|p| p.any_value())
                .map(|v| v.syntax().text().to_string());
            let mut detail = model.map_or_else(|| "agent".to_string(), |m| format!("model: {m}"));
            if let Some(p) = a.property("persist").and_then(|p| p.any_value()) {
                detail.push_str(&format!(", persist: {}", p.syntax().text()));
            } else if resume {
                detail.push_str(", not persistent");
            }
            let mut item = self.value_item(&name, CompletionKind::Agent);
            item.detail = Some(detail);
            item.documentation =
                a.property("prompt")
                    .and_then(|p| p.any_value())
                    .map(|v| match v {
                        ast::Expr::String(s) => s.value(),
                        other => other.syntax().text().to_string(),
                    });
            agents.push((persistent, item));
        }
        if resume {
            agents.sort_by_key(|(persistent, _)| !persistent);
        }
        for (_, item) in agents {
            self.push(item);
        }
    }

    /// Blocks, with an argument snippet when they take parameters.
    pub(super) fn blocks(&mut self) {
        let root = parse(self.db, self.file).tree();
        let mut seen: Vec<String> = Vec::new();
        for node in root.syntax().descendants() {
            let Some(b) = ast::BlockDef::cast(node) else {
                continue;
            };
            let Some(name) = b.name().map(|n| n.text()) else {
                continue;
            };
            if name.is_empty() || seen.contains(&name) {
                continue;
            }
            seen.push(name.clone());
            let params: Vec<String> = b
                .params()
                .filter_map(|p| p.name())
                .map(|n| n.text())
                .collect();
            let mut item = self.item(&name, CompletionKind::Block);
            item.detail = Some(format!("block {name}({})", params.join(", ")));
            let paren_follows = self.text[usize::from(self.range.end())..].starts_with('(');
            if !params.is_empty() && !paren_follows {
                let args: Vec<String> = params
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("${{{}:{}}}", i + 1, p))
                    .collect();
                item.insert_text = Some(format!("{name}({})", args.join(", ")));
                item.is_snippet = true;
            }
            self.push(item);
        }
    }

    /// Imported programs, as calls with their inputs when the program is
    /// available.
    pub(super) fn programs(&mut self) {
        let defs: Vec<Def> = self
            .sema
            .defs_of(DefKind::Program)
            .map(|(_, d)| d.clone())
            .collect();
        let mut seen: Vec<Name> = Vec::new();
        for d in defs {
            if seen.contains(&d.name) {
                continue;
            }
            seen.push(d.name.clone());
            let path = self.use_path(&d);
            let inputs = path
                .as_deref()
                .and_then(|p| self.contract_inputs(p))
                .unwrap_or_default();
            let mut item = self.item(&d.name, CompletionKind::Program);
            item.detail = path.map(|p| format!("use \"{p}\""));
            if self.rest_of_line_empty {
                let args: Vec<String> = inputs
                    .iter()
                    .enumerate()
                    .map(|(i, (n, _))| format!("{n}: ${}", i + 1))
                    .collect();
                item.insert_text = Some(format!("{}({})", d.name, args.join(", ")));
                item.is_snippet = true;
            }
            self.push(item);
        }
    }

    /// The `use` path of a program definition.
    fn use_path(&self, def: &Def) -> Option<String> {
        let root = parse(self.db, self.file).syntax_node();
        let node = match root.covering_element(def.range) {
            NodeOrToken::Node(n) => n,
            NodeOrToken::Token(t) => t.parent()?,
        };
        let u = node.ancestors().find_map(ast::UseStmt::cast)?;
        Some(u.path()?.value())
    }

    /// The inputs (name, description) of the program a `use` path names,
    /// if the host loaded it.
    fn contract_inputs(&self, use_path: &str) -> Option<Vec<(String, String)>> {
        let db = self.db;
        let target =
            crate::features::hover::resolve_use_path(db, self.workspace, self.file, use_path)?;
        Some(program_contract(db, target).inputs.clone())
    }

    /// The inputs of program `callee` not yet given, as `name: ` snippets.
    pub(super) fn program_inputs(&mut self, callee: &str, given: &[String]) {
        let Some((_, def)) = self.sema.find(DefKind::Program, callee) else {
            return;
        };
        let def = def.clone();
        let Some(inputs) = self.use_path(&def).and_then(|p| self.contract_inputs(&p)) else {
            return;
        };
        for (name, desc) in inputs {
            if given.contains(&name) {
                continue;
            }
            let mut item = self.item(&name, CompletionKind::Input);
            item.detail = Some(format!("input of {callee}"));
            item.documentation = (!desc.is_empty()).then_some(desc);
            if !self.colon_follows() {
                item.insert_text = Some(format!("{name}: $1"));
                item.is_snippet = true;
            }
            self.push(item);
        }
    }

    /// Variables that may be assigned again (not constants, inputs or
    /// scoped names).
    pub(super) fn reassignable(&mut self) {
        let (writing, headers) = self.cursor_lines();
        let defs = visible_variables(self.sema, self.text, self.offset, &writing, &headers);
        for d in defs {
            if !matches!(
                d.kind,
                DefKind::Let | DefKind::Assigned | DefKind::Output | DefKind::SessionName
            ) {
                continue;
            }
            let mut item = self.item(&d.name, CompletionKind::Variable);
            item.detail = Some(d.kind.describe().to_string());
            item.documentation = first_line(self.text, d.range);
            self.push(item);
        }
    }

    /// Names of imports, for `skills:`.
    pub(super) fn skills(&mut self, quoted: bool) {
        let names: Vec<String> = self
            .sema
            .defs
            .iter()
            .filter(|d| matches!(d.kind, DefKind::Program | DefKind::Skill))
            .map(|d| d.name.to_string())
            .collect();
        let mut seen = Vec::new();
        for n in names {
            if seen.contains(&n) {
                continue;
            }
            let label = if quoted {
                format!("\"{n}\"")
            } else {
                n.clone()
            };
            let mut item = self.item(&label, CompletionKind::Value);
            item.detail = Some("imported skill".into());
            self.push(item);
            seen.push(n);
        }
    }

    /// `skills: ` followed by nothing: an array of the imports.
    pub(super) fn skills_array(&mut self) {
        let mut item = self.value_item("[\"…\"]", CompletionKind::Snippet);
        item.detail = Some("skills to assign".into());
        item.insert_text = Some(format!("{}[\"$1\"]", self.lead()));
        item.is_snippet = true;
        self.push(item);
    }

    /// The variables visible at `at`, except those in `skip`. With
    /// `close`, each insertion ends an interpolation with `}`.
    pub(super) fn variables(&mut self, skip: &[String], close: bool) {
        let (writing, headers) = self.cursor_lines();
        let defs = visible_variables(self.sema, self.text, self.offset, &writing, &headers);
        let input_docs: Vec<(String, String)> = program_contract(self.db, self.file).inputs.clone();
        for d in defs {
            if skip.iter().any(|s| *s == d.name) {
                continue;
            }
            let kind = if d.kind == DefKind::Input {
                CompletionKind::Input
            } else {
                CompletionKind::Variable
            };
            let mut item = if close {
                let mut item = self.item(&d.name, kind);
                item.insert_text = Some(format!("{}}}", d.name));
                item
            } else {
                self.value_item(&d.name, kind)
            };
            item.detail = Some(d.kind.describe().to_string());
            item.documentation = if d.kind == DefKind::Input {
                input_docs
                    .iter()
                    .find(|(n, _)| *n == d.name)
                    .map(|(_, desc)| desc.clone())
                    .filter(|d| !d.is_empty())
            } else {
                first_line(self.text, d.range)
            };
            self.push(item);
        }
    }
}

/// The first line of a definition's source, shortened.
fn first_line(text: &str, range: TextRange) -> Option<String> {
    let src = text.get(usize::from(range.start())..usize::from(range.end()))?;
    let line = src.lines().next()?.trim_end();
    if line.is_empty() {
        return None;
    }
    let mut out: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        out.push('…');
    }
    Some(out)
}

/// Whether `range` holds `at`: the end counts only at the end of an
/// unterminated last line (a statement being typed at the end of the file).
fn covers(range: TextRange, at: TextSize, text: &str) -> bool {
    range.contains(at)
        || range.end() == at
            && !text[..usize::from(at)].ends_with(['\n', '\r'])
            && range.start() < at
}

/// Variables visible at `at`, each name once, innermost first: scoped
/// names whose scope holds `at` (or whose header line encloses it by
/// indentation), program-wide bindings written before `at` (all of them
/// inside a block body or an agent), then inputs. Bindings made by the
/// lines being written (`writing`: the cursor's line and its headers) are
/// left out; scoped names defined on a header line (`headers`) are in.
fn visible_variables<'s>(
    sema: &'s FileSemantics,
    text: &str,
    at: TextSize,
    writing: &[TextRange],
    headers: &[TextRange],
) -> Vec<&'s Def> {
    let enclosing_block = sema
        .defs_of(DefKind::Block)
        .map(|(_, d)| d.range)
        .filter(|r| covers(*r, at, text))
        .min_by_key(|r| r.len());
    let hoisted = enclosing_block.is_some()
        || sema
            .defs_of(DefKind::Agent)
            .any(|(_, d)| covers(d.range, at, text));
    let on_header = |r: TextRange| headers.iter().any(|h| h.contains_range(r));
    let mut scoped: Vec<&Def> = sema
        .defs
        .iter()
        .filter(|d| {
            d.kind.is_scoped()
                && (d.scope.is_some_and(|s| covers(s, at, text)) || on_header(d.name_range))
        })
        .collect();
    scoped.sort_by_key(|d| d.scope.map(|s| s.len()));
    let being_written = |d: &Def| writing.iter().any(|w| w.contains(d.range.start()));
    let mut flat: Vec<&Def> = sema
        .defs
        .iter()
        .filter(|d| d.kind.is_flat_binding() && !covers(d.range, at, text) && !being_written(d))
        .filter(|d| {
            if d.in_block_def {
                // Bound inside a block body: visible in that body only.
                enclosing_block.is_some_and(|b| b.contains_range(d.range)) && d.range.start() < at
            } else {
                hoisted || d.range.start() < at
            }
        })
        .collect();
    // The nearest binding before the cursor first; later ones (visible in
    // hoisted code) after them.
    flat.sort_by_key(|d| {
        if d.range.start() < at {
            (0, u32::MAX - u32::from(d.range.start()))
        } else {
            (1, u32::from(d.range.start()))
        }
    });
    let inputs = sema.defs.iter().filter(|d| d.kind == DefKind::Input);
    let mut out: Vec<&Def> = Vec::new();
    for d in scoped.into_iter().chain(flat).chain(inputs) {
        if !d.name.is_empty() && !out.iter().any(|o| o.name == d.name) {
            out.push(d);
        }
    }
    out
}
