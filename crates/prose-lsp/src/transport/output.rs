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

use serde::Serialize;
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader},
    sync::{mpsc, oneshot},
};

/// Frames waiting for the writer, at most.
const QUEUE: usize = 64;

enum Out {
    Frame(Vec<u8>),
    /// Answered once every frame queued before it is written.
    Flush(oneshot::Sender<()>),
}

/// Where the server sends the frames it serialises itself.
#[derive(Clone)]
pub struct Outbox(mpsc::Sender<Out>);

impl Outbox {
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
        let _ = self.0.send(Out::Frame(frame(&body))).await;
    }

    /// Waits until every frame sent so far is written (or `timeout`).
    pub async fn flush(&self, timeout: std::time::Duration) {
        let (tx, rx) = oneshot::channel();
        if self.0.send(Out::Flush(tx)).await.is_ok() {
            let _ = tokio::time::timeout(timeout, rx).await;
        }
    }
}

/// `body` with its header.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// Starts the writer on `out`; returns the stream tower-lsp-server writes
/// to and the outbox.
pub fn writer<W: AsyncWrite + Unpin + Send + 'static>(out: W) -> (tokio::io::DuplexStream, Outbox) {
    let (theirs, ours) = tokio::io::duplex(256 * 1024);
    let (tx, rx) = mpsc::channel(QUEUE);
    tokio::spawn(relay(ours, tx.clone()));
    tokio::spawn(write(rx, out));
    (theirs, Outbox(tx))
}

/// Reads tower-lsp-server's frames (well formed: it wrote them) and queues
/// them whole.
async fn relay<R: AsyncRead + Unpin>(input: R, queue: mpsc::Sender<Out>) {
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
        if queue.send(Out::Frame(frame(&body))).await.is_err() {
            return;
        }
    }
}

async fn write<W: AsyncWrite + Unpin>(mut queue: mpsc::Receiver<Out>, mut out: W) {
    while let Some(item) = queue.recv().await {
        match item {
            Out::Frame(bytes) => {
                if out.write_all(&bytes).await.is_err() || out.flush().await.is_err() {
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
}
