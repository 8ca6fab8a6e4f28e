//! The second half of name resolution: the [`StatementNames`] of every
//! top-level statement, played in text order into a [`FileSemantics`].
//!
//! The hoisted definitions of all statements come first, then each
//! statement's steps: a definition is added, a reference is looked up
//! among the definitions made so far (scoped ones were resolved by the
//! walk), and `name = value` becomes a reference or a definition depending
//! on what is bound. Definition ids and the order of definitions and
//! references are the ones a single walk over the file gives.

use std::sync::Arc;

use prose_syntax::TextSize;

use rustc_hash::FxHashMap;

use super::{
    Def, DefId, DefKind, FileSemantics, Name, Named, RefKind, RefSite, Reference,
    walk::{StatementNames, Step},
};

/// Plays the statements (each with its start) into the file's names.
pub(super) fn replay(statements: &[(TextSize, &StatementNames)]) -> FileSemantics {
    let mut r = Replay {
        out: FileSemantics::default(),
        by_name: Default::default(),
        deferred: Vec::new(),
    };
    // Room for every definition and reference (an assignment is one or
    // the other): neither list is copied to a larger one as it grows.
    let (mut defs, mut refs) = (0, 0);
    for step in statements.iter().flat_map(|(_, s)| s.steps.iter()) {
        match step {
            Step::Hoisted(_) | Step::Def(_) => defs += 1,
            Step::Ref { .. } => refs += 1,
            Step::Assign { .. } => (defs, refs) = (defs + 1, refs + 1),
        }
    }
    r.out.defs.reserve(defs);
    r.out.refs.reserve(refs);
    // And for about one name per two definitions (a program of 5,600
    // lines: 827 names of 1,649 definitions), which a file with more names
    // outgrows once or twice. Room for one name per definition and step
    // spread that program's names over a table of 4,096 entries of 122
    // bytes (500 KB, about twice its tree), which every reference reads.
    r.by_name.reserve(defs / 2);
    for (at, s) in statements {
        for step in s.steps.iter() {
            match step {
                Step::Hoisted(d) => {
                    r.push_def(d.at(*at));
                }
                _ => break,
            }
        }
    }
    let mut local: Vec<DefId> = Vec::new();
    for (at, s) in statements {
        local.clear();
        for step in s.steps.iter() {
            r.step(step, *at, &mut local);
        }
    }
    r.finish()
}

struct Replay {
    out: FileSemantics,
    /// The definitions by name, the replay's own until it is done (then
    /// shared: `FileSemantics::by_name`). Not behind the shared pointer
    /// meanwhile: making it mutable there checked the count with an
    /// atomic operation for every definition.
    by_name: FxHashMap<Name, Named>,
    /// Unresolved variable references made in code that runs later (block
    /// bodies, agent definitions), retried against every program-level
    /// binding once the whole file is known.
    deferred: Vec<usize>,
}

impl Replay {
    fn step(&mut self, step: &Step, at: TextSize, local: &mut Vec<DefId>) {
        match step {
            Step::Hoisted(_) => {}
            Step::Def(d) => local.push(self.push_def(d.at(at))),
            Step::Ref {
                name,
                range,
                kind,
                scoped,
                in_hoisted,
                in_block_def,
            } => {
                let range = *range + at;
                let target = match kind {
                    RefKind::Agent => self.first_named(name, DefKind::Agent),
                    RefKind::Block => self.first_named(name, DefKind::Block),
                    RefKind::Program => self.first_named(name, DefKind::Program),
                    RefKind::Variable(_) => {
                        self.variable(name, range.start(), *scoped, *in_block_def, local)
                    }
                };
                if target.is_none() && *in_hoisted && matches!(kind, RefKind::Variable(_)) {
                    self.deferred.push(self.out.refs.len());
                }
                self.out.refs.push(Reference {
                    name: name.clone(),
                    range,
                    kind: *kind,
                    target,
                });
            }
            Step::Assign {
                name,
                at: name_at,
                stmt,
                scoped,
                in_block_def,
            } => {
                let name_at = *name_at + at;
                let bound = self.variable(name, name_at.start(), *scoped, *in_block_def, local);
                if bound.is_some() {
                    self.out.refs.push(Reference {
                        name: name.clone(),
                        range: name_at,
                        kind: RefKind::Variable(RefSite::AssignTarget),
                        target: bound,
                    });
                } else {
                    self.push_def(Def {
                        name: name.clone(),
                        kind: DefKind::Assigned,
                        name_range: name_at,
                        range: *stmt + at,
                        scope: None,
                        in_block_def: *in_block_def,
                    });
                }
            }
        }
    }

    /// What a variable named at `at` refers to: the scoped definition the
    /// walk found (its ordinal among the statement's definitions, `local`),
    /// else a binding outside every scope.
    fn variable(
        &self,
        name: &str,
        at: TextSize,
        scoped: Option<u32>,
        in_block_def: bool,
        local: &[DefId],
    ) -> Option<DefId> {
        match scoped {
            Some(o) => Some(local[o as usize]),
            None => self.lookup_variable(name, at, in_block_def),
        }
    }

    fn push_def(&mut self, def: Def) -> DefId {
        let id = DefId(self.out.defs.len() as u32);
        // One lookup, found or not: a name's copy is cheaper than hashing
        // and probing again for each name's first definition.
        let named = self.by_name.entry(def.name.clone()).or_default();
        named.push(id, def.kind);
        if def.kind.is_flat_binding() {
            let defs = &self.out.defs;
            if named
                .flat
                .last()
                .is_some_and(|last| defs[last.0 as usize].range.start() > def.range.start())
            {
                named.flat_out_of_order = true;
            }
            named.flat.push(id);
            if !def.in_block_def && named.first_program.is_none() {
                named.first_program = Some(id);
            }
        }
        self.out.defs.push(def);
        id
    }

    /// A variable bound outside every scope the reference is in: the last
    /// program binding before `at` (by where its range starts; of those
    /// starting at the same offset, the last defined), else an input, else
    /// (in a block body, which runs where it is called) any program
    /// binding.
    fn lookup_variable(&self, name: &str, at: TextSize, in_block_def: bool) -> Option<DefId> {
        let named = self.by_name.get(name)?;
        let start = |id: &DefId| self.out.def(*id).range.start();
        let before = if named.flat_out_of_order {
            named
                .flat
                .iter()
                .filter(|id| start(id) < at)
                .max_by_key(|id| start(id))
                .copied()
        } else {
            let below = named.flat.partition_point(|id| start(id) < at);
            below.checked_sub(1).map(|i| named.flat[i])
        };
        if before.is_some() {
            return before;
        }
        if let Some(id) = named.first(DefKind::Input) {
            return Some(id);
        }
        if in_block_def {
            // The body runs at the call site: any program binding may be in scope.
            return named.first_program;
        }
        None
    }

    /// The first definition of `kind` called `name`.
    fn first_named(&self, name: &str, kind: DefKind) -> Option<DefId> {
        self.by_name.get(name)?.first(kind)
    }

    fn finish(mut self) -> FileSemantics {
        for i in std::mem::take(&mut self.deferred) {
            let name = &self.out.refs[i].name;
            let target = self.by_name.get(name).and_then(|n| n.first_program);
            self.out.refs[i].target = target;
        }
        self.out.by_name = Arc::new(self.by_name);
        self.out
    }
}
