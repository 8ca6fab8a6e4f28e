//! Typing in a prompt: the file's names and its file-wide rule findings of
//! the parse before, moved by the edit, instead of computed again.
//!
//! When the last parse of a file only replaced the text of a prompt string
//! (the re-lex shortcut of `prose_syntax::reparse`: no quote, brace,
//! backslash or line break typed or deleted), the new tree is the old one
//! but for that token. Nothing that name resolution reads changed (it reads
//! names and interpolations, which are nodes of their own), and no line
//! started or ended, so the names are the previous ones with every offset
//! after the token moved by the change of its length. The same holds for a
//! rule that reads neither the prompt's text nor anything outside the file:
//! its findings of the parse before, moved, are its findings now.
//!
//! Which rules qualify is decided per run, for the run that made the
//! findings: a rule that read the file's text, its syntax errors, the
//! configuration or the workspace (recorded by the rule context, see
//! `ctx.rs`) is run again, as are the rules of [`READ_STRINGS`], which read
//! the text of string tokens through the tree. A rule whose only reads of
//! the workspace are those that can be asked again cheaply (whether there
//! is one, the root and home directories, whether memory files exist,
//! which candidate files of a `use` path are loaded and their programs'
//! inputs and outputs) qualifies while those reads give the same answers,
//! and one that read ranges of the text qualifies while the edit lies
//! outside them (`workspace_reads.rs`). A test edits every prompt of the
//! corpus this way and compares the diagnostics with a fresh analysis.
//!
//! The cache keeps, per file, the root of the parse the kept results were
//! made from (its green node, so that the address cannot be reused), the
//! names, the findings of the rules that qualify, and the configuration
//! they were made under. A range that lies partly inside the edited token
//! cannot be moved: everything is computed again then.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
};

use prose_syntax::{AstNode, GreenNode, NodeOrToken, SyntaxKind, TextRange, TextSize, ast};

use crate::{
    config::Config,
    db::{Db, SourceFile, parse},
    diagnostics::Acc,
    openprose::{rule_parts::Part, semantics::FileSemantics, workspace_reads::WorkspaceReads},
    reparse::{Relex, root_key},
};

/// The rules that read the text of string tokens (escapes, quotes, fences,
/// interpolations and what follows a `"""`): always run again.
pub(crate) const READ_STRINGS: &[&str] = &["E001", "E002", "P101", "P102", "P103", "P104"];

/// A rule's findings, with the answers of the workspace reads it made.
pub(crate) type KeptFinding = (Acc, WorkspaceReads);

/// What was kept for each file (see the module's documentation).
#[derive(Default)]
pub struct PromptEditCache {
    /// Per file, what was kept for its last two parses (the names of the
    /// new parse are made before its rules run, which read the old one's).
    files: Mutex<HashMap<SourceFile, Vec<Kept>>>,
    /// Whether nothing is kept (a database that analyses each text once,
    /// [`crate::db::RootDatabase::batch`]).
    batch: bool,
    /// How many times the names and the findings were moved rather than
    /// computed, for tests.
    moved: [std::sync::atomic::AtomicU64; 2],
    /// The file-wide rules run again by the last analysis that moved
    /// findings, for tests.
    #[cfg(test)]
    ran_again: Mutex<Vec<&'static str>>,
}

/// What was kept for an earlier parse ([`PromptEditCache::before`]).
pub(crate) struct Before {
    /// Its root.
    pub(crate) root: GreenNode,
    /// The findings kept from it, in each part's slot, with the
    /// configuration they were made under.
    pub(crate) rules: [Option<(Config, Arc<Vec<KeptFinding>>)>; 2],
}

#[derive(Default, Clone)]
struct Kept {
    /// The root of the parse these results were made from.
    root: Option<(usize, GreenNode)>,
    sema: Option<Arc<FileSemantics>>,
    /// The findings of the rules that qualify, each with the answers of
    /// the workspace reads it made ([`WorkspaceReads`]): those of all the
    /// rules, or of each part when they run in two (`Part::slot`).
    rules: [Option<(Config, Arc<Vec<KeptFinding>>)>; 2],
}

