//! The edited document's last push, reused by its next push: a diagnostic
//! that did not change is neither converted nor serialised again.
//!
//! An edit changes the diagnostics around it; the others are the same
//! findings, moved by the edit's length when they lie after it. The cache
//! keeps the last list of one document: its text, each diagnostic's
//! analysis ranges, its LSP value and its JSON. The next list is compared
//! with it through the two texts: their common prefix and suffix of bytes
//! ([`Change`]) tell which offsets convert to the same LSP position as
//! before (those before the first changed byte), and which to the old
//! position moved by the lines the edit added or removed (those on a line
//! that starts after the last changed byte). A diagnostic of the common
//! prefix or suffix of the two lists whose code, severity, message, tags
//! and notes are the same and whose every range is one of those (equal, or
//! moved by the edit's length) has its LSP value taken from the cache, its
//! lines moved, and its JSON copied when no line moved; the rest are
//! converted and serialised as before. When no kept diagnostic's lines
//! move (typing within a line; or no diagnostic after the edit), the
//! cached list is changed in place: the JSON and the entries between the
//! kept ones are replaced, and nothing else is copied or moved but the
//! bytes after them. The output is what converting and serialising the
//! whole list gives (tests check it over the corpora, for every kind of
//! edit and line break).
//!
//! A diagnostic with a note in another file is converted each time: that
//! file's text may have changed without this one's.
//!
//! The comparison of the two texts may be made ahead, by a thread with
//! time to spare while the analysis runs ([`Ahead`]): the language
//! server's fork, once its part of the rules is done.
//!
//! One document only: the edited one (the push worker keeps the cache and
//! gives it to the runs of the documents an edit touched), so the memory
//! it takes is that of one document's diagnostics and text, not of every
//! open one.

use std::{
    ops::Range,
    sync::{Arc, OnceLock},
};

use ls_types::{Diagnostic, NumberOrString, Uri};
use prose_ide::{TextRange, TextSize};
use prose_syntax::reparse::Edit;

use crate::convert::{self, Encoding, LineText};

/// The document a list belongs to, and what its conversion depends on.
pub struct Doc<'a> {
    pub uri: &'a Uri,
    /// The document's analysis key (related notes name it so).
    pub path: &'a str,
    pub text: &'a Arc<LineText>,
    pub encoding: Encoding,
    pub docs_url: Option<&'a str>,
}

/// What a cached list was converted for: a change of any of these starts
/// the cache over.
#[derive(Debug, PartialEq)]
struct Key {
    uri: Uri,
    path: String,
    encoding: Encoding,
    docs_url: Option<String>,
}

/// One diagnostic of the cached list.
#[derive(Debug)]
struct Entry {
    lsp: Diagnostic,
    /// Where its JSON lies in the cached bytes.
    json: Range<usize>,
    /// Its range and its notes' ranges in the analysis's offsets; `None`
    /// when a note is in another file (never reused). Most diagnostics
    /// have a note or none: no allocation of their own.
    ranges: Option<(TextRange, Notes)>,
}

/// The last serialised list of one document.
///
/// The list's JSON goes to the client without a copy, and comes back here
/// once it is written ([`JsonCache::keep_list`]); until then, or if it
/// never comes back, the next list is converted and serialised whole.
#[derive(Debug, Default)]
pub struct JsonCache {
    key: Option<Key>,
    text: Option<Arc<LineText>>,
    entries: Vec<Entry>,
    json: Vec<u8>,
}

/// How the document's text changed since the cached list, as far as LSP
/// positions go.
#[derive(Debug, Clone, Copy)]
struct Change {
    /// Offsets below this convert to the same position in both texts.
    before: u64,
    /// Offsets at or after this in the new text convert to the old
    /// position of the offset less `delta`, `lines` lines further on.
    after: Option<u32>,
    delta: i64,
    lines: i64,
}

/// How a range of the new list corresponds to one of the cached list.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Moved {
    /// The same offsets and the same position.
    Same,
    /// Offsets moved by the edit's length, lines by the lines it added.
    Shifted,
}

/// How the cached list's text and a document's new text compare, made
/// ahead of the list ([`JsonCache::ahead`], [`Ahead::compare`]) by a
/// thread with time to spare, for the thread that serialises it.
#[derive(Debug)]
pub struct Ahead {
    uri: Uri,
    old: Arc<LineText>,
    new: Arc<LineText>,
    change: OnceLock<Change>,
}

impl Ahead {
    /// Compares the two texts (once).
    pub fn compare(&self) {
        self.change
            .get_or_init(|| Change::between(&self.old, &self.new));
    }

    /// The comparison of `old` with `new`, if it was made ahead for them.
    fn for_texts(&self, uri: &Uri, old: &Arc<LineText>, new: &Arc<LineText>) -> Option<Change> {
        let same = &self.uri == uri && Arc::ptr_eq(&self.old, old) && Arc::ptr_eq(&self.new, new);
        same.then(|| self.change.get().copied()).flatten()
    }
}

