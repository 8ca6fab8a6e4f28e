//! The writer behind tower-lsp-server's: one task writes stdout, whole
//! frames at a time, from two sources:
//!
//! - tower-lsp-server's own frames (responses, its client requests and
//!   notifications), read from the stream it is given instead of stdout;
//! - frames the server serialises itself ([`Outbox`]): notifications whose
//!   params are large. tower-lsp-server turns every notification's params
//!   into a `serde_json::Value` tree before writing it, and the diagnostics
//!   of a large program (ten thousand of them) make a tree of tens of
//!   megabytes; the outbox writes the same JSON straight into the frame.
//!
//! The channel between them is bounded, so a client that stops reading
//! holds the server back rather than letting frames pile up in memory.
//!
//! Large **results** take the same shortcut ([`Outbox::stash`]): a
//! handler serialises its result here and answers tower-lsp-server with a
//! small placeholder that carries a key; the relay puts the serialised
//! result in place of the placeholder's, under the request's id.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use serde::Serialize;
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader},
    sync::{mpsc, oneshot},
};

/// Frames waiting for the writer, at most.
const QUEUE: usize = 64;

enum Out {
    /// A message body in parts (written one after the other, after the
    /// header): a large result is never copied into a frame.
    Body(Vec<Vec<u8>>),
    /// Answered once every frame queued before it is written.
    Flush(oneshot::Sender<()>),
}

/// Where the server sends the frames it serialises itself.
#[derive(Clone)]
pub struct Outbox {
    queue: mpsc::Sender<Out>,
    stash: Stash,
}

/// Results serialised by their handlers, by key, until the relay sees
/// their placeholders.
#[derive(Clone, Default)]
struct Stash(Arc<Mutex<StashInner>>);

#[derive(Default)]
struct StashInner {
    /// Keys are this process's random hashes of a counter: text that only
    /// looks like a placeholder (a hover on a document that mentions one)
    /// cannot name a result waiting here.
    keys: std::collections::hash_map::RandomState,
    next: u64,
    /// Key, when it was stashed, the result's JSON.
    entries: Vec<(u64, Instant, Vec<u8>)>,
}

/// How a placeholder's key starts (in a string of the placeholder result).
pub const STASH_KEY: &str = "prose-stash-";

/// A result whose placeholder never came (its request was cancelled after
/// the handler stashed it) is dropped after this long.
const STASH_TTL: Duration = Duration::from_secs(60);

impl Stash {
    fn put(&self, json: Vec<u8>) -> u64 {
        let mut inner = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        inner
            .entries
            .retain(|(_, at, _)| now.duration_since(*at) < STASH_TTL);
        inner.next += 1;
        let key = std::hash::BuildHasher::hash_one(&inner.keys, inner.next);
        inner.entries.push((key, now, json));
        key
    }

    fn take(&self, key: u64) -> Option<Vec<u8>> {
        let mut inner = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let i = inner.entries.iter().position(|(k, _, _)| *k == key)?;
        Some(inner.entries.swap_remove(i).2)
    }

    /// The body that answers in place of a placeholder `body`, if it is
    /// one: its id, the stashed result.
    fn replace(&self, body: &[u8]) -> Option<Vec<Vec<u8>>> {
        // Placeholders are small; the results that need no stash are not
        // searched through.
        if body.len() > 1024 {
            return None;
        }
        let text = std::str::from_utf8(body).ok()?;
        let at = text.find(STASH_KEY)? + STASH_KEY.len();
        let digits = text[at..].bytes().take_while(u8::is_ascii_digit).count();
        let key: u64 = text[at..at + digits].parse().ok()?;
        let message: serde_json::Value = serde_json::from_str(text).ok()?;
        let id = serde_json::to_vec(message.get("id")?).ok()?;
        message.get("result")?;
        let result = self.take(key)?;
        let mut head = b"{\"jsonrpc\":\"2.0\",\"id\":".to_vec();
        head.extend_from_slice(&id);
        head.extend_from_slice(b",\"result\":");
        Some(vec![head, result, b"}".to_vec()])
    }
}

