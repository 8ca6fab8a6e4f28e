//! A bounded random client (issue 16): real programs opened, edited at
//! random places with random text (every kind of line end, non-ASCII,
//! lone surrogates), every kind of request at random positions with
//! integer and string ids, cancellations, and hostile frames (garbage
//! between messages, bodies that are not JSON, ids outside i64, `$/`
//! requests, lengths one byte off), all through the real binary over
//! stdio. It asserts that the server stays up, answers every request
//! (never with a panic's `InternalError`), and that at the end its text of
//! every open document equals the client's.
//!
//! Seeded: `PROSE_SOAK_SEED` picks the seed (the default is fixed, so a
//! failure is reproducible), `PROSE_SOAK_STEPS` the number of steps (the
//! default keeps it well under a minute in a debug build; ask for more to
//! soak longer).

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use std::collections::BTreeMap;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri, frame};
use serde_json::{Value, json};

/// xorshift64*: small, seeded, enough for choosing.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// What random edits insert. `\u{FFFD}` goes out as the lone surrogate
/// escape `\ud83d` (the server reads it as U+FFFD).
const PIECES: &[&str] = &[
    "session",
    "agent",
    "let x = ",
    "output ",
    "input ",
    " ",
    "  ",
    "\n",
    "\r\n",
    "\r",
    "\n  ",
    ":",
    "\"",
    "\"\"\"",
    "**",
    "***",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "|",
    "->",
    "#",
    "é",
    "😀",
    "\t",
    "parallel:\n  a = session \"x\"\n",
    "if **done**:\n  ",
    "loop until **x**:\n",
    "model: opus",
    "prompt: \"hi\"",
    "context: { a }",
    "\u{FFFD}",
    "\u{FEFF}",
    "0",
    "1e300",
];

/// Programs used when no corpus is configured.
const FALLBACK: &[&str] = &[
    "agent a:\n  model: opus\n  prompt: \"You write\"\n\nlet x = session: a\n  prompt: \"Draft\"\nsession \"Review {x}\"\n",
    "input topic: \"t\"\nparallel:\n  r = session \"Research {topic}\"\n  s = session \"Summarise {topic}\"\noutput r\n",
    "# comment\r\nloop until **done** (max: 3):\r\n  session \"again\"\r\n",
];

/// An offset where an edit may start or end: a character boundary, not
/// between the `\r` and the `\n` of a `\r\n`.
fn valid_offset(text: &str, offset: usize) -> bool {
    let b = text.as_bytes();
    text.is_char_boundary(offset)
        && !(offset > 0 && b[offset - 1] == b'\r' && b.get(offset) == Some(&b'\n'))
}

fn random_offset(rng: &mut Rng, text: &str) -> usize {
    let mut offset = rng.below(text.len() + 1);
    while !valid_offset(text, offset) {
        offset -= 1;
    }
    offset
}

/// The LSP position (UTF-16 columns) of a valid offset: `\n`, `\r\n` and
/// a lone `\r` each end a line.
fn position(text: &str, offset: usize) -> Value {
    let b = text.as_bytes();
    let (mut line, mut start, mut i) = (0u32, 0usize, 0usize);
    while i < offset {
        match b[i] {
            b'\r' if b.get(i + 1) == Some(&b'\n') => i += 2,
            b'\r' | b'\n' => i += 1,
            _ => {
                i += 1;
                continue;
            }
        }
        line += 1;
        start = i;
    }
    let character = text[start..offset].encode_utf16().count();
    json!({ "line": line, "character": character })
}

struct Doc {
    text: String,
    version: i64,
}

struct Soak {
    rng: Rng,
    c: LspClient,
    sb: Sandbox,
    programs: Vec<String>,
    docs: BTreeMap<String, Doc>,
    next_doc: usize,
    /// Requests sent and not answered yet, by id.
    pending: Vec<Value>,
    next_id: u64,
    /// Requests sent in all.
    sent: usize,
    /// Requests waited for at once, and how many of them got a result.
    waited: usize,
    waited_results: usize,
    /// Answers with a result, and errors by code.
    results: usize,
    errors: BTreeMap<i64, usize>,
}

impl Soak {
    fn open_new(&mut self) {
        let text = self.rng.pick(&self.programs).clone();
        let uri = if self.rng.chance(20) {
            format!("untitled:Untitled-{}", self.next_doc)
        } else {
            file_uri(&self.sb.path().join(format!("soak{}.prose", self.next_doc)))
        };
        self.next_doc += 1;
        self.c.open(&uri, 1, &text);
        self.docs.insert(uri, Doc { text, version: 1 });
    }

    fn some_doc(&mut self) -> String {
        if self.docs.is_empty() {
            self.open_new();
        }
        let uris: Vec<&String> = self.docs.keys().collect();
        self.rng.pick(&uris).to_string()
    }

