//! Parses that start from the file's previous parse.
//!
//! A salsa tracked function cannot see its own previous value, so the
//! `parse` query (`db.rs`) asks this side cache, which the database and its
//! snapshots share: for each file, the last text parsed and its parse. A new
//! text is compared with that one (their common prefix and suffix, a
//! `memcmp`), and the difference is handed to
//! [`prose_syntax::reparse`], which replaces only the text of a string
//! when that is all that changed, else re-parses only the top-level
//! statements the difference touches, or the whole text when that could
//! give another result.
//! Either way the result equals `prose_syntax::parse` of the text (the
//! syntax crate's tests compare them on thousands of random edits), so the
//! query stays a function of its input, as salsa requires: the cache only
//! makes it cheaper. The CLI, which parses each text once, goes through the
//! same code and simply finds nothing to start from.
//!
//! The cache holds one entry per file: its text (the input's own `Arc`,
//! not a copy) and the parse, whose tree is the one the `parse` query
//! returned. Removing a file from the host parses its emptied
//! text, which replaces the entry with an empty one. It also records how
//! the last parse of each file was made from the one before, when it was
//! made in place: the string token re-lexed ([`Relex`], for typing in a
//! prompt) or the stretch of the root's children parsed again ([`Splice`],
//! for a rule that works per name after an edit of a few statements).

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
};

use prose_syntax::{
    Parse,
    reparse::{Edit, Outcome, reparse_interruptible},
};

use crate::db::SourceFile;

/// The last parse of each file (see the module's documentation).
#[derive(Default)]
pub struct ParseCache {
    last: Mutex<HashMap<SourceFile, Previous>>,
    /// For each file whose last parse was made in place in the parse
    /// before it: how (see [`Relex`] and [`Splice`]).
    made: Mutex<HashMap<SourceFile, Made>>,
    /// How many parses were made in place in a previous tree (statements
    /// spliced in, or a string's text replaced), for tests.
    spliced: AtomicU64,
    /// Whether a long text without a previous parse is parsed on two
    /// threads (a database that analyses each text once:
    /// `prose_syntax::parse_interruptible_parallel`).
    parallel: bool,
}

/// A parse made from the one before by replacing only the text of one
/// string token: the tree is the same but for that token, and every offset
/// after it moved by the change of its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relex {
    /// The root of the parse it was made from ([`root_key`]).
    pub from: usize,
    /// The root of the parse made ([`root_key`]).
    pub to: usize,
    /// The token in the old text.
    pub old: prose_syntax::TextRange,
    /// The token in the new text.
    pub new: prose_syntax::TextRange,
}

/// A parse made from the one before by parsing again a stretch of the
/// root's children, the others kept (the same green nodes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    /// The root of the parse it was made from ([`root_key`]).
    pub from: usize,
    /// The root of the parse made ([`root_key`]).
    pub to: usize,
    /// The old root's children replaced, by index.
    pub children: std::ops::Range<usize>,
    /// Where they were in the old text.
    pub old: prose_syntax::TextRange,
    /// Where their replacements are in the new text.
    pub new: prose_syntax::TextRange,
}

/// How the last parse of a file was made in place in the one before.
#[derive(Debug, Clone)]
enum Made {
    Relexed(Relex),
    Spliced(Splice),
}

/// A parse's identity while it is alive: the address of its root's green
/// node.
pub fn root_key(parse: &Parse) -> usize {
    green_key(parse.green())
}

/// A green node's identity while it is alive: its address.
pub(crate) fn green_key(green: &prose_syntax::GreenNodeData) -> usize {
    std::ptr::from_ref(green).cast::<u8>() as usize
}

#[derive(Clone)]
struct Previous {
    /// The input's own text (shared, not copied).
    text: Arc<String>,
    parse: Parse,
}

impl ParseCache {
    /// A cache whose first parse of a long text uses two threads.
    pub(crate) fn batch() -> Self {
        ParseCache {
            parallel: true,
            ..ParseCache::default()
        }
    }

