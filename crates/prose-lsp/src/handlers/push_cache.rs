//! The JSON of each diagnostic of the edited document's last push, reused
//! by its next push for every diagnostic that did not change.
//!
//! An edit changes the diagnostics around it; those before it, and those
//! after it when the edit added or removed no line, convert to the same
//! LSP values as before. The cache keeps the last list of one document
//! (the converted diagnostics and their JSON), and serialising the next
//! list of that document copies the bytes of its common prefix and suffix
//! with the last one instead of serialising them again. Equal values give
//! equal bytes, so the output is the same as serialising the whole list
//! (a test checks it over the corpora).
//!
//! One document only: the edited one (the push worker keeps the cache and
//! gives it to the runs of the documents an edit touched), so the memory
//! it takes is that of one document's diagnostics, not of every open one.

use std::ops::Range;

use ls_types::{Diagnostic, Uri};

/// The last serialised list of one document.
#[derive(Debug, Default)]
pub struct JsonCache {
    uri: Option<Uri>,
    /// The list's diagnostics, each with where its JSON lies in `json`.
    entries: Vec<(Diagnostic, Range<usize>)>,
    json: Vec<u8>,
}

impl JsonCache {
    /// The JSON array of `diagnostics` (the document at `uri`), as
    /// `serde_json` writes it; kept for the next list of the same document.
    pub fn serialise(&mut self, uri: &Uri, diagnostics: Vec<Diagnostic>) -> Vec<u8> {
        if self.uri.as_ref() != Some(uri) {
            *self = JsonCache {
                uri: Some(uri.clone()),
                ..JsonCache::default()
            };
        }
        let old = &self.entries;
        let n = diagnostics.len();
        let same = |i: usize, j: usize| diagnostics[i] == old[j].0;
        let prefix = (0..n.min(old.len())).take_while(|&i| same(i, i)).count();
        let suffix = (1..=(n - prefix).min(old.len() - prefix))
            .take_while(|&k| same(n - k, old.len() - k))
            .count();
        // Room for the last list and some more: a list that grows a little
        // is not copied to a larger buffer at its end.
        let mut out = Vec::with_capacity(self.json.len() + self.json.len() / 8 + 2);
        let mut entries = Vec::with_capacity(n);
        out.push(b'[');
        for (i, d) in diagnostics.into_iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let start = out.len();
            let kept = if i < prefix {
                Some(i)
            } else if i >= n - suffix {
                Some(i + old.len() - n)
            } else {
                None
            };
            match kept {
                Some(j) => out.extend_from_slice(&self.json[old[j].1.clone()]),
                // Writing into a `Vec` fails only for values that do not
                // serialise, and a diagnostic always does.
                None => serde_json::to_writer(&mut out, &d).expect("a diagnostic serialises"),
            }
            entries.push((d, start..out.len()));
        }
        out.push(b']');
        self.entries = entries;
        self.json.clone_from(&out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ls_types::{Position, Range as LspRange};

    fn diag(line: u32, message: &str) -> Diagnostic {
        Diagnostic {
            range: LspRange::new(Position::new(line, 0), Position::new(line, 1)),
            message: message.into(),
            ..Default::default()
        }
    }

    /// Each list serialised through one cache, in turn, is what serde
    /// writes for it.
    fn check_sequence(uri: &Uri, lists: &[Vec<Diagnostic>], cache: &mut JsonCache) {
        for list in lists {
            let ours = cache.serialise(uri, list.clone());
            let theirs = serde_json::to_vec(list).unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                String::from_utf8(theirs).unwrap()
            );
        }
    }

    #[test]
    fn reuses_what_did_not_change_and_writes_what_serde_writes() {
        let a: Uri = "file:///w/a.prose".parse().unwrap();
        let b: Uri = "file:///w/b.prose".parse().unwrap();
        let base: Vec<Diagnostic> = (0..6).map(|i| diag(i, &format!("m{i} \"q\""))).collect();
        let mut changed = base.clone();
        changed[3].message = "changed".into();
        let mut shorter = base.clone();
        shorter.remove(2);
        let mut longer = base.clone();
        longer.insert(4, diag(4, "new"));
        let shifted: Vec<Diagnostic> = base
            .iter()
            .map(|d| Diagnostic {
                range: LspRange::new(d.range.start, Position::new(d.range.end.line + 1, 0)),
                ..d.clone()
            })
            .collect();
        let lists = [
            base.clone(),
            base.clone(),
            changed,
            base.clone(),
            shorter,
            longer,
            vec![],
            base.clone(),
            shifted,
            vec![diag(0, "m0 \"q\"")],
            base.clone(),
        ];
        let mut cache = JsonCache::default();
        check_sequence(&a, &lists, &mut cache);
        // Another document starts over.
        check_sequence(&b, &lists[2..4], &mut cache);
        check_sequence(&a, &lists, &mut cache);
    }

    /// The LSP diagnostics of `text` as the server converts them.
    fn converted(host: &mut prose_ide::AnalysisHost, text: &str) -> Vec<Diagnostic> {
        use crate::convert::{self, Encoding, LineText};
        let file = host.set_file_text("/w/a.prose", text);
        let raw = host.analysis().diagnostics(file).unwrap();
        let t = LineText::new(text.to_string());
        let uri: Uri = "file:///w/a.prose".parse().unwrap();
        let resolve = |_: &str, r| Some((uri.clone(), t.range(Encoding::Utf16, r)));
        raw.iter()
            .map(|d| convert::diagnostic(Encoding::Utf16, &t, d, None, resolve))
            .collect()
    }

    /// Typing at line starts, adding and removing lines, over the examples
    /// and the corpora: each push through the cache is what serde writes.
    #[test]
    fn the_cached_lists_of_edited_programs_are_what_serde_writes() {
        let uri: Uri = "file:///w/a.prose".parse().unwrap();
        for path in crate::test_programs() {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut host = prose_ide::AnalysisHost::new();
            let mut cache = JsonCache::default();
            let starts: Vec<usize> = std::iter::once(0)
                .chain(prose_syntax::lines::line_starts(&text))
                .filter(|&s| s < text.len())
                .collect();
            let mut lists = vec![converted(&mut host, &text)];
            for &at in starts.iter().step_by(starts.len() / 4 + 1) {
                for insert in ["#", "\n", "x"] {
                    let mut edited = text.clone();
                    edited.insert_str(at, insert);
                    lists.push(converted(&mut host, &edited));
                    lists.push(converted(&mut host, &text));
                }
            }
            check_sequence(&uri, &lists, &mut cache);
        }
    }
}
