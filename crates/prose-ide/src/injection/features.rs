//! Each feature asked of the guests of a file, in the host's terms: the
//! guest answers in its own text, the injection's [`super::OffsetMap`]
//! brings the answer back. A new guest language is one arm per feature
//! here; a new host is one arm of [`super::injections`].

use prose_markdown::{
    Definition, FileLookup,
    instructions::{FragmentKind, Instructions},
};
use prose_syntax::{TextRange, TextSize};

use super::{Guest, GuestLanguage, Injection, at, guests, injections};
use crate::{
    FileId,
    auxiliary::WorkspaceFiles,
    config::Config,
    db::{Db, SourceFile, Workspace, file_kind, parse},
    diagnostics::{Diagnostic, Finding, file_config, file_diagnostics, finish, front_end_accs},
    features::{
        code_actions::CodeAction,
        completion::{CompletionItem, CompletionKind},
        hover::HoverResult,
        semantic_tokens::SemanticToken,
    },
    kind::FileKind,
    markdown::convert,
    openprose::{features as op, injections::statement_prompts, semantics::file_semantics},
};

/// A link from a range of a file to another file (`_spawn_` files, a
/// prompt's `/read` targets).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DocumentLink {
    pub range: TextRange,
    /// The target's key (absolute path).
    pub target: String,
}

/// The injections of a file with their guests.
fn pairs(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> impl Iterator<Item = (&Injection, &Guest)> {
    injections(db, file, workspace)
        .iter()
        .zip(guests(db, file, workspace))
}

/// Whether an instruction guest shows its highlighting: a file that
/// carries the language, or a prompt that uses it (a prompt that only
/// emphasises a word such as `_run_` is plain text).
fn highlighted(inj: &Injection, ins: &Instructions) -> bool {
    matches!(
        inj.language,
        GuestLanguage::Instructions {
            fragment: FragmentKind::File,
            ..
        }
    ) || ins.uses_language
}

/// The diagnostics of every checked guest of `file`, in the host's ranges,
/// with `config` (the host file's root's) applied.
pub(crate) fn diagnostics(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    config: &Config,
) -> Vec<Diagnostic> {
    let path = file.path(db);
    let mut instructions: Vec<Finding> = Vec::new();
    let mut dialect: Vec<Finding> = Vec::new();
    let mut out = Vec::new();
    // The instruction findings of guest text `inj`, mapped to the host by
    // `map`.
    let mut findings = |inj: &Injection, fragment, map: &dyn Fn(TextRange) -> TextRange| {
        let key = super::memo::GuestText::new(db, inj.text.clone(), fragment, inj.plainness);
        let found = super::memo::findings_of(db, key, file, workspace);
        instructions.extend(
            found
                .iter()
                .filter(|d| !inj.in_opaque(d.range))
                .map(|d| convert::finding(d, path, map)),
        );
    };
    let program = file_kind(db, file, workspace) == FileKind::OpenProse;
    if program {
        // A program's guests are its prompts, kept per statement with
        // which of them the checks may report in (most none): the list of
        // every prompt is not made for an edit.
        for (start, prompts) in statement_prompts(db, file) {
            for inj in prompts.checked.iter().map(|&i| &prompts.injections[i]) {
                findings(inj, FragmentKind::Prompt, &|r| {
                    inj.map.range_to_host(r) + *start
                });
            }
        }
    }
    let others = (!program)
        .then(|| pairs(db, file, workspace))
        .into_iter()
        .flatten();
    for (inj, guest) in others.filter(|(inj, _)| inj.checked) {
        let map = |r: TextRange| inj.map.range_to_host(r);
        match guest {
            Guest::Instructions(Some(ins)) => {
                let GuestLanguage::Instructions { fragment, .. } = inj.language else {
                    continue;
                };
                if prose_markdown::instructions::check_finds_nothing(ins) {
                    // Most prompts: nothing to intern or look up.
                    continue;
                }
                findings(inj, fragment, &map);
            }
            Guest::OpenProse(Some(g)) => {
                let guest_path = g.path(db);
                for d in file_diagnostics(db, *g, workspace) {
                    let mut d = d.clone();
                    d.range = map(d.range);
                    for r in &mut d.related {
                        if &r.path == guest_path {
                            r.path = path.clone();
                            r.range = map(r.range);
                        }
                    }
                    out.push(d);
                }
            }
            Guest::Dialect(doc) => {
                dialect.extend(crate::dialect::findings(doc).map(|mut f| {
                    f.range = map(f.range);
                    f
                }));
            }
            Guest::Instructions(None) | Guest::OpenProse(None) => {}
        }
    }
    if !instructions.is_empty() {
        let accs = front_end_accs(config, crate::markdown::rules(), instructions);
        out.extend(finish(config, accs));
    }
    if !dialect.is_empty() {
        let accs = front_end_accs(config, crate::dialect::rules(), dialect);
        out.extend(finish(config, accs));
    }
    out
}

/// The hover of the guest at `offset`, in the host's range.
pub(crate) fn hover(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file: SourceFile,
    offset: TextSize,
) -> Option<HoverResult> {
    let (inj, guest, at) = at(db, file, workspace, offset)?;
    let (range, markdown) = match guest {
        Guest::Instructions(Some(ins)) => {
            let h = prose_markdown::instructions::hover(&inj.text, ins, at.into())?;
            (h.range, h.markdown)
        }
        Guest::OpenProse(Some(g)) => {
            let h = op::hover::hover(db, workspace?, *g, at)?;
            (h.range, h.markdown)
        }
        Guest::Dialect(doc) => {
            let config = file_config(db, file, workspace);
            let diags = if inj.checked {
                crate::dialect::text_diagnostics(doc, &config)
            } else {
                Vec::new()
            };
            let h = crate::dialect::hover::hover(doc, &diags, &config, at)?;
            (h.range, h.markdown)
        }
        Guest::Instructions(None) | Guest::OpenProse(None) => return None,
    };
    Some(HoverResult {
        range: inj.map.range_to_host(range),
        markdown,
    })
}

/// The semantic tokens of every guest of `file` (those touching `range`,
/// if given), in the host's ranges; sorted, one line each.
pub(crate) fn semantic_tokens(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file: SourceFile,
    range: Option<TextRange>,
) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    for (inj, guest) in pairs(db, file, workspace) {
        if range.is_some_and(|r| r.intersect(inj.map.host_span()).is_none()) {
            continue;
        }
        let map = |r: TextRange| inj.map.range_to_host(r);
        match guest {
            Guest::Instructions(Some(ins)) if highlighted(inj, ins) => out.extend(
                prose_markdown::instructions::semantic_tokens(&inj.text, ins)
                    .iter()
                    .filter(|t| !inj.in_opaque(t.range))
                    .map(|t| convert::token(t, &map)),
            ),
            Guest::OpenProse(Some(g)) => {
                let root = parse(db, *g).syntax_node();
                out.extend(
                    op::semantic_tokens::semantic_tokens(&root, file_semantics(db, *g), None)
                        .into_iter()
                        .map(|mut t| {
                            t.range = map(t.range);
                            t
                        }),
                );
            }
            Guest::Dialect(doc) => out.extend(
                crate::dialect::semantic_tokens::semantic_tokens(&inj.text, doc, None)
                    .into_iter()
                    .map(|mut t| {
                        t.range = map(t.range);
                        t
                    }),
            ),
            _ => {}
        }
    }
    if let Some(r) = range {
        out.retain(|t| r.intersect(t.range).is_some());
    }
    out.sort_by_key(|t| (t.range.start(), t.range.end()));
    out
}