    /// The parse of `text`, the current text of `file`: from the file's
    /// previous parse when there is one, else from scratch. `interrupt` may
    /// unwind (a cancelled revision); the cache is then left as it was.
    pub fn parse(&self, file: SourceFile, text: &Arc<String>, interrupt: &dyn Fn()) -> Parse {
        let previous = self.entries().get(&file).cloned();
        let parse = match previous {
            Some(p) if p.text == *text => p.parse,
            Some(p) => {
                let edit = Edit::between(&p.text, text);
                let (parse, outcome) =
                    reparse_interruptible(&p.parse, &p.text, edit, text, interrupt);
                if let Outcome::Spliced { .. } | Outcome::Relexed { .. } = outcome {
                    self.spliced.fetch_add(1, Ordering::Relaxed);
                }
                // What the edit replaced is as long in the old text as
                // in the new one, less what the edit added.
                let grown = text.len() as i64 - p.text.len() as i64;
                let old_range = |new: prose_syntax::TextRange| {
                    let len = u32::try_from(i64::from(u32::from(new.len())) - grown).ok()?;
                    Some(prose_syntax::TextRange::at(new.start(), len.into()))
                };
                let (from, to) = (root_key(&p.parse), root_key(&parse));
                let made = match outcome {
                    Outcome::Relexed { token } => old_range(token).map(|old| {
                        Made::Relexed(Relex {
                            from,
                            to,
                            old,
                            new: token,
                        })
                    }),
                    Outcome::Spliced { children, window } => old_range(window).map(|old| {
                        Made::Spliced(Splice {
                            from,
                            to,
                            children,
                            old,
                            new: window,
                        })
                    }),
                    Outcome::Full(_) => None,
                };
                let mut made_in_place = self.made.lock().unwrap_or_else(PoisonError::into_inner);
                match made {
                    Some(m) => made_in_place.insert(file, m),
                    None => made_in_place.remove(&file),
                };
                parse
            }
            None => {
                self.made
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&file);
                if self.parallel {
                    prose_syntax::parse_interruptible_parallel(text, interrupt)
                } else {
                    prose_syntax::parse_interruptible(text, interrupt)
                }
            }
        };
        self.entries().insert(
            file,
            Previous {
                text: text.clone(),
                parse: parse.clone(),
            },
        );
        parse
    }

    /// How the parse whose root is `to` ([`root_key`]) was made from the
    /// one before, if it only replaced a string's text.
    pub fn relexed(&self, file: SourceFile, to: usize) -> Option<Relex> {
        let made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        match made.get(&file)? {
            Made::Relexed(r) if r.to == to => Some(*r),
            _ => None,
        }
    }

    /// How the parse whose root is `to` ([`root_key`]) was made from the
    /// one before, if it parsed a stretch of the root's children again.
    pub fn spliced_from(&self, file: SourceFile, to: usize) -> Option<Splice> {
        let made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        match made.get(&file)? {
            Made::Spliced(s) if s.to == to => Some(s.clone()),
            _ => None,
        }
    }

    /// How many parses so far were made in place in a previous tree.
    pub fn spliced(&self) -> u64 {
        self.spliced.load(Ordering::Relaxed)
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<SourceFile, Previous>> {
        // Nothing runs under the lock that could panic halfway.
        self.last.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use salsa::Setter;

    use crate::{
        AnalysisHost,
        db::{self, Db, RootDatabase, SourceFile},
    };

    const PROGRAM: &str = "agent writer:\n  model: sonnet\n\nsession \"Draft the plan\"\n\nlet x = session: writer\n  prompt: \"Polish {x}\"\n";

    #[test]
    fn the_parse_query_splices_an_edit_and_equals_a_full_parse() {
        let mut db = RootDatabase::default();
        let file = SourceFile::new(&db, "/ws/a.prose".into(), Arc::new(PROGRAM.into()));
        assert_eq!(db::parse(&db, file), &prose_syntax::parse(PROGRAM));
        assert_eq!(db.parse_cache().spliced(), 0);

        // Inside a prompt: the statement is re-parsed alone.
        let edited = PROGRAM.replace("Draft the", "Draft all of the");
        file.set_text(&mut db).to(Arc::new(edited.clone()));
        assert_eq!(db::parse(&db, file), &prose_syntax::parse(&edited));
        assert_eq!(db.parse_cache().spliced(), 1);

        // A new statement before the first one: from the start of the text.
        let edited = format!("input topic: \"t\"\n{edited}");
        file.set_text(&mut db).to(Arc::new(edited.clone()));
        assert_eq!(db::parse(&db, file), &prose_syntax::parse(&edited));
        assert_eq!(db.parse_cache().spliced(), 2);

        // Two edits in a row with no parse in between: the second parse
        // starts from the last one made.
        let first = edited.replace("Polish", "Polish it");
        file.set_text(&mut db).to(Arc::new(first));
        let second = edited.replace("Polish", "Polish it well");
        file.set_text(&mut db).to(Arc::new(second.clone()));
        assert_eq!(db::parse(&db, file), &prose_syntax::parse(&second));
        assert_eq!(db.parse_cache().spliced(), 3);

        // A string opened and never closed swallows the statements after
        // it: the whole text.
        let open = second.replacen("session \"Draft", "session \"\"\"Draft", 1);
        file.set_text(&mut db).to(Arc::new(open.clone()));
        assert_eq!(db::parse(&db, file), &prose_syntax::parse(&open));
        assert_eq!(db.parse_cache().spliced(), 3);
    }

    #[test]
    fn diagnostics_after_edits_are_those_of_a_fresh_analysis() {
        let edits: &[(&str, &str)] = &[
            ("Draft the plan", "Draft the plan for {topic}"),
            ("model: sonnet", "model: sonet"),
            ("Polish {x}", "Polish {y}"),
            ("\"Polish {y}\"", "\"Polish {y}"),
            ("session: writer", "session: writr"),
            ("let x", "let  x"),
        ];
        let mut host = AnalysisHost::new();
        let mut text = PROGRAM.to_string();
        let file = host.set_file_text("/ws/a.prose", text.clone());
        host.analysis().diagnostics(file).unwrap();
        for (from, to) in edits {
            text = text.replacen(from, to, 1);
            host.set_file_text("/ws/a.prose", text.clone());
            let incremental = host.analysis().diagnostics(file).unwrap();
            let mut fresh = AnalysisHost::new();
            let id = fresh.set_file_text("/ws/a.prose", text.clone());
            assert_eq!(
                incremental,
                fresh.analysis().diagnostics(id).unwrap(),
                "{text}"
            );
        }
        // Every edit was made in place (`let  x`, among the first tokens of
        // its statement, by a window that starts a statement earlier).
        assert_eq!(host.db.parse_cache().spliced(), 6);
    }

    /// Random edits of the official programs (`PROSE_CORPUS`): after each,
    /// the host's diagnostics are a fresh host's for the same text, as the
    /// CLI would report them.
    #[test]
    fn diagnostics_after_random_edits_of_the_corpus_are_those_of_a_fresh_analysis() {
        let Some(dir) = prose_test_support::corpus_dir() else {
            return;
        };
        const PIECES: &[&str] = &[
            "a",
            " ",
            "\n",
            "\"",
            "{x}",
            "session \"s\"\n",
            ":",
            "  ",
            "#",
        ];
        let mut numbers = prose_test_support::Lcg::new(0x0005_DEEC_E66D);
        let mut below = |n: usize| numbers.below(n);
        let mut host = AnalysisHost::new();
        for path in prose_test_support::prose_files(&dir) {
            let mut text = std::fs::read_to_string(&path).unwrap();
            let file = host.set_file_text("/ws/edited.prose", text.clone());
            host.analysis().diagnostics(file).unwrap();
            for _ in 0..4 {
                let mut at = below(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.insert_str(at, PIECES[below(PIECES.len())]);
                host.set_file_text("/ws/edited.prose", text.clone());
                let incremental = host.analysis().diagnostics(file).unwrap();
                let mut fresh = AnalysisHost::new();
                let id = fresh.set_file_text("/ws/edited.prose", text.clone());
                let expected = fresh.analysis().diagnostics(id).unwrap();
                assert_eq!(
                    incremental,
                    expected,
                    "{} after edits:\n{text}",
                    path.display()
                );
            }
        }
        assert!(
            host.db.parse_cache().spliced() > 0,
            "no edit was made in place"
        );
    }
}
