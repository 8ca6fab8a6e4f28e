//! What the name under the cursor stands for ([`classify`]): a definition
//! or resolved reference, or one of the names name resolution does not
//! record (`use` paths, `skills:` entries, named arguments of program and
//! block calls, properties read on a program's result).

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast::{self, Expr},
};

use super::{Nav, bound_program, call_program, program_callee, token_at};
use crate::{
    db::SourceFile,
    imports::implicit_name,
    semantics::{DefId, DefKind, RefKind},
};

/// A name under the cursor and what it stands for.
#[derive(Debug, Clone)]
pub(crate) struct Hit {
    /// The name itself (what a rename replaces at the cursor).
    pub(crate) range: TextRange,
    pub(crate) what: What,
}

#[derive(Debug, Clone)]
pub(crate) enum What {
    /// A definition (maybe in another file), from its name or a reference.
    Def { file: SourceFile, def: DefId },
    /// The path of a `use`: the definition it makes and the file it names.
    UsePath {
        program: Option<DefId>,
        imported: Option<SourceFile>,
    },
    /// A name that resolves to nothing, and why.
    Unresolved {
        name: String,
        reason: String,
        kind: Option<RefKind>,
    },
}

/// What the name at `offset` stands for (`None` off names).
pub(crate) fn classify(nav: &Nav<'_>, file: SourceFile, offset: TextSize) -> Option<Hit> {
    let root = nav.root(file);
    let sema = nav.sema(file);
    let token = token_at(&root, offset)?;
    if let Some(hit) = classify_syntax(nav, file, &token) {
        return hit;
    }
    if let Some(id) = sema.def_at(offset) {
        return Some(Hit {
            range: sema.def(id).name_range,
            what: What::Def { file, def: id },
        });
    }
    let r = sema.ref_at(offset)?;
    let what = match r.target {
        Some(def) => What::Def { file, def },
        None => What::Unresolved {
            name: r.name.to_string(),
            reason: unresolved_reason(r.kind, &r.name),
            kind: Some(r.kind),
        },
    };
    Some(Hit {
        range: r.range,
        what,
    })
}

fn unresolved_reason(kind: RefKind, name: &str) -> String {
    let what = match kind {
        RefKind::Agent => "agent",
        RefKind::Block => "block",
        RefKind::Program => "imported program",
        RefKind::Variable(_) => "variable",
    };
    format!("no {what} named `{name}` is defined")
}

/// Names that name resolution does not record: `use` paths, `skills:`
/// entries, named arguments, program result properties. `Some(None)` when
/// the cursor is on such a thing that leads nowhere.
fn classify_syntax(nav: &Nav<'_>, file: SourceFile, token: &SyntaxToken) -> Option<Option<Hit>> {
    let parent = token.parent()?;
    let in_string = matches!(
        token.kind(),
        SyntaxKind::STRING_OPEN
            | SyntaxKind::STRING_TEXT
            | SyntaxKind::STRING_ESCAPE
            | SyntaxKind::STRING_CLOSE
    ) && parent.kind() == SyntaxKind::STRING;
    if in_string {
        let string = parent;
        let context = string.parent()?;
        if context.kind() == SyntaxKind::USE_STMT {
            return Some(use_path_hit(nav, file, &context));
        }
        if let Some(hit) = skill_hit(nav, file, &string) {
            return Some(hit);
        }
        return None;
    }
    if token.kind() != SyntaxKind::IDENT {
        return None;
    }
    match parent.kind() {
        SyntaxKind::NAME if parent.parent()?.kind() == SyntaxKind::ARG => {
            Some(named_argument_hit(nav, file, token, &parent.parent()?))
        }
        SyntaxKind::NAME_REF => {
            let field = ast::FieldExpr::cast(parent.parent()?)?;
            if field.field()?.syntax() != &parent {
                return None;
            }
            let Some(Expr::NameRef(receiver)) = field.receiver() else {
                return Some(None);
            };
            Some(output_read_hit(nav, file, &receiver, token))
        }
        SyntaxKind::INTERPOLATION => {
            let interp = ast::Interpolation::cast(parent)?;
            if interp.fields().first() != Some(token) {
                return Some(None);
            }
            let receiver = interp.name_ref()?;
            Some(output_read_hit(nav, file, &receiver, token))
        }
        _ => None,
    }
}

fn use_path_hit(nav: &Nav<'_>, file: SourceFile, stmt: &SyntaxNode) -> Option<Hit> {
    let u = ast::UseStmt::cast(stmt.clone())?;
    let lit = u.path()?;
    let sema = nav.sema(file);
    let program = sema
        .defs_of(DefKind::Program)
        .find(|(_, d)| d.range == stmt.text_range())
        .map(|(id, _)| id);
    let imported = nav.resolve_use(file, &lit.value());
    let range = match &u.alias() {
        Some(alias) => alias.syntax().text_range(),
        None => implicit_name_range(nav.text(file), &lit),
    };
    Some(Hit {
        range,
        what: What::UsePath { program, imported },
    })
}