/// The completions of the guest at `offset`, inserting text as the host
/// writes it.
pub(crate) fn completions(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file: SourceFile,
    offset: TextSize,
) -> Vec<CompletionItem> {
    let Some((inj, guest, at)) = at(db, file, workspace, offset) else {
        return Vec::new();
    };
    let escape = |s: &str| inj.host_text(s);
    match guest {
        Guest::Instructions(Some(ins)) => {
            prose_markdown::instructions::completions(&inj.text, ins, at.into())
                .iter()
                .filter(|c| inj.map.is_verbatim(c.replace))
                .map(|c| {
                    let kind = if c.label.starts_with('_') {
                        CompletionKind::Keyword
                    } else {
                        CompletionKind::Value
                    };
                    convert::completion(c, kind, inj.map.range_to_host(c.replace), &escape)
                })
                .collect()
        }
        // Multi-line items would lose the indentation of a fence inside a
        // list item: only fences that are the host's text as it is.
        Guest::OpenProse(Some(g))
            if inj
                .map
                .is_verbatim(TextRange::up_to(TextSize::of(&*inj.text))) =>
        {
            match workspace {
                Some(ws) => op::completion::completions(db, ws, *g, at)
                    .into_iter()
                    .map(|mut c| {
                        c.replace_range = inj.map.range_to_host(c.replace_range);
                        c
                    })
                    .collect(),
                None => Vec::new(),
            }
        }
        Guest::Dialect(_) => {
            let registry = crate::dialect::registry(db, file, workspace);
            crate::dialect::completion::completions(&inj.text, registry.as_deref(), at)
                .into_iter()
                .filter(|c| inj.map.is_verbatim(c.replace_range))
                .map(|mut c| {
                    c.replace_range = inj.map.range_to_host(c.replace_range);
                    c
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Where a `{variable}` used at `offset` is bound, in the host.
pub(crate) fn definition(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file: SourceFile,
    offset: TextSize,
) -> Option<TextRange> {
    let (inj, guest, at) = at(db, file, workspace, offset)?;
    let Guest::Instructions(Some(ins)) = guest else {
        return None;
    };
    match prose_markdown::instructions::definition(ins, at.into())? {
        Definition::Range(r) => Some(inj.map.range_to_host(r)),
        Definition::File(_) => None,
    }
}

/// A link for every `_spawn_` file of the instruction guests.
pub(crate) fn document_links(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file: SourceFile,
) -> Vec<DocumentLink> {
    let files = WorkspaceFiles::of(db, file, workspace);
    let mut out = Vec::new();
    for (inj, guest) in pairs(db, file, workspace) {
        let Guest::Instructions(Some(ins)) = guest else {
            continue;
        };
        for s in ins
            .spawns
            .iter()
            .filter(|s| !s.templated && !s.path.is_empty())
        {
            if files.lookup(&s.path) == prose_markdown::Lookup::Missing {
                continue;
            }
            out.push(DocumentLink {
                range: inj.map.range_to_host(s.range),
                target: files.key(&s.path),
            });
        }
    }
    out
}

/// The quick fixes of the guests' diagnostics that touch `range`.
pub(crate) fn code_actions(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file_id: FileId,
    file: SourceFile,
    range: TextRange,
) -> Vec<CodeAction> {
    let files = WorkspaceFiles::of(db, file, workspace);
    let reported = file_diagnostics(db, file, workspace);
    let mut out = Vec::new();
    for (inj, guest) in pairs(db, file, workspace).filter(|(inj, _)| inj.checked) {
        if let Guest::Dialect(doc) = guest {
            out.extend(dialect_fixes(db, workspace, file_id, file, inj, doc, range));
            continue;
        }
        let Guest::Instructions(Some(ins)) = guest else {
            continue;
        };
        let found = prose_markdown::instructions::check(&inj.text, ins, &files);
        out.extend(crate::markdown::code_actions::fixes(
            file_id,
            &found,
            reported,
            range,
            &|r| inj.map.is_verbatim(r).then(|| inj.map.range_to_host(r)),
            &|s| inj.host_text(s),
        ));
    }
    out
}

/// The parser's fixes of a dialect fence's diagnostics that touch the host
/// `range`, as edits of the host (fixes that would cross text the fence
/// leaves out, such as a list item's indentation, are not offered).
fn dialect_fixes(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file_id: FileId,
    file: SourceFile,
    inj: &Injection,
    doc: &prose_dialect::Document,
    range: TextRange,
) -> Vec<CodeAction> {
    let diags = crate::dialect::text_diagnostics(doc, &file_config(db, file, workspace));
    let whole = TextRange::up_to(TextSize::of(&*inj.text));
    crate::dialect::code_actions::code_actions(file_id, doc, &diags, whole)
        .into_iter()
        .filter_map(|mut a| {
            let at = inj.map.range_to_host(a.diagnostic_range?);
            at.intersect(range)?;
            a.diagnostic_range = Some(at);
            for (_, edits) in &mut a.edit.edits {
                for e in edits {
                    if !inj.map.is_verbatim(e.range) {
                        return None;
                    }
                    e.range = inj.map.range_to_host(e.range);
                }
            }
            Some(a)
        })
        .collect()
}

/// The `_spawn_` files the guests name (keys), for the host to load.
pub(crate) fn aux_paths(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file: SourceFile,
) -> Vec<String> {
    let files = WorkspaceFiles::of(db, file, workspace);
    let mut out = Vec::new();
    for (_, guest) in pairs(db, file, workspace) {
        match guest {
            Guest::Instructions(Some(ins)) => {
                out.extend(ins.paths_to_check().iter().map(|p| files.key(p)));
            }
            Guest::OpenProse(Some(g)) => out.extend(aux_paths(db, workspace, *g)),
            _ => {}
        }
    }
    out
}

/// The OpenProse fence files of `file`, whose own needs (memory files,
/// imported programs) the host loads too.
pub(crate) fn guest_files(
    db: &dyn Db,
    workspace: Option<Workspace>,
    file: SourceFile,
) -> Vec<SourceFile> {
    pairs(db, file, workspace)
        .filter_map(|(_, g)| match g {
            Guest::OpenProse(Some(f)) => Some(*f),
            _ => None,
        })
        .collect()
}
