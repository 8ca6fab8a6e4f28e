//! A guard in front of tower-lsp-server's reader: framing that survives
//! any byte stream.
//!
//! tower-lsp-server reads frames with a tokio-util `FramedRead` that ends
//! the stream after any body it cannot decode, allocates whatever
//! `Content-Length` says, and, once a header and its body disagree, never
//! finds the start of a message again. This pump reads stdin itself and
//! hands tower-lsp-server only well-framed, decodable messages
//! ([`message::sanitize`] turns the others into requests answered with an
//! error). How it reads:
//!
//! - **A header block** is found by its `Content-Length` (or
//!   `Content-Type`) line; bytes before it that are not whitespace are
//!   skipped, and each run of them is logged once on stderr.
//! - **A `Content-Length` over [`MAX_CONTENT_LENGTH`]** (64 MiB) is refused
//!   with a log line: nothing is allocated or waited for, and the body that
//!   follows is skipped as it arrives, up to the next header.
//! - **A `Content-Length` that disagrees with its body** is repaired when
//!   the body is a JSON value: one too long (the body read took the start
//!   of the next header) gives the value, and the rest is read again as the
//!   start of the next frame; one too short (a client that counted
//!   characters, not UTF-8 bytes) extends the body to the next header; one
//!   too long while the client waits for an answer gives the value after a
//!   short pause ([`PAUSE`]). Each repair is logged once. A body that is no
//!   JSON value at all is answered with a parse error, and reading goes on
//!   at the next header.
//!
//! The pump also tells [`run_stdio`](crate::run_stdio) when the `exit`
//! notification went through, and when stdin ended: tower-lsp-server stops
//! reading after `exit` (or at the end of its input) but still waits for
//! every running handler, and one waiting for the client's answer to a
//! request of ours (`workspace/configuration`, `client/registerCapability`)
//! would wait forever, so the process would never end.

pub mod input;
mod message;
pub mod output;

use std::{sync::Arc, time::Duration};

use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWriteExt, DuplexStream},
    sync::Notify,
};

pub use message::{INVALID_MESSAGE, invalid_message, is_exit, sanitize};

/// The largest body accepted (a document of 64 MiB is far beyond what the
/// server analyses anyway: see `workspace::MAX_FILE_SIZE`).
pub const MAX_CONTENT_LENGTH: usize = 64 * 1024 * 1024;

/// A header block longer than this is garbage.
const MAX_HEADER_BLOCK: usize = 8 * 1024;

/// How long an incomplete body may wait for more bytes before a complete
/// JSON value read so far is taken as the whole body (a `Content-Length`
/// too long, from a client now waiting for the answer).
pub const PAUSE: Duration = Duration::from_millis(250);

/// How much is read from the input at a time.
const CHUNK: usize = 64 * 1024;

/// What the pump tells the server loop.
#[derive(Debug, Default)]
pub struct Signals {
    /// Notified once the `exit` notification has been passed on.
    pub exit_seen: Notify,
    /// Notified once the input has ended.
    pub eof: Notify,
}

/// Starts the pump from `input`; returns the stream to serve from.
pub fn guard<R: AsyncRead + Unpin + Send + 'static>(
    input: R,
    signals: Arc<Signals>,
) -> DuplexStream {
    let (reader, writer) = tokio::io::duplex(256 * 1024);
    tokio::spawn(pump(input, writer, signals));
    reader
}

async fn pump<R: AsyncRead + Unpin>(input: R, mut out: DuplexStream, signals: Arc<Signals>) {
    let mut frames = Frames::new(input);
    while let Some(body) = frames.next().await {
        let body = sanitize(body);
        let exit = is_exit(&body);
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if out.write_all(header.as_bytes()).await.is_err() || out.write_all(&body).await.is_err() {
            break;
        }
        if exit {
            signals.exit_seen.notify_one();
        }
    }
    signals.eof.notify_one();
    let _ = out.shutdown().await;
}

/// Where a header block ends and what it says.
#[derive(Debug, PartialEq, Eq)]
enum Header {
    /// Not all of it has arrived yet.
    Incomplete,
    /// A block of `len` bytes (up to and including its blank line) with
    /// this `Content-Length` (`None`: missing or not a number).
    Block { len: usize, length: Option<u64> },
}