/// The diagnostics of a new list that cached ones stand for: the first
/// `prefix` and the last `suffix`, each with whether its ranges moved by
/// the edit's length.
#[derive(Debug, Default)]
struct Kept {
    prefix: usize,
    suffix: usize,
    /// The prefix's in order, then the suffix's from the last.
    shifted: Vec<bool>,
}

impl Kept {
    /// Whether the lines of a kept diagnostic move with `change`.
    fn lines_move(&self, change: &Change) -> bool {
        change.lines != 0 && self.shifted.iter().any(|&s| s)
    }

    /// The cached diagnostic (of `m`) that stands for `raw[i]` (of `n`),
    /// and whether its ranges moved.
    fn of(&self, i: usize, n: usize, m: usize) -> Option<(usize, bool)> {
        if i < self.prefix {
            Some((i, self.shifted[i]))
        } else if i >= n - self.suffix {
            let from_end = n - 1 - i;
            Some((m - 1 - from_end, self.shifted[self.prefix + from_end]))
        } else {
            None
        }
    }
}

impl Change {
    /// Compares the cached text `old` with `new`.
    fn between(old: &LineText, new: &LineText) -> Change {
        let (a, b) = (old.text().as_bytes(), new.text().as_bytes());
        if a == b {
            return Change {
                before: u64::MAX,
                after: None,
                delta: 0,
                lines: 0,
            };
        }
        // The bytes before the edit's start, and those after its end, are
        // the same in both texts.
        let edit = Edit::between(old.text(), new.text());
        let prefix = usize::from(edit.delete.start());
        let delta = b.len() as i64 - a.len() as i64;
        // The first line of the new text that starts at or after the end
        // of the changed bytes, and at the same place in the old text (the
        // same bytes from there on, so that it is a line start, and every
        // later offset has the same column, in both). The first line start
        // after that end always is: the break before it (its last byte,
        // and the byte after it, which decides a lone `\r`) is in the
        // common suffix.
        let changed_end = (prefix + edit.insert.len()) as u32;
        let in_both = |(line, start): (u32, u32)| {
            let old_start = u32::try_from(i64::from(start) - delta).ok()?;
            let old_line = old.line_starting_at(old_start)?;
            Some((start, i64::from(line) - i64::from(old_line)))
        };
        let after = new
            .first_line_from(changed_end)
            .and_then(in_both)
            .or_else(|| new.first_line_from(changed_end + 1).and_then(in_both));
        Change {
            before: prefix as u64,
            after: after.map(|(start, _)| start),
            delta,
            lines: after.map_or(0, |(_, lines)| lines),
        }
    }

    /// How `new` (a range of the new text) corresponds to `old` (one of
    /// the cached text), if it converts to the old one's position or to
    /// that position moved by whole lines.
    fn moved(&self, new: TextRange, old: TextRange) -> Option<Moved> {
        if u64::from(u32::from(new.end())) < self.before && new == old {
            return Some(Moved::Same);
        }
        let after = self.after?;
        let shifted = |at: TextSize| i64::from(u32::from(at)) - self.delta;
        (u32::from(new.start()) >= after
            && shifted(new.start()) == i64::from(u32::from(old.start()))
            && shifted(new.end()) == i64::from(u32::from(old.end())))
        .then_some(Moved::Shifted)
    }
}

/// The ranges of a diagnostic's notes.
type Notes = smallvec::SmallVec<[TextRange; 2]>;

/// The ranges of `d` if its notes are all in the document `path`.
fn ranges_of(d: &prose_ide::Diagnostic, path: &str) -> Option<(TextRange, Notes)> {
    d.related
        .iter()
        .all(|r| r.path == path)
        .then(|| (d.range, d.related.iter().map(|r| r.range).collect()))
}

/// Whether the cached `old` says what `new` says, but for its ranges.
fn same_findings(new: &prose_ide::Diagnostic, old: &Diagnostic) -> bool {
    let code = matches!(&old.code, Some(NumberOrString::String(c)) if c == new.code.as_str());
    let tags = old.tags.as_deref().unwrap_or_default();
    let related = old.related_information.as_deref().unwrap_or_default();
    code && old.message == new.message
        && old.severity == Some(convert::severity(new.severity))
        && tags.len() == new.tags.len()
        && tags
            .iter()
            .zip(&new.tags)
            .all(|(t, &n)| *t == convert::tag(n))
        && related.len() == new.related.len()
        && related
            .iter()
            .zip(&new.related)
            .all(|(o, n)| o.message == n.message)
}