impl PromptEditCache {
    /// A cache that keeps nothing.
    pub(crate) fn batch() -> Self {
        PromptEditCache {
            batch: true,
            ..PromptEditCache::default()
        }
    }

    /// Whether what is offered is kept ([`keep_findings`] need not be
    /// given copies otherwise).
    pub(crate) fn keeps(&self) -> bool {
        !self.batch
    }

    /// How many times rule findings were moved (tests).
    #[cfg(test)]
    pub(crate) fn findings_moved(&self) -> u64 {
        self.moved[1].load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Notes that `code` ran again after typing in a prompt (`None`: an
    /// analysis that moves findings starts), for tests.
    #[cfg(test)]
    pub(crate) fn note_ran_again(&self, code: Option<&'static str>) {
        let mut ran = self
            .ran_again
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match code {
            Some(code) => ran.push(code),
            None => ran.clear(),
        }
    }

    /// The file-wide rules run again by the last analysis that moved
    /// findings (tests).
    #[cfg(test)]
    pub(crate) fn ran_again(&self) -> Vec<&'static str> {
        self.ran_again
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The lists of findings kept for `file`, weakly (tests).
    #[cfg(test)]
    fn kept_lists(&self, file: SourceFile) -> Vec<std::sync::Weak<Vec<KeptFinding>>> {
        self.with(|files| {
            files
                .get(&file)
                .into_iter()
                .flatten()
                .flat_map(|k| k.rules.iter().flatten())
                .map(|(_, list)| Arc::downgrade(list))
                .collect()
        })
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<SourceFile, Vec<Kept>>) -> T) -> T {
        // Nothing runs under the lock that could panic halfway.
        f(&mut self.files.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Keeps `value` as made from the parse whose root is `root`.
    fn keep(&self, file: SourceFile, root: &GreenNode, set: impl FnOnce(&mut Kept)) {
        if self.batch {
            return;
        }
        let key = crate::reparse::green_key(root);
        self.with(|files| {
            let kept = files.entry(file).or_default();
            let i = match kept
                .iter()
                .position(|k| k.root.as_ref().is_some_and(|(r, _)| *r == key))
            {
                Some(i) => i,
                None => {
                    if kept.len() == 2 {
                        // Freed after the diagnostics are out, in the
                        // language server (`crate::deferred`).
                        crate::deferred::drop_later(kept.remove(0));
                    }
                    kept.push(Kept {
                        root: Some((key, root.clone())),
                        ..Kept::default()
                    });
                    kept.len() - 1
                }
            };
            set(&mut kept[i]);
        });
    }

    /// What was kept for the parse of `file` made last before the one
    /// whose root is `root` (`statement_edit.rs`).
    pub(crate) fn before(&self, file: SourceFile, root: usize) -> Option<Before> {
        self.with(|files| {
            let k = files
                .get(&file)?
                .iter()
                .rev()
                .find(|k| k.root.as_ref().is_some_and(|(r, _)| *r != root))?;
            Some(Before {
                root: k.root.as_ref()?.1.clone(),
                rules: k.rules.clone(),
            })
        })
    }

    fn kept(&self, file: SourceFile, root: usize) -> Option<Kept> {
        self.with(|files| {
            files
                .get(&file)?
                .iter()
                .find(|k| k.root.as_ref().is_some_and(|(r, _)| *r == root))
                .cloned()
        })
    }
}

/// The edit that made the current parse of `file`, when it only replaced
/// the text of a prompt string.
pub(crate) fn prompt_edit(db: &dyn Db, file: SourceFile) -> Option<Relex> {
    let parse = parse(db, file);
    let relex = db.parse_cache().relexed(file, root_key(parse))?;
    let NodeOrToken::Token(token) = parse.syntax_node().covering_element(relex.new) else {
        return None;
    };
    if token.kind() != SyntaxKind::STRING_TEXT || token.text_range() != relex.new {
        return None;
    }
    let string = token.parent()?;
    let holder = string.parent()?;
    let prompt = match holder.kind() {
        SyntaxKind::SESSION_EXPR => true,
        SyntaxKind::PROPERTY => ast::Property::cast(holder).is_some_and(|p| p.key() == "prompt"),
        _ => false,
    };
    prompt.then_some(relex)
}

/// `range` of the old text in the new one, when it does not lie partly
/// inside the edited token.
pub(crate) fn moved(range: TextRange, edit: &Relex) -> Option<TextRange> {
    let (start, end) = (edit.old.start(), edit.old.end());
    let at = |o: TextSize| o - end + edit.new.end();
    if range.end() <= start {
        Some(range)
    } else if range.start() >= end {
        Some(TextRange::new(at(range.start()), at(range.end())))
    } else if range.start() <= start && range.end() >= end {
        Some(TextRange::new(range.start(), at(range.end())))
    } else {
        None
    }
}

/// The names of `file`: the previous ones moved when the last edit only
/// typed in a prompt, else `compute()`; kept for the next edit either way.
pub(crate) fn semantics(
    db: &dyn Db,
    file: SourceFile,
    compute: impl FnOnce() -> FileSemantics,
) -> Arc<FileSemantics> {
    let cache = db.prompt_edits();
    let root = parse(db, file).green().clone();
    let reused = prompt_edit(db, file).and_then(|edit| {
        let kept = cache.kept(file, edit.from)?.sema?;
        let sema = kept.moved(|r| moved(r, &edit))?;
        cache.moved[0].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(sema)
    });
    let sema = Arc::new(reused.unwrap_or_else(compute));
    cache.keep(file, &root, |k| k.sema = Some(sema.clone()));
    sema
}

/// The findings of the file-wide rules kept from the parse before, moved,
/// when the last edit only typed in a prompt and the configuration is the
/// same; `None` if they are to be computed.
pub(crate) fn kept_findings(
    db: &dyn Db,
    file: SourceFile,
    config: &Config,
    part: Part,
) -> Option<Vec<KeptFinding>> {
    let edit = prompt_edit(db, file)?;
    let [first, second] = db.prompt_edits().kept(file, edit.from)?.rules;
    // A whole run moves what the parts of the run before kept (the second
    // part's slot is empty after a whole run).
    let (own, other) = match part {
        Part::Whole => (first, second),
        Part::First => (first, None),
        Part::Second => (second, None),
    };
    let path = file.path(db);
    let mut accs: Vec<KeptFinding> = Vec::new();
    for (made_under, kept) in std::iter::once(own?).chain(other) {
        if made_under != *config {
            return None;
        }
        for (a, reads) in kept.iter() {
            // A rule that read the text where the edit is runs again.
            let Some(reads) = reads.after_edit(edit.old, |r| moved(r, &edit)) else {
                continue;
            };
            accs.push((a.mapped(path, |r| moved(r, &edit))?, reads));
        }
    }
    // Counted once per file analysis: for the rules' first part when
    // they run in two.
    if part != Part::Second {
        db.prompt_edits().moved[1].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    Some(accs)
}

/// Keeps the findings of the rules that qualify, made from the current
/// parse of `file` under `config`, each with the answers of the workspace
/// reads it made: they are moved after typing in a prompt when the reads
/// give the same answers then.
pub(crate) fn keep_findings(
    db: &dyn Db,
    file: SourceFile,
    config: &Config,
    part: Part,
    accs: Vec<KeptFinding>,
) {
    let root = parse(db, file).green().clone();
    db.prompt_edits().keep(file, &root, |k| {
        // What was kept before is freed later, as the dropped entries.
        if part == Part::Whole {
            crate::deferred::drop_later(k.rules[1].take());
        }
        let old = k.rules[part.slot()].replace((config.clone(), Arc::new(accs)));
        crate::deferred::drop_later(old);
    });
}

#[cfg(test)]
mod tests {
    use prose_syntax::{AstNode, SyntaxKind};

    use crate::{AnalysisHost, db::Db};

    /// The programs the tests edit.
    fn programs() -> Vec<(String, String)> {
        crate::openprose::rule_tests::sample_programs()
    }

    /// Where to type in each prompt's text of `text`: the middle of every
    /// text token of a session's prompt or a `prompt:` property.
    fn prompt_offsets(text: &str) -> Vec<usize> {
        let root = prose_syntax::parse(text).syntax_node();
        root.descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == SyntaxKind::STRING_TEXT)
            .filter(|t| {
                let holder = t.parent().and_then(|s| s.parent());
                holder.is_some_and(|h| {
                    h.kind() == SyntaxKind::SESSION_EXPR
                        || prose_syntax::ast::Property::cast(h).is_some_and(|p| p.key() == "prompt")
                })
            })
            .map(|t| {
                let r = t.text_range();
                let mut at = usize::from(r.start()) + usize::from(r.len()) / 2;
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                at
            })
            .collect()
    }

    /// The findings kept for a parse that a newer one replaces are freed
    /// where they are replaced, or, inside `deferred::drop_after` (the
    /// language server's threads), once that call is done: after the
    /// result that replaced them is stored.
    #[test]
    fn findings_replaced_are_freed_after_the_run_that_replaced_them() {
        let mut host = AnalysisHost::new();
        host.db.statement_memos().set_split(false);
        let mut text = "let x = session \"a\"\nlet x = session \"b\"\n".to_string();
        let id = host.set_file_text("/ws/a.prose", text.clone());
        let file = host.analysis().source_file(id);
        let mut analyse = |host: &mut AnalysisHost, add: &str| {
            text.push_str(add);
            host.set_file_text("/ws/a.prose", text.clone());
            host.analysis().diagnostics(id).unwrap();
        };
        let alive =
            |lists: &[std::sync::Weak<_>]| lists.iter().filter(|w| w.strong_count() > 0).count();
        analyse(&mut host, "");
        // Two parses are kept: a third pushes out the oldest.
        analyse(&mut host, "session \"c\"\n");
        let before = host.db.prompt_edits().kept_lists(file);
        assert_eq!(alive(&before), 2);
        analyse(&mut host, "session \"d\"\n");
        assert_eq!(alive(&before), 1, "freed where it was replaced");
        let before = host.db.prompt_edits().kept_lists(file);
        crate::deferred::drop_after(|| {
            analyse(&mut host, "session \"e\"\n");
            assert_eq!(alive(&before), 2, "set aside until the run is done");
        });
        assert_eq!(alive(&before), 1);
    }

    /// Typing in every prompt of every program: the diagnostics and the
    /// names are a fresh analysis's, and most edits moved the previous
    /// names and findings instead of computing them.
    #[test]
    fn typing_in_a_prompt_gives_what_a_fresh_analysis_gives() {
        let mut edits = 0;
        let mut host = AnalysisHost::new();
        let walks_before = crate::openprose::kind_index::walks_for_kinds();
        for (name, original) in programs() {
            let mut text = original.clone();
            let file = host.set_file_text("/ws/edited.prose", text.clone());
            host.analysis().diagnostics(file).unwrap();
            // From the last prompt to the first, so that the offsets stay
            // right.
            let offsets = prompt_offsets(&original);
            // At most eight prompts per program, spread over it.
            let step = offsets.len().div_ceil(8).max(1);
            for at in offsets.into_iter().step_by(step).rev() {
                for typed in ["zq ", "w"] {
                    text.insert_str(at, typed);
                    host.set_file_text("/ws/edited.prose", text.clone());
                    let analysis = host.analysis();
                    let incremental = analysis.diagnostics(file).unwrap();
                    let names = analysis
                        .with_db(|db| {
                            crate::openprose::semantics::file_semantics(
                                db,
                                analysis.source_file(file),
                            )
                            .clone()
                        })
                        .unwrap();
                    let mut fresh = AnalysisHost::new();
                    let id = fresh.set_file_text("/ws/edited.prose", text.clone());
                    let fa = fresh.analysis();
                    assert_eq!(
                        incremental,
                        fa.diagnostics(id).unwrap(),
                        "{name} after typing at {at}"
                    );
                    let fresh_names = fa
                        .with_db(|db| {
                            crate::openprose::semantics::file_semantics(db, fa.source_file(id))
                                .clone()
                        })
                        .unwrap();
                    assert_eq!(names, fresh_names, "{name} after typing at {at}");
                    edits += 1;
                }
            }
        }
        // The rules run again asked only for the kinds their index is of
        // (`kind_index::PROMPT_EDIT`): none walked the tree for its nodes.
        assert_eq!(
            crate::openprose::kind_index::walks_for_kinds(),
            walks_before,
            "a rule walked the tree for a kind"
        );
        let moved =
            |i: usize| host.db.prompt_edits().moved[i].load(std::sync::atomic::Ordering::Relaxed);
        assert!(edits > 100, "only {edits} edits");
        assert!(
            moved(0) * 2 > edits,
            "names moved {} times in {edits} edits",
            moved(0)
        );
        assert!(
            moved(1) * 2 > edits,
            "findings moved {} times in {edits} edits",
            moved(1)
        );
    }

    /// The memory rules' findings (E018, W011) are moved after typing in a
    /// prompt while the memory files they asked about are as they were,
    /// and computed again when those appear: a fresh analysis's
    /// diagnostics either way.
    #[test]
    fn memory_findings_move_until_the_memory_files_change() {
        let program = "agent w:\n  model: opus\n  persist: project\nresume: w\n  prompt: \"go on\"\nagent v:\n  model: opus\n  persist: project\nsession: v\n  prompt: \"write it\"\n";
        let memory: std::collections::BTreeSet<String> = [
            "/ws/.prose/agents/w/memory.md".to_string(),
            "/ws/.prose/agents/v/memory.md".to_string(),
        ]
        .into();
        let analysed = |text: &str, memory: &std::collections::BTreeSet<String>| {
            let mut host = AnalysisHost::new();
            host.set_workspace_root(Some("/ws".into()));
            host.set_memory_files(memory.clone());
            let id = host.set_file_text("/ws/p.prose", text.to_string());
            host.analysis().diagnostics(id).unwrap()
        };
        let codes = |d: &[crate::Diagnostic]| d.iter().map(|d| d.code.as_str()).collect::<Vec<_>>();
        let mut host = AnalysisHost::new();
        host.set_workspace_root(Some("/ws".into()));
        let mut text = program.to_string();
        let file = host.set_file_text("/ws/p.prose", text.clone());
        host.analysis().diagnostics(file).unwrap();
        let moved = |host: &AnalysisHost| {
            host.db.prompt_edits().moved[1].load(std::sync::atomic::Ordering::Relaxed)
        };
        let at = |text: &str| text.find("\"go").unwrap() + 3;
        // Typed with no memory file: E018's hint, moved.
        text.insert(at(&text), 'x');
        host.set_file_text("/ws/p.prose", text.clone());
        let before = moved(&host);
        let typed = host.analysis().diagnostics(file).unwrap();
        assert_eq!(moved(&host), before + 1);
        assert_eq!(typed, analysed(&text, &Default::default()));
        assert!(codes(&typed).contains(&"E018"), "{typed:?}");
        // The memory files appear, then a prompt is typed in: the hint
        // goes and W011 comes, though the other findings are moved.
        host.set_memory_files(memory.clone());
        text.insert(at(&text), 'y');
        host.set_file_text("/ws/p.prose", text.clone());
        let typed = host.analysis().diagnostics(file).unwrap();
        assert_eq!(moved(&host), before + 2);
        assert_eq!(typed, analysed(&text, &memory));
        assert!(!codes(&typed).contains(&"E018"), "{typed:?}");
        assert!(codes(&typed).contains(&"W011"), "{typed:?}");
    }

    /// The findings of the rules that resolve imports (P204, E026, E027,
    /// E028) and of E022 are moved after typing in a prompt while what they
    /// read gives the same answers: the loaded candidates of each `use`
    /// path, the imported programs' inputs and outputs, and the text of
    /// the first executable statement; each runs again when its answer
    /// changes. Every step gives a fresh analysis's diagnostics.
    #[test]
    fn import_findings_move_until_what_they_read_changes() {
        use std::sync::atomic::Ordering;
        const RESEARCH: &str = "/ws/.prose/imports/alice--research/program.prose";
        const OTHER: &str = "/ws/.prose/imports/carol--other/program.prose";
        let research =
            "input topic: \"What to research\"\noutput findings = session \"Summarise {topic}\"\n";
        let program = "input early: \"x\"\nsession \"start here\"\nuse \"@alice/research\"\nuse \"@carol/other\"\nlet result = research(topic: \"x\", depth: 2)\nlet again = research()\nsession \"Use {result.finding}\"\n  context: result.notes\nlet o = other(x: 1)\nsession \"write it\"\ninput late: \"y\"\n";
        let fresh = |files: &[(&str, &str)], text: &str| {
            let mut host = AnalysisHost::new();
            host.set_workspace_root(Some("/ws".into()));
            for (path, t) in files {
                host.set_file_text(path, t.to_string());
            }
            let id = host.set_file_text("/ws/main.prose", text.to_string());
            host.analysis().diagnostics(id).unwrap()
        };
        let codes = |d: &[crate::Diagnostic]| {
            let mut c: Vec<&str> = d.iter().map(|d| d.code.as_str()).collect();
            c.sort_unstable();
            c.dedup();
            c.join(" ")
        };
        let mut host = AnalysisHost::new();
        host.set_workspace_root(Some("/ws".into()));
        host.set_file_text(RESEARCH, research);
        let mut text = program.to_string();
        let file = host.set_file_text("/ws/main.prose", text.clone());
        let first = host.analysis().diagnostics(file).unwrap();
        assert_eq!(codes(&first), "E022 E026 E027 E028 P204", "{first:?}");
        let moved = |host: &AnalysisHost| host.db.prompt_edits().moved[1].load(Ordering::Relaxed);
        let typed =
            |host: &mut AnalysisHost, text: &mut String, prompt: &str, files: &[(&str, &str)]| {
                let at = text.find(prompt).unwrap() + prompt.len();
                text.insert(at, 'x');
                host.set_file_text("/ws/main.prose", text.clone());
                let before = moved(host);
                let now = host.analysis().diagnostics(file).unwrap();
                assert_eq!(moved(host), before + 1, "findings not moved");
                assert_eq!(now, fresh(files, text), "after typing in {prompt}");
                // The rules that ran again besides those that read the syntax
                // errors, strings or the whole text, which always do.
                let always = ["E001", "E002", "E004", "E005", "P001", "P101", "P104"];
                let mut ran = host.db.prompt_edits().ran_again();
                assert!(always.iter().all(|c| ran.contains(c)), "{ran:?}");
                ran.retain(|c| !always.contains(c));
                ran.sort_unstable();
                (now, ran)
            };
        let research_only = [(RESEARCH, research)];
        // Nothing changed but the prompt: the import rules and E022 are
        // moved, not run.
        let (_, ran) = typed(&mut host, &mut text, "\"write", &research_only);
        assert!(ran.is_empty(), "{ran:?}");
        // The imported program gains an output: E026, E027 and E028 read
        // its contract and run again; P204 read only which files are
        // loaded.
        let research2 = "input topic: \"What to research\"\noutput findings = session \"Summarise {topic}\"\noutput finding = session \"One\"\n";
        host.set_file_text(RESEARCH, research2);
        let (now, ran) = typed(&mut host, &mut text, "\"write", &[(RESEARCH, research2)]);
        assert_eq!(ran, ["E026", "E027", "E028"]);
        assert_eq!(codes(&now), "E022 E026 E027 E028 P204");
        // The missing program appears: P204 runs again, and its warning goes.
        host.set_file_text(OTHER, "input x: \"x\"\n");
        let both = [(RESEARCH, research2), (OTHER, "input x: \"x\"\n")];
        let (now, ran) = typed(&mut host, &mut text, "\"write", &both);
        assert_eq!(ran, ["E026", "E027", "E028", "P204"]);
        assert_eq!(codes(&now), "E022 E026 E027 E028");
        // Typing in the first executable statement, which E022 shows:
        // E022 runs again (its related range grows by the character).
        let (_, ran) = typed(&mut host, &mut text, "\"start", &both);
        assert_eq!(ran, ["E022"]);
        let (_, ran) = typed(&mut host, &mut text, "\"write", &both);
        assert!(ran.is_empty(), "{ran:?}");
    }
}