/// Reads the header block at the start of `buf`.
fn parse_header(buf: &[u8]) -> Header {
    let mut length = None;
    let mut at = 0;
    loop {
        let Some(nl) = buf[at..].iter().position(|&b| b == b'\n') else {
            return Header::Incomplete;
        };
        let line = &buf[at..at + nl];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        at += nl + 1;
        if line.is_empty() {
            return Header::Block { len: at, length };
        }
        if let Some(colon) = line.iter().position(|&b| b == b':')
            && line[..colon]
                .trim_ascii()
                .eq_ignore_ascii_case(b"content-length")
        {
            length = std::str::from_utf8(&line[colon + 1..])
                .ok()
                .and_then(|v| v.trim().parse().ok());
        }
    }
}

/// Where the next header block starts in `buf` (a `Content-Length:` or
/// `Content-Type:` line, in any case).
fn find_header(buf: &[u8]) -> Option<usize> {
    const NAMES: [&[u8]; 2] = [b"content-length", b"content-type"];
    buf.windows(12).enumerate().find_map(|(i, w)| {
        (w.eq_ignore_ascii_case(b"content-leng") || w.eq_ignore_ascii_case(b"content-type"))
            .then_some(i)
            .filter(|&i| {
                NAMES.iter().any(|name| {
                    buf.len() < i + name.len() || buf[i..i + name.len()].eq_ignore_ascii_case(name)
                })
            })
    })
}

/// How a body's bytes read as JSON.
#[derive(Debug, PartialEq, Eq)]
enum Json {
    /// One complete value ending at this offset (whitespace may follow).
    Value(usize),
    /// A value that has not ended yet.
    Incomplete,
    /// Not JSON.
    Invalid,
}

fn read_json(bytes: &[u8]) -> Json {
    let mut values =
        serde_json::Deserializer::from_slice(bytes).into_iter::<serde::de::IgnoredAny>();
    match values.next() {
        Some(Ok(_)) => Json::Value(values.byte_offset()),
        Some(Err(e)) if e.is_eof() => Json::Incomplete,
        Some(Err(_)) => Json::Invalid,
        None if bytes.trim_ascii().is_empty() => Json::Incomplete,
        None => Json::Invalid,
    }
}

/// The frames of an input, repaired where they can be (see the module
/// documentation).
struct Frames<R> {
    input: R,
    buf: Vec<u8>,
    /// `buf[..start]` has been consumed.
    start: usize,
    eof: bool,
}

/// What waiting for input gave.
enum Fill {
    More,
    Paused,
    Eof,
}

impl<R: AsyncRead + Unpin> Frames<R> {
    fn new(input: R) -> Self {
        Frames {
            input,
            buf: Vec::new(),
            start: 0,
            eof: false,
        }
    }