impl Outbox {
    /// Serialises `result` now (straight to JSON text, no `Value` tree)
    /// and returns the key the handler's placeholder answer carries in one
    /// of its strings (`STASH_KEY` and the number); the writer answers the
    /// request with this result instead of the placeholder's. `None` when
    /// `result` does not serialise.
    pub fn stash<R: Serialize>(&self, result: &R) -> Option<String> {
        let json = serde_json::to_vec(result).ok()?;
        let key = self.stash.put(json);
        Some(format!("{STASH_KEY}{key}"))
    }

    /// Sends a notification `method` with `params`, serialised here.
    pub async fn notify<P: Serialize>(&self, method: &str, params: &P) {
        #[derive(Serialize)]
        struct Notification<'a, P> {
            jsonrpc: &'static str,
            method: &'a str,
            params: &'a P,
        }
        let message = Notification {
            jsonrpc: "2.0",
            method,
            params,
        };
        let Ok(body) = serde_json::to_vec(&message) else {
            return;
        };
        let _ = self.queue.send(Out::Body(vec![body])).await;
    }

    /// Sends a message serialised by the caller, in parts written one
    /// after the other (see `handlers/push_json.rs`).
    pub async fn send_body(&self, parts: Vec<Vec<u8>>) {
        let _ = self.queue.send(Out::Body(parts)).await;
    }

    /// Waits until every frame sent so far is written (or `timeout`).
    pub async fn flush(&self, timeout: std::time::Duration) {
        let (tx, rx) = oneshot::channel();
        if self.queue.send(Out::Flush(tx)).await.is_ok() {
            let _ = tokio::time::timeout(timeout, rx).await;
        }
    }
}

/// Starts the writer on `out`; returns the stream tower-lsp-server writes
/// to and the outbox.
pub fn writer<W: AsyncWrite + Unpin + Send + 'static>(out: W) -> (tokio::io::DuplexStream, Outbox) {
    let (theirs, ours) = tokio::io::duplex(256 * 1024);
    let (tx, rx) = mpsc::channel(QUEUE);
    let stash = Stash::default();
    tokio::spawn(relay(ours, tx.clone(), stash.clone()));
    tokio::spawn(write(rx, out));
    (theirs, Outbox { queue: tx, stash })
}

/// Reads tower-lsp-server's frames (well formed: it wrote them) and queues
/// them whole.
async fn relay<R: AsyncRead + Unpin>(input: R, queue: mpsc::Sender<Out>, stash: Stash) {
    let mut input = BufReader::new(input);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            match input.read_line(&mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = line.trim();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let Some(length) = length else { continue };
        let mut body = vec![0; length];
        if input.read_exact(&mut body).await.is_err() {
            return;
        }
        let parts = stash.replace(&body).unwrap_or_else(|| vec![body]);
        if queue.send(Out::Body(parts)).await.is_err() {
            return;
        }
    }
}

/// A frame up to this size is written in one piece (its parts copied
/// together); a larger one part by part, so that a result of many
/// megabytes is not held twice.
const ONE_WRITE: usize = 1024 * 1024;