    fn edit(&mut self) {
        let uri = self.some_doc();
        let count = 1 + self.rng.below(3);
        let mut changes = Vec::new();
        let mut surrogates = false;
        for _ in 0..count {
            let doc = &self.docs[&uri];
            if doc.text.len() > 64 * 1024 || self.rng.chance(3) {
                // A whole new text.
                let text = self.rng.pick(&self.programs).clone();
                changes.push(json!({ "text": text }));
                self.docs.get_mut(&uri).unwrap().text = text;
                continue;
            }
            let a = random_offset(&mut self.rng, &doc.text);
            let mut b = (a + self.rng.below(40)).min(doc.text.len());
            while !valid_offset(&doc.text, b) {
                b -= 1;
            }
            let (start, end) = (a.min(b), a.max(b));
            let mut insert = String::new();
            for _ in 0..self.rng.below(4) {
                let piece = PIECES[self.rng.below(PIECES.len())];
                insert.push_str(piece);
            }
            surrogates |= insert.contains('\u{FFFD}');
            changes.push(json!({
                "range": { "start": position(&doc.text, start), "end": position(&doc.text, end) },
                "text": insert,
            }));
            self.docs
                .get_mut(&uri)
                .unwrap()
                .text
                .replace_range(start..end, &insert);
        }
        let doc = self.docs.get_mut(&uri).unwrap();
        doc.version += 1;
        let message = json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {
                "textDocument": { "uri": uri, "version": doc.version },
                "contentChanges": changes,
            },
        });
        let mut body = message.to_string();
        if surrogates {
            // Only inserted texts hold U+FFFD (whole texts come from the
            // programs, which have none).
            body = body.replace('\u{FFFD}', "\\ud83d");
        }
        self.c.send_raw(&frame(body.len(), &body));
    }

    /// A random request about a random place of a random document.
    fn request_params(&mut self) -> (&'static str, Value) {
        let uri = self.some_doc();
        let text = &self.docs[&uri].text;
        let (a, b) = {
            let a = random_offset(&mut self.rng, text);
            let b = random_offset(&mut self.rng, text);
            (a.min(b), a.max(b))
        };
        let mut at = position(text, a);
        if self.rng.chance(5) {
            // Past the end of the document.
            at = json!({ "line": 100_000, "character": 3 });
        }
        let range = json!({ "start": position(text, a), "end": position(text, b) });
        let doc = json!({ "uri": uri });
        let here = json!({ "textDocument": doc, "position": at });
        let methods: &[&'static str] = &[
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
            "textDocument/references",
            "textDocument/documentHighlight",
            "textDocument/signatureHelp",
            "textDocument/prepareRename",
            "textDocument/rename",
            "textDocument/selectionRange",
            "textDocument/inlayHint",
            "textDocument/codeAction",
            "textDocument/documentSymbol",
            "textDocument/foldingRange",
            "textDocument/semanticTokens/full",
            "textDocument/formatting",
            "textDocument/codeLens",
            "workspace/symbol",
        ];
        let method = *self.rng.pick(methods);
        let params = match method {
            "textDocument/references" => {
                let mut p = here;
                p["context"] = json!({ "includeDeclaration": true });
                p
            }
            "textDocument/rename" => {
                let mut p = here;
                p["newName"] = json!("renamed");
                p
            }
            "textDocument/selectionRange" => json!({
                "textDocument": doc,
                "positions": [position(text, a), position(text, b)],
            }),
            "textDocument/inlayHint" => json!({ "textDocument": doc, "range": range }),
            "textDocument/codeAction" => json!({
                "textDocument": doc, "range": range, "context": { "diagnostics": [] },
            }),
            "textDocument/documentSymbol"
            | "textDocument/foldingRange"
            | "textDocument/semanticTokens/full"
            | "textDocument/codeLens" => json!({ "textDocument": doc }),
            "textDocument/formatting" => json!({
                "textDocument": doc, "options": { "tabSize": 2, "insertSpaces": true },
            }),
            "workspace/symbol" => json!({ "query": "a" }),
            _ => here,
        };
        (method, params)
    }

    /// A fresh id: an integer, or now and then a string.
    fn fresh_id(&mut self) -> Value {
        self.next_id += 1;
        if self.rng.chance(20) {
            json!(format!("soak-{}", self.next_id))
        } else {
            json!(self.next_id)
        }
    }

    fn send_request(&mut self, id: Value, method: &str, params: Value) {
        self.c
            .send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.pending.push(id);
        self.sent += 1;
    }

    fn request(&mut self) {
        let (method, params) = self.request_params();
        let id = self.fresh_id();
        match self.rng.below(100) {
            0..20 => {
                self.send_request(id.clone(), method, params);
                self.c.notify("$/cancelRequest", json!({ "id": id }));
            }
            20..60 => {
                // Alone, and waited for before anything else is sent, as
                // an editor waits for a hover: nothing may cancel it.
                self.drain();
                self.send_request(id, method, params);
                let before = self.results;
                self.drain();
                self.waited += 1;
                self.waited_results += self.results - before;
            }
            _ => self.send_request(id, method, params),
        }
    }

    /// Something a broken or hostile client sends.
    fn hostile(&mut self) {
        match self.rng.below(6) {
            0 => self.c.send_raw(b"}}garbage\r\n\r\nX-Garbage: 1\r\n\r\n"),
            1 => self.c.send_raw(&frame(9, "not json!")),
            2 => {
                let body = r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"workspace/symbol","params":{"query":""}}"#;
                self.c.send_raw(&frame(body.len(), body));
            }
            3 => {
                let id = self.fresh_id();
                self.send_request(id, "$/someUnknownRequest", json!({}));
            }
            4 => {
                let id = self.fresh_id();
                self.send_request(id, "prose/noSuchMethod", json!({}));
            }
            _ => {
                // A request whose length is one byte off, either way.
                let id = self.fresh_id();
                let body = json!({
                    "jsonrpc": "2.0", "id": id, "method": "workspace/symbol",
                    "params": { "query": "" },
                })
                .to_string();
                let length = if self.rng.chance(50) {
                    body.len() + 1
                } else {
                    body.len() - 1
                };
                self.c.send_raw(&frame(length, &body));
                self.pending.push(id);
                self.sent += 1;
            }
        }
    }

    fn close_one(&mut self) {
        let uri = self.some_doc();
        self.docs.remove(&uri);
        self.c.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        );
    }

    /// Waits for the answer to every pending request.
    fn drain(&mut self) {
        for id in std::mem::take(&mut self.pending) {
            let r = self.c.response_where(|m| m["id"] == id);
            assert!(
                r.get("result").is_some() || r.get("error").is_some(),
                "{id}: {r}"
            );
            match r["error"]["code"].as_i64() {
                Some(code) => *self.errors.entry(code).or_default() += 1,
                None => self.results += 1,
            }
            assert_ne!(
                r["error"]["code"],
                -32603,
                "a handler failed: {r}\nstderr:\n{}",
                self.c.stderr()
            );
        }
    }
}