    fn pending(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// Reads more input; with `pause`, gives up waiting after it.
    async fn fill(&mut self, pause: Option<Duration>) -> Fill {
        if self.eof {
            return Fill::Eof;
        }
        if self.start > 0 && self.start >= self.buf.len() / 2 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        let len = self.buf.len();
        self.buf.resize(len + CHUNK, 0);
        let read = self.input.read(&mut self.buf[len..]);
        let read = match pause {
            Some(pause) => match tokio::time::timeout(pause, read).await {
                Ok(read) => read,
                Err(_) => {
                    self.buf.truncate(len);
                    return Fill::Paused;
                }
            },
            None => read.await,
        };
        match read {
            Ok(n) if n > 0 => {
                self.buf.truncate(len + n);
                Fill::More
            }
            _ => {
                self.buf.truncate(len);
                self.eof = true;
                Fill::Eof
            }
        }
    }

    /// Drops `n` pending bytes that are no message; logs them unless they
    /// are only whitespace.
    fn skip(&mut self, n: usize, why: &str) {
        let skipped = &self.buf[self.start..self.start + n];
        if !skipped.trim_ascii().is_empty() {
            eprintln!("prose-lsp: skipped {n} bytes that are not a message ({why})");
        }
        self.start += n;
    }

    /// The next body; `None` at the end of the input.
    async fn next(&mut self) -> Option<Vec<u8>> {
        loop {
            let length = self.header().await?;
            if length > MAX_CONTENT_LENGTH as u64 {
                eprintln!(
                    "prose-lsp: refused a message of {length} bytes: over the limit of {} MiB",
                    MAX_CONTENT_LENGTH >> 20
                );
                continue;
            }
            if let Some(body) = self.body(length as usize).await {
                return Some(body);
            }
        }
    }

    /// Finds and reads the next header block with a `Content-Length`;
    /// returns that length. `None` at the end of the input.
    async fn header(&mut self) -> Option<u64> {
        loop {
            match find_header(self.pending()) {
                Some(at) => {
                    if at > 0 {
                        self.skip(at, "no header before them");
                    }
                    match parse_header(self.pending()) {
                        Header::Block { len, length } => {
                            self.start += len;
                            match length {
                                Some(length) => return Some(length),
                                None => eprintln!(
                                    "prose-lsp: skipped a header without a valid Content-Length"
                                ),
                            }
                            continue;
                        }
                        Header::Incomplete if self.pending().len() > MAX_HEADER_BLOCK => {
                            // Step over this header name, look further.
                            self.skip(1, "a header block without an end");
                            continue;
                        }
                        Header::Incomplete => {}
                    }
                }
                None => {
                    // Keep a tail that may be the start of a header name.
                    let keep = self.pending().len().min(13);
                    let junk = self.pending().len() - keep;
                    if junk > 0 {
                        self.skip(junk, "no header before them");
                    }
                }
            }
            if let Fill::Eof = self.fill(None).await {
                let rest = self.pending().len();
                self.skip(rest, "at the end of the input");
                return None;
            }
        }
    }

    /// Reads a body of `length` bytes, repaired when its length is wrong;
    /// `None` when it vanished (the input ended).
    async fn body(&mut self, length: usize) -> Option<Vec<u8>> {
        // Room for the whole body at once (growing by doubling would
        // take up to twice its size).
        let missing = length.saturating_sub(self.pending().len());
        self.buf.reserve_exact(missing + CHUNK);
        loop {
            let pending = self.pending();
            if pending.len() >= length {
                return Some(self.take_body(length).await);
            }
            // Incomplete: wait, but not forever if what came is a whole
            // value already (a `Content-Length` too long). That is checked
            // only when the input pauses (or ends): parsing a large body
            // again at each chunk would be quadratic.
            let pause = (!pending.is_empty()).then_some(PAUSE);
            let fill = self.fill(pause).await;
            let whole = || {
                let pending = self.pending();
                !pending.is_empty()
                    && matches!(read_json(pending), Json::Value(end) if pending[end..].trim_ascii().is_empty())
            };
            match fill {
                Fill::More => {}
                Fill::Paused | Fill::Eof if whole() => {
                    let n = self.pending().len();
                    eprintln!(
                        "prose-lsp: a message said Content-Length: {length} but its body has {n} bytes; read as {n}"
                    );
                    return Some(self.consume(n));
                }
                Fill::Paused => {}
                Fill::Eof => {
                    let n = self.pending().len();
                    self.skip(n, "a message cut short by the end of the input");
                    return None;
                }
            }
        }
    }

    fn consume(&mut self, n: usize) -> Vec<u8> {
        if self.start + n == self.buf.len() {
            // The whole rest (the usual case for a large body): no copy,
            // and the buffer starts afresh, small.
            let mut body = std::mem::take(&mut self.buf);
            body.drain(..self.start);
            self.start = 0;
            return body;
        }
        let body = self.buf[self.start..self.start + n].to_vec();
        self.start += n;
        body
    }

    /// The body of a frame whose `length` bytes have all arrived.
    async fn take_body(&mut self, length: usize) -> Vec<u8> {
        let body = &self.pending()[..length];
        match read_json(body) {
            Json::Value(end) if body[end..].trim_ascii().is_empty() => self.consume(length),
            Json::Value(end) => {
                // Too long: the rest is the start of the next frame.
                eprintln!(
                    "prose-lsp: a message said Content-Length: {length} but its body has {end} bytes; read as {end}"
                );
                self.consume(end)
            }
            Json::Incomplete => {
                // Too short: the body goes on up to the next header.
                loop {
                    let pending = self.pending();
                    let end = find_header(&pending[length..]).map(|at| length + at);
                    let candidate = &pending[..end.unwrap_or(pending.len())];
                    if let Json::Value(n) = read_json(candidate) {
                        // What follows the value up to the next header
                        // (garbage after the broken frame) is skipped by
                        // the next header search.
                        eprintln!(
                            "prose-lsp: a message said Content-Length: {length} but its body has {n} bytes; read as {n}"
                        );
                        return self.consume(n);
                    }
                    if end.is_some() || !matches!(self.fill(Some(PAUSE)).await, Fill::More) {
                        break;
                    }
                }
                // Not JSON after all: answered with a parse error.
                self.consume(length)
            }
            Json::Invalid => self.consume(length),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
    }

    /// The bodies the pump makes of `input` (read at once).
    fn bodies(input: &'static [u8]) -> Vec<String> {
        runtime().block_on(async {
            let mut frames = Frames::new(input);
            let mut out = Vec::new();
            while let Some(body) = frames.next().await {
                out.push(String::from_utf8_lossy(&body).into_owned());
            }
            out
        })
    }

    #[test]
    fn reads_frames_and_skips_garbage() {
        let got = bodies(
            b"garbage line\r\n\r\nContent-Length: 5\r\n\r\n{oopsContent-Length: 40\r\ncontent-type: x\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}",
        );
        assert_eq!(
            got,
            ["{oops", r#"{"jsonrpc":"2.0","method":"initialized"}"#]
        );
        // Headers in any case and order, `\n` line ends, a header without a length.
        let got = bodies(
            b"Content-Type: x\nCONTENT-LENGTH:  2 \n\n{}X-Other: 1\r\n\r\ncontent-length: 2\r\n\r\n[]",
        );
        assert_eq!(got, ["{}", "[]"]);
    }

    #[test]
    fn repairs_lengths_that_disagree_with_their_bodies() {
        // One byte too long: the body took the `C` of the next header.
        let got = bodies(
            b"Content-Length: 44\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"foo/bar\"}Content-Length: 2\r\n\r\n{}",
        );
        assert_eq!(
            got,
            [r#"{"jsonrpc":"2.0","id":9,"method":"foo/bar"}"#, "{}"]
        );
        // Too short: characters counted instead of bytes (`é` is two).
        let got = bodies(
            "Content-Length: 12\r\n\r\n{\"text\":\"é\"}Content-Length: 2\r\n\r\n{}".as_bytes(),
        );
        assert_eq!(got, ["{\"text\":\"é\"}", "{}"]);
        // Too long at the end of the input.
        let got = bodies(b"Content-Length: 99\r\n\r\n{\"a\":1}");
        assert_eq!(got, [r#"{"a":1}"#]);
        // Too short, and not JSON even with the rest: the declared body
        // (answered with a parse error), then the next message.
        let got = bodies(b"Content-Length: 3\r\n\r\n{\"a\" x}Content-Length: 2\r\n\r\n{}");
        assert_eq!(got, ["{\"a", "{}"]);
        // Too short, then garbage before the next header: the value, the
        // garbage skipped.
        let got = bodies(
            b"Content-Length: 6\r\n\r\n{\"a\":1}}garbage\r\n\r\nContent-Length: 2\r\n\r\n{}",
        );
        assert_eq!(got, [r#"{"a":1}"#, "{}"]);
    }

    #[test]
    fn refuses_lengths_over_the_limit() {
        let got = bodies(
            b"Content-Length: 1000000000000000\r\n\r\n{\"x\":1}\r\nContent-Length: 18446744073709551615\r\n\r\nContent-Length: 99999999999999999999999\r\n\r\nContent-Length: 2\r\n\r\n{}",
        );
        assert_eq!(got, ["{}"]);
    }

    #[test]
    fn waits_for_a_slow_body_and_gives_a_whole_value_after_a_pause() {
        let rt = runtime();
        rt.block_on(async {
            let (mut client, server) = tokio::io::duplex(1024);
            let mut frames = Frames::new(server);
            // A body in two parts: nothing is given before all of it came.
            client
                .write_all(b"Content-Length: 13\r\n\r\n{\"a\":")
                .await
                .unwrap();
            {
                let next = frames.next();
                tokio::pin!(next);
                assert!(
                    tokio::time::timeout(PAUSE * 3, &mut next).await.is_err(),
                    "an incomplete value is waited for"
                );
                client.write_all(b"\"12345\"}").await.unwrap();
                assert_eq!(next.await.unwrap(), br#"{"a":"12345"}"#);
            }
            // Too long, and the client waits for the answer: the value
            // comes after the pause.
            client
                .write_all(b"Content-Length: 10\r\n\r\n{\"b\":1}")
                .await
                .unwrap();
            assert_eq!(frames.next().await.unwrap(), br#"{"b":1}"#);
            // The next frame reads as usual.
            client
                .write_all(b"Content-Length: 2\r\n\r\n[]")
                .await
                .unwrap();
            assert_eq!(frames.next().await.unwrap(), b"[]");
            drop(client);
            assert_eq!(frames.next().await, None);
        });
    }

    #[test]
    fn the_pump_reframes_and_signals() {
        let rt = runtime();
        rt.block_on(async {
            let input: &[u8] =
                b"Content-Length: 33\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}";
            let signals = Arc::new(Signals::default());
            let mut out = guard(input, signals.clone());
            let mut all = Vec::new();
            out.read_to_end(&mut all).await.unwrap();
            assert_eq!(
                all,
                b"Content-Length: 33\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"
            );
            // The permits are stored: these return at once.
            signals.exit_seen.notified().await;
            signals.eof.notified().await;
        });
    }
}