impl JsonCache {
    /// What another thread may compute ahead of the next list of the
    /// document `uri`, whose text is now `new`: the comparison of its
    /// texts, if this cache holds a list of that document.
    pub fn ahead(&self, uri: &Uri, new: &Arc<LineText>) -> Option<Arc<Ahead>> {
        let key = self.key.as_ref().filter(|k| &k.uri == uri)?;
        Some(Arc::new(Ahead {
            uri: key.uri.clone(),
            old: self.text.clone()?,
            new: new.clone(),
            change: OnceLock::new(),
        }))
    }

    /// The JSON array of the LSP diagnostics of `raw` (the analysis's
    /// list for `doc`), as converting each with `convert` and serialising
    /// the list with `serde_json` writes it; kept for the document's next
    /// list. The comparison of the texts is taken from `ahead` when it was
    /// made there for them.
    pub fn serialise(
        &mut self,
        doc: &Doc<'_>,
        raw: &[prose_ide::Diagnostic],
        ahead: Option<&Ahead>,
        convert: impl FnMut(&prose_ide::Diagnostic) -> Diagnostic,
    ) -> Vec<u8> {
        let key = Key {
            uri: doc.uri.clone(),
            path: doc.path.to_string(),
            encoding: doc.encoding,
            docs_url: doc.docs_url.map(str::to_string),
        };
        if self.key.as_ref() != Some(&key) {
            *self = JsonCache {
                key: Some(key),
                ..JsonCache::default()
            };
        }
        let change = self.text.replace(doc.text.clone()).map(|old| {
            ahead
                .and_then(|a| a.for_texts(doc.uri, &old, doc.text))
                .unwrap_or_else(|| Change::between(&old, doc.text))
        });
        // The entries stand for the list last serialised only while its
        // JSON is here: the array's bytes end after the last entry's.
        let json_end = self.entries.last().map_or(1, |e| e.json.end) + 1;
        if self.json.len() != json_end {
            self.entries.clear();
        }
        let kept = match change {
            Some(change) => self.kept(doc, raw, &change),
            None => Kept::default(),
        };
        match change {
            // No kept diagnostic's lines move (typing within a line, or
            // the diagnostics after the edit's lines the same): the cached
            // list changes in place between the kept ones.
            Some(change) if !kept.lines_move(&change) && kept.prefix + kept.suffix > 0 => {
                self.splice(doc, raw, &kept, convert)
            }
            _ => self.rebuild(doc, raw, change, &kept, convert),
        }
    }

    /// The diagnostics of `raw` that cached ones stand for: those of the
    /// common prefix, then of the common suffix, of the two lists.
    fn kept(&self, doc: &Doc<'_>, raw: &[prose_ide::Diagnostic], change: &Change) -> Kept {
        let old = &self.entries;
        // Whether `old[j]` can stand for `raw[i]`, and whether its ranges
        // moved by the edit's length.
        let fits = |i: usize, j: usize| -> Option<bool> {
            let (new, entry) = (&raw[i], &old[j]);
            let (range, related) = entry.ranges.as_ref()?;
            if !(related.len() == new.related.len()
                && new.related.iter().all(|r| r.path == doc.path)
                && same_findings(new, &entry.lsp))
            {
                return None;
            }
            let mut shifted = change.moved(new.range, *range)? == Moved::Shifted;
            for (n, o) in new.related.iter().zip(related) {
                shifted |= change.moved(n.range, *o)? == Moved::Shifted;
            }
            Some(shifted)
        };
        let (n, m) = (raw.len(), old.len());
        let mut kept = Kept::default();
        while kept.prefix < n.min(m)
            && let Some(shifted) = fits(kept.prefix, kept.prefix)
        {
            kept.shifted.push(shifted);
            kept.prefix += 1;
        }
        let prefix = kept.prefix;
        while kept.suffix < (n - prefix).min(m - prefix)
            && let Some(shifted) = fits(n - 1 - kept.suffix, m - 1 - kept.suffix)
        {
            kept.shifted.push(shifted);
            kept.suffix += 1;
        }
        kept
    }