/// Where the implicit name sits in a `use` path: `research` in
/// `"@alice/research"` (else the whole content).
pub(crate) fn implicit_name_range(text: &str, lit: &ast::StringLit) -> TextRange {
    let content = lit.content_range();
    let Some(body) = text.get(content.start().into()..content.end().into()) else {
        return content;
    };
    let Some(name) = implicit_name(body) else {
        return content;
    };
    let trimmed = body.trim_end().trim_end_matches('/');
    let trimmed = trimmed.strip_suffix(".prose").unwrap_or(trimmed);
    match trimmed.strip_suffix(name.as_str()) {
        Some(before) => {
            let start = content.start() + TextSize::of(before);
            TextRange::at(start, TextSize::of(name.as_str()))
        }
        None => content,
    }
}

/// A string in a `skills:` list: the `import` of that skill.
fn skill_hit(nav: &Nav<'_>, file: SourceFile, string: &SyntaxNode) -> Option<Option<Hit>> {
    let prop = string
        .ancestors()
        .skip(1)
        .take_while(|n| matches!(n.kind(), SyntaxKind::ARRAY_EXPR | SyntaxKind::PROPERTY))
        .find_map(ast::Property::cast)?;
    if prop.key() != "skills" {
        return None;
    }
    let lit = ast::StringLit::cast(string.clone())?;
    let name = lit.value();
    let range = lit.content_range();
    let what = match nav.sema(file).find(DefKind::Skill, &name) {
        Some((def, _)) => What::Def { file, def },
        None => What::Unresolved {
            reason: format!("no `import` statement names the skill `{name}`"),
            name,
            kind: None,
        },
    };
    Some(Some(Hit { range, what }))
}

/// `prog(topic: ...)`: the program's input; `do b(p: ...)`: the block's parameter.
fn named_argument_hit(
    nav: &Nav<'_>,
    file: SourceFile,
    token: &SyntaxToken,
    arg: &SyntaxNode,
) -> Option<Hit> {
    let name = token.text().to_string();
    let range = token.text_range();
    let call = arg.parent()?.parent()?;
    let sema = nav.sema(file);
    let unresolved = |reason: String| {
        Some(Hit {
            range,
            what: What::Unresolved {
                name: name.clone(),
                reason,
                kind: None,
            },
        })
    };
    if let Some(d) = ast::DoCall::cast(call.clone()) {
        let callee = d.name_ref()?;
        let block = sema
            .refs
            .iter()
            .find(|r| r.range == callee.syntax().text_range() && r.kind == RefKind::Block)?;
        let Some(block) = block.target else {
            return unresolved(format!("no block named `{}` is defined", callee.text()));
        };
        let block_range = sema.def(block).range;
        let param = sema
            .defs_of(DefKind::Param)
            .find(|(_, p)| p.range == block_range && p.name == name);
        return match param {
            Some((def, _)) => Some(Hit {
                range,
                what: What::Def { file, def },
            }),
            None => unresolved(format!(
                "block `{}` has no parameter `{name}`",
                callee.text()
            )),
        };
    }
    let call = ast::CallExpr::cast(call)?;
    let callee = program_callee(&call)?.text();
    let Some(program) = call_program(sema, &call) else {
        return unresolved(format!("no imported program named `{callee}`"));
    };
    let Some(p) = nav.imported_file(file, sema.def(program)) else {
        return unresolved(format!(
            "it names an input of `{callee}`, whose program is not available locally"
        ));
    };
    match nav.sema(p).find(DefKind::Input, &name) {
        Some((def, _)) => Some(Hit {
            range,
            what: What::Def { file: p, def },
        }),
        None => unresolved(format!("`{callee}` declares no input `{name}`")),
    }
}

/// `r.findings` / `{r.findings}` where `r` holds a program's result: the
/// program's output.
fn output_read_hit(
    nav: &Nav<'_>,
    file: SourceFile,
    receiver: &ast::NameRef,
    token: &SyntaxToken,
) -> Option<Hit> {
    let sema = nav.sema(file);
    let at = receiver.syntax().text_range();
    let var = sema.refs.iter().find(|r| r.range == at)?.target?;
    let program = bound_program(&nav.root(file), sema, sema.def(var))?;
    let name = token.text().to_string();
    let range = token.text_range();
    let program_name = &sema.def(program).name;
    let what = match nav.imported_file(file, sema.def(program)) {
        None => What::Unresolved {
            reason: format!(
                "it names an output of `{program_name}`, whose program is not available locally"
            ),
            name,
            kind: None,
        },
        Some(p) => match nav.sema(p).find(DefKind::Output, &name) {
            Some((def, _)) => What::Def { file: p, def },
            None => What::Unresolved {
                reason: format!("`{program_name}` declares no output `{name}`"),
                name,
                kind: None,
            },
        },
    };
    Some(Hit { range, what })
}