#[test]
fn a_random_client_leaves_the_server_up_and_in_step() {
    let seed = env_number("PROSE_SOAK_SEED", 0x5EED_0016);
    let steps = env_number("PROSE_SOAK_STEPS", 4000);
    eprintln!("soak: seed {seed}, {steps} steps (PROSE_SOAK_SEED, PROSE_SOAK_STEPS)");
    let mut programs: Vec<String> = prose_test_support::corpus_dir()
        .map(|dir| {
            prose_test_support::prose_files(&dir)
                .iter()
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .filter(|t| t.len() < 16 * 1024)
                .collect()
        })
        .unwrap_or_default();
    programs.extend(FALLBACK.iter().map(|s| s.to_string()));
    let sb = Sandbox::new("robust-soak");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), json!({}), Value::Null);
    let mut soak = Soak {
        rng: Rng(seed.max(1)),
        c,
        sb,
        programs,
        docs: BTreeMap::new(),
        next_doc: 0,
        pending: Vec::new(),
        next_id: 1_000_000,
        sent: 0,
        waited: 0,
        waited_results: 0,
        results: 0,
        errors: BTreeMap::new(),
    };
    for _ in 0..3 {
        soak.open_new();
    }
    for step in 0..steps {
        match soak.rng.below(100) {
            0..40 => soak.edit(),
            40..75 => soak.request(),
            75..85 => soak.hostile(),
            85..90 if soak.docs.len() < 6 => soak.open_new(),
            85..90 => soak.close_one(),
            _ => soak.drain(),
        }
        if step % 50 == 49 {
            soak.drain();
        }
    }
    soak.drain();
    let Soak {
        mut c,
        docs,
        sent,
        results,
        errors,
        waited,
        waited_results,
        sb: _sandbox,
        ..
    } = soak;
    eprintln!(
        "soak: {sent} requests answered ({results} with a result, errors by code: {errors:?}), {} documents open",
        docs.len()
    );
    eprintln!("soak: {waited_results} of the {waited} requests waited for at once got a result");
    // Most requests are about real places of real documents: those that
    // nothing can cancel are answered with a result, not refused.
    assert!(
        waited_results * 10 >= waited * 8,
        "{waited_results} results for {waited} requests waited for"
    );
    for (uri, doc) in &docs {
        let r = c.call(
            "prose/debug/documentText",
            json!({ "textDocument": { "uri": uri } }),
        );
        assert_eq!(r["version"], json!(doc.version), "{uri}");
        assert!(
            r["text"].as_str() == Some(doc.text.as_str()),
            "{uri}: the server's text differs from the client's\nserver: {:?}\nclient: {:?}",
            r["text"],
            doc.text
        );
    }
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