    /// The cached list with the diagnostics between the kept ones
    /// converted and serialised in their place (no kept one's lines
    /// move, so their JSON stays as it is).
    fn splice(
        &mut self,
        doc: &Doc<'_>,
        raw: &[prose_ide::Diagnostic],
        kept: &Kept,
        mut convert: impl FnMut(&prose_ide::Diagnostic) -> Diagnostic,
    ) -> Vec<u8> {
        let (n, m) = (raw.len(), self.entries.len());
        let (prefix, suffix) = (kept.prefix, kept.suffix);
        let mut json = std::mem::take(&mut self.json);
        // The old list's bytes between the kept diagnostics: from after
        // the prefix's last (or the `[`) to the suffix's first (or the
        // `]`), with the commas between.
        let from = match prefix {
            0 => 1,
            p => self.entries[p - 1].json.end,
        };
        let to = match suffix {
            0 => json.len() - 1,
            _ => self.entries[m - suffix].json.start,
        };
        // The new list's bytes there, written the same way.
        let mut middle = Vec::new();
        let mut entries = Vec::with_capacity(n - prefix - suffix);
        for (i, d) in raw.iter().enumerate().take(n - suffix).skip(prefix) {
            if i > 0 {
                middle.push(b',');
            }
            let start = from + middle.len();
            let lsp = convert(d);
            serialise_one(&mut middle, &lsp);
            entries.push(Entry {
                lsp,
                json: start..from + middle.len(),
                ranges: ranges_of(d, doc.path),
            });
        }
        if suffix > 0 && n - suffix > 0 {
            middle.push(b',');
        }
        let grown = middle.len() as isize - (to - from) as isize;
        json.splice(from..to, middle);
        self.entries.splice(prefix..m - suffix, entries);
        // The kept ones: their ranges moved by the edit's length, their
        // JSON after the middle moved by its change of length.
        let kept_at = (0..prefix).chain(n - suffix..n);
        let shifted = kept.shifted[..prefix]
            .iter()
            .chain(kept.shifted[prefix..].iter().rev());
        for (i, &shifted) in kept_at.zip(shifted) {
            let entry = &mut self.entries[i];
            if shifted {
                entry.ranges = ranges_of(&raw[i], doc.path);
            }
            if i >= n - suffix {
                entry.json = entry.json.start.wrapping_add_signed(grown)
                    ..entry.json.end.wrapping_add_signed(grown);
            }
        }
        json
    }

    /// The list converted and serialised into a new buffer, with the
    /// kept diagnostics' values taken from the cache (their lines moved)
    /// and their JSON copied when their lines do not move.
    fn rebuild(
        &mut self,
        doc: &Doc<'_>,
        raw: &[prose_ide::Diagnostic],
        change: Option<Change>,
        kept: &Kept,
        mut convert: impl FnMut(&prose_ide::Diagnostic) -> Diagnostic,
    ) -> Vec<u8> {
        let mut old = std::mem::take(&mut self.entries);
        let old_json = std::mem::take(&mut self.json);
        let n = raw.len();
        // Room for the last list and some more: a list that grows a little
        // is not copied to a larger buffer at its end.
        let mut out = Vec::with_capacity(old_json.len() + old_json.len() / 8 + 2);
        let mut entries = Vec::with_capacity(n);
        out.push(b'[');
        for (i, d) in raw.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let start = out.len();
            let lsp = match (kept.of(i, n, old.len()), change) {
                (Some((j, shifted)), Some(change)) => {
                    let mut lsp = std::mem::take(&mut old[j].lsp);
                    if shifted && change.lines != 0 {
                        move_lines(&change, d, &mut lsp);
                        serialise_one(&mut out, &lsp);
                    } else {
                        out.extend_from_slice(&old_json[old[j].json.clone()]);
                    }
                    lsp
                }
                _ => {
                    let lsp = convert(d);
                    serialise_one(&mut out, &lsp);
                    lsp
                }
            };
            entries.push(Entry {
                lsp,
                json: start..out.len(),
                ranges: ranges_of(d, doc.path),
            });
        }
        out.push(b']');
        self.entries = entries;
        out
    }

    /// Takes back the JSON [`JsonCache::serialise`] last returned for the
    /// document `uri` (its next list copies from it); a list of another
    /// document is dropped.
    pub fn keep_list(&mut self, uri: &Uri, list: Vec<u8>) {
        if self.key.as_ref().is_some_and(|k| &k.uri == uri) {
            self.json = list;
        }
    }
}

/// Moves the lines of the ranges of `lsp` that lie after the change
/// (those of `d`, the diagnostic it stands for, that start at or after
/// `change.after`).
fn move_lines(change: &Change, d: &prose_ide::Diagnostic, lsp: &mut Diagnostic) {
    let after = change.after.expect("lines move only after the change");
    let shift = |r: &mut ls_types::Range, raw: TextRange| {
        if u32::from(raw.start()) >= after {
            for p in [&mut r.start, &mut r.end] {
                p.line = (i64::from(p.line) + change.lines) as u32;
            }
        }
    };
    shift(&mut lsp.range, d.range);
    for (r, n) in lsp.related_information.iter_mut().flatten().zip(&d.related) {
        shift(&mut r.location.range, n.range);
    }
}

/// Appends the JSON of `d`. Writing into a `Vec` fails only for values
/// that do not serialise, and a diagnostic always does.
fn serialise_one(out: &mut Vec<u8>, d: &Diagnostic) {
    serde_json::to_writer(out, d).expect("a diagnostic serialises");
}

#[cfg(test)]
#[path = "push_cache_tests.rs"]
mod tests;