async fn write<W: AsyncWrite + Unpin>(mut queue: mpsc::Receiver<Out>, out: W) {
    // A frame leaves in one write where it can: each write to tokio's
    // stdout is a trip to a blocking thread and back, and the diagnostics
    // of a long program (a header and three parts, 200 KB) took four.
    let mut out = tokio::io::BufWriter::with_capacity(64 * 1024, out);
    while let Some(item) = queue.recv().await {
        match item {
            Out::Body(mut parts) => {
                let length: usize = parts.iter().map(Vec::len).sum();
                let header = format!("Content-Length: {length}\r\n\r\n");
                if parts.len() > 1 && length <= ONE_WRITE {
                    let mut whole = Vec::with_capacity(header.len() + length);
                    whole.extend_from_slice(header.as_bytes());
                    parts.iter().for_each(|p| whole.extend_from_slice(p));
                    parts = vec![whole];
                } else {
                    parts.insert(0, header.into_bytes());
                }
                let mut written = Ok(());
                for p in &parts {
                    if written.is_ok() {
                        written = out.write_all(p).await;
                    }
                }
                if written.is_err() || out.flush().await.is_err() {
                    return;
                }
            }
            Out::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_both_sources_whole_frames() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (client, mut server_out) = tokio::io::duplex(1024);
            let (mut theirs, outbox) = writer(client);
            theirs
                .write_all(b"Content-Length: 2\r\n\r\n{}")
                .await
                .unwrap();
            outbox.notify("x/y", &serde_json::json!({ "a": 1 })).await;
            outbox.flush(std::time::Duration::from_secs(30)).await;
            drop(theirs);
            drop(outbox);
            let mut all = Vec::new();
            server_out.read_to_end(&mut all).await.unwrap();
            let text = String::from_utf8(all).unwrap();
            assert!(text.contains("Content-Length: 2\r\n\r\n{}"), "{text}");
            let note = r#"{"jsonrpc":"2.0","method":"x/y","params":{"a":1}}"#;
            assert!(
                text.contains(&format!("Content-Length: {}\r\n\r\n{note}", note.len())),
                "{text}"
            );
        });
    }

    /// An output that records the size of each write it is given.
    struct Recorder(Arc<Mutex<Vec<Vec<u8>>>>);

    impl AsyncWrite for Recorder {
        fn poll_write(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &[u8],
        ) -> std::task::Poll<std::io::Result<usize>> {
            self.0.lock().unwrap().push(buf.to_vec());
            std::task::Poll::Ready(Ok(buf.len()))
        }
        fn poll_flush(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
        fn poll_shutdown(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    /// A frame in parts (a large result) leaves in one write up to
    /// [`ONE_WRITE`] bytes, and part by part beyond: whole and in order
    /// either way.
    #[test]
    fn a_frame_in_parts_is_one_write_unless_it_is_very_large() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for size in [200 * 1024, 2 * ONE_WRITE] {
            let writes = Arc::new(Mutex::new(Vec::new()));
            let (tx, rx) = mpsc::channel(QUEUE);
            let parts = vec![b"[".to_vec(), vec![b'7'; size], b"]".to_vec()];
            rt.block_on(async {
                tx.send(Out::Body(parts)).await.unwrap();
                drop(tx);
                write(rx, Recorder(writes.clone())).await;
            });
            let writes = writes.lock().unwrap();
            let header = format!("Content-Length: {}\r\n\r\n", size + 2);
            let whole = [header.as_bytes(), b"[", &vec![b'7'; size], b"]"].concat();
            assert_eq!(writes.concat(), whole);
            if size <= ONE_WRITE {
                assert_eq!(writes.len(), 1);
            } else {
                assert!(writes.len() > 1);
            }
        }
    }

    #[test]
    fn a_placeholder_answer_becomes_the_stashed_result() {
        let stash = Stash::default();
        let key = stash.put(br#"{"kind":"full","items":[1,2]}"#.to_vec());
        let placeholder =
            format!(r#"{{"jsonrpc":"2.0","result":{{"resultId":"{STASH_KEY}{key}"}},"id":7}}"#);
        let out = stash.replace(placeholder.as_bytes()).expect("replaced");
        assert_eq!(
            String::from_utf8(out.concat()).unwrap(),
            r#"{"jsonrpc":"2.0","id":7,"result":{"kind":"full","items":[1,2]}}"#
        );
        // Taken once: the same placeholder again (or any other text that
        // names a key nothing was stashed under) is written as it is.
        assert_eq!(stash.replace(placeholder.as_bytes()), None);
        let hover = format!(r#"{{"jsonrpc":"2.0","result":{{"value":"{STASH_KEY}1"}},"id":8}}"#);
        assert_eq!(stash.replace(hover.as_bytes()), None);
        assert_eq!(stash.replace(b"{}"), None);
    }
}
