//! The writer behind tower-lsp-server's: one thread writes stdout, whole
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
//! A thread outside the runtime that has a frame ready (the push of a
//! program's diagnostics) writes it itself when nothing is queued before
//! it ([`Outbox::write_or_send`]), instead of waking the writer for it:
//! the output is shared, under a lock, by the writer and such threads.
//!
//! Large **results** take the same shortcut ([`Outbox::stash`]): a
//! handler serialises its result here and answers tower-lsp-server with a
//! small placeholder that carries a key; the relay puts the serialised
//! result in place of the placeholder's, under the request's id.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use serde::Serialize;
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader},
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
    queue: Queue,
    stash: Stash,
}

/// The writer's queue, and the output it writes to.
#[derive(Clone)]
struct Queue {
    tx: mpsc::Sender<Out>,
    output: Arc<Output>,
}

/// The output, which the writer and the threads that write a frame
/// themselves ([`Outbox::write_or_send`]) take in turn.
struct Output {
    /// `None` once a write failed (the client is gone).
    out: Mutex<Option<Box<dyn std::io::Write + Send>>>,
    /// Frames queued and not yet written (counted before they are sent):
    /// a frame is written at once only when there are none, so frames
    /// leave in the order they were given.
    queued: AtomicUsize,
}

impl Output {
    fn new(out: Box<dyn std::io::Write + Send>) -> Arc<Output> {
        Arc::new(Output {
            out: Mutex::new(Some(out)),
            queued: AtomicUsize::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Box<dyn std::io::Write + Send>>> {
        self.out.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Queue {
    async fn send(&self, item: Out) -> bool {
        self.output.queued.fetch_add(1, Ordering::SeqCst);
        let sent = self.tx.send(item).await.is_ok();
        if !sent {
            self.output.queued.fetch_sub(1, Ordering::SeqCst);
        }
        sent
    }

    /// [`Queue::send`] from outside the runtime (tests; the server's
    /// blocking threads go through [`Outbox::write_or_send`]).
    #[cfg(test)]
    fn blocking_send(&self, item: Out) -> bool {
        self.output.queued.fetch_add(1, Ordering::SeqCst);
        self.blocking_send_counted(item)
    }

    /// Queues `item`, already counted in `queued` (uncounted again if the
    /// output thread is gone).
    fn blocking_send_counted(&self, item: Out) -> bool {
        let sent = self.tx.blocking_send(item).is_ok();
        if !sent {
            self.output.queued.fetch_sub(1, Ordering::SeqCst);
        }
        sent
    }
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
        self.queue.send(Out::Body(vec![body])).await;
    }

    /// Sends a message serialised by the caller, in parts written one
    /// after the other (see `handlers/push_json.rs`).
    pub async fn send_body(&self, parts: Vec<Vec<u8>>) {
        self.queue.send(Out::Body(parts)).await;
    }

    /// [`Self::send_body`] from a thread outside the runtime (a blocking
    /// one): written here at once when no frame is queued before it (the
    /// writer would have to be woken for it: a tenth of a millisecond on
    /// the way to the client, docs/performance/peer-2026-11-30.md), else
    /// queued, waiting here for room in the queue. The parts come back
    /// when they were written here (nothing copied them), `None` when
    /// they were queued; `before_queueing` sees them before they are.
    pub fn write_or_send(
        &self,
        parts: Vec<Vec<u8>>,
        before_queueing: impl FnOnce(&[Vec<u8>]),
    ) -> Option<Vec<Vec<u8>>> {
        let output = &self.queue.output;
        let mut out = output.lock();
        if output.queued.load(Ordering::SeqCst) > 0 {
            // Counted under the lock: a frame given after this one is
            // queued too, not written before it.
            output.queued.fetch_add(1, Ordering::SeqCst);
            drop(out);
            before_queueing(&parts);
            self.queue.blocking_send_counted(Out::Body(parts));
            return None;
        }
        if let Some(w) = out.as_mut()
            && write_frame(w, &parts).is_err()
        {
            *out = None;
        }
        Some(parts)
    }

    /// Waits until every frame sent so far is written (or `timeout`).
    pub async fn flush(&self, timeout: std::time::Duration) {
        let (tx, rx) = oneshot::channel();
        if self.queue.send(Out::Flush(tx)).await {
            let _ = tokio::time::timeout(timeout, rx).await;
        }
    }
}

/// Starts the writer on `out` (on a thread of its own); returns the
/// stream tower-lsp-server writes to and the outbox.
pub fn writer<W: std::io::Write + Send + 'static>(out: W) -> (tokio::io::DuplexStream, Outbox) {
    let (theirs, ours) = tokio::io::duplex(256 * 1024);
    let (tx, rx) = mpsc::channel(QUEUE);
    let queue = Queue {
        tx,
        output: Output::new(Box::new(out)),
    };
    let stash = Stash::default();
    tokio::spawn(relay(ours, queue.clone(), stash.clone()));
    let output = Arc::clone(&queue.output);
    let started = std::thread::Builder::new()
        .name("prose-lsp-out".into())
        .spawn(move || write(rx, &output));
    if let Err(e) = started {
        // Without a writer nothing reaches the client: the queue is
        // dropped, and the server stops at its first message.
        eprintln!("prose-lsp: cannot start the output thread: {e}");
    }
    (theirs, Outbox { queue, stash })
}

/// The process's standard output as a file (a duplicate of its descriptor),
/// written without the line buffering of `std::io::Stdout`, which looks for
/// a line break through every frame; `Stdout` itself if the descriptor
/// cannot be duplicated. A pipe is widened first ([`widen_pipe`]).
pub fn stdout() -> Box<dyn std::io::Write + Send> {
    use std::os::fd::AsFd;
    match std::io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => {
            widen_pipe(&fd);
            Box::new(std::fs::File::from(fd))
        }
        Err(_) => Box::new(std::io::stdout()),
    }
}

/// What [`widen_pipe`] asks for: Linux's default ceiling for a process
/// without privileges (`/proc/sys/fs/pipe-max-size`).
pub const PIPE_SIZE: usize = 1 << 20;

/// Asks Linux to let the pipe behind `fd` hold [`PIPE_SIZE`] bytes instead
/// of its default 64 KiB; nothing when `fd` is not a pipe, elsewhere than
/// Linux, or when the system refuses (a lower ceiling, a user's pipes
/// over their limit: the pipe keeps its size).
///
/// The diagnostics of a long program are hundreds of kilobytes (210 KB for
/// the 585 of the benchmarks' generated program). Through a 64 KiB pipe the
/// writer fills it, sleeps until the editor has read it, wakes, writes the
/// next part: four hand-offs between the two processes for one
/// publication. With room for the whole frame it is written in one go and
/// read in one or two (the kernel takes a pipe's pages as they are
/// written, so a pipe that holds little costs little). See
/// docs/performance/peer-2026-11-30.md, "A wider pipe, and the database
/// trimmed between keystrokes".
pub fn widen_pipe(fd: &impl std::os::fd::AsFd) {
    #[cfg(target_os = "linux")]
    {
        // `c_int` on every Linux target; the size fits.
        let _ = nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_SETPIPE_SZ(PIPE_SIZE as i32));
    }
    #[cfg(not(target_os = "linux"))]
    let _ = fd;
}

/// Reads tower-lsp-server's frames (well formed: it wrote them) and queues
/// them whole.
async fn relay<R: AsyncRead + Unpin>(input: R, queue: Queue, stash: Stash) {
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
        if !queue.send(Out::Body(parts)).await {
            return;
        }
    }
}

/// Writes the queued frames to `output`, until the queue closes or the
/// output fails. It runs on a thread of its own: a frame goes from the
/// task that queued it to the output with one hand-off. (tokio's stdout
/// took two, to a thread of the blocking pool and back, for every write,
/// and copied each frame once more; the diagnostics of a long program
/// arrived 6-9% later, docs/performance/peer-2026-11-29.md.)
fn write(mut queue: mpsc::Receiver<Out>, output: &Output) {
    while let Some(item) = queue.blocking_recv() {
        let mut out = output.lock();
        let written = match (item, out.as_mut()) {
            (Out::Body(parts), Some(w)) => write_frame(w, &parts).is_ok(),
            (Out::Body(_), None) => false,
            (Out::Flush(done), _) => {
                // Any frame written by another thread was written whole
                // before this one took the lock.
                let _ = done.send(());
                true
            }
        };
        if !written {
            *out = None;
        }
        output.queued.fetch_sub(1, Ordering::SeqCst);
        if !written {
            return;
        }
    }
}

/// Writes a frame whole, in one vectored write where the output takes it
/// (its parts are not copied together).
fn write_frame(out: &mut dyn std::io::Write, parts: &[Vec<u8>]) -> std::io::Result<()> {
    let length: usize = parts.iter().map(Vec::len).sum();
    let header = format!("Content-Length: {length}\r\n\r\n");
    let mut slices: Vec<std::io::IoSlice<'_>> = std::iter::once(header.as_bytes())
        .chain(parts.iter().map(Vec::as_slice))
        .map(std::io::IoSlice::new)
        .collect();
    write_all_vectored(out, &mut slices)?;
    out.flush()
}

/// Writes every byte of `slices`, in order, in as few writes as `out`
/// takes.
fn write_all_vectored<W: std::io::Write + ?Sized>(
    out: &mut W,
    mut slices: &mut [std::io::IoSlice<'_>],
) -> std::io::Result<()> {
    std::io::IoSlice::advance_slices(&mut slices, 0);
    while !slices.is_empty() {
        match out.write_vectored(slices) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => std::io::IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pipe is widened to the size asked for, or to the system's
    /// ceiling if that is lower; a descriptor that is not a pipe is left
    /// alone (no error, no panic).
    #[test]
    #[cfg(target_os = "linux")]
    fn a_pipe_is_widened_and_a_file_left_alone() {
        use nix::fcntl::{FcntlArg, fcntl};
        let (read, write) = std::io::pipe().unwrap();
        let before = fcntl(&read, FcntlArg::F_GETPIPE_SZ).unwrap() as usize;
        assert_eq!(before, 64 * 1024);
        widen_pipe(&write);
        let ceiling: usize = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(PIPE_SIZE);
        let after = fcntl(&read, FcntlArg::F_GETPIPE_SZ).unwrap() as usize;
        if ceiling >= PIPE_SIZE {
            assert_eq!(after, PIPE_SIZE);
        } else {
            // Refused without privileges, granted with them.
            assert!(after == before || after == PIPE_SIZE, "{after}");
        }
        let file = tempfile::tempfile().unwrap();
        widen_pipe(&file);
    }

    /// An output that records each write it is given (all of a vectored
    /// write's slices, or at most `limit` bytes of them).
    #[derive(Clone, Default)]
    struct Recorder {
        writes: Arc<Mutex<Vec<Vec<u8>>>>,
        limit: Option<usize>,
    }

    impl std::io::Write for Recorder {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.write_vectored(&[std::io::IoSlice::new(buf)])
        }
        fn write_vectored(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
            let taken: Vec<u8> = bufs
                .iter()
                .flat_map(|b| b.iter().copied())
                .take(self.limit.unwrap_or(usize::MAX))
                .collect();
            let n = taken.len();
            self.writes.lock().unwrap().push(taken);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writes_both_sources_whole_frames() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let out = Recorder::default();
        rt.block_on(async {
            use tokio::io::AsyncWriteExt;
            let (mut theirs, outbox) = writer(out.clone());
            theirs
                .write_all(b"Content-Length: 2\r\n\r\n{}")
                .await
                .unwrap();
            // Written once the relay has queued it.
            while out.writes.lock().unwrap().is_empty() {
                tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            }
            outbox.notify("x/y", &serde_json::json!({ "a": 1 })).await;
            outbox.flush(std::time::Duration::from_secs(30)).await;
        });
        let text = String::from_utf8(out.writes.lock().unwrap().concat()).unwrap();
        let note = r#"{"jsonrpc":"2.0","method":"x/y","params":{"a":1}}"#;
        assert_eq!(
            text,
            format!(
                "Content-Length: 2\r\n\r\n{{}}Content-Length: {}\r\n\r\n{note}",
                note.len()
            )
        );
    }

    /// A frame in parts (a large result) leaves whole and in order, in one
    /// write when the output takes it all, else in as many as it needs.
    #[test]
    fn a_frame_in_parts_is_one_vectored_write() {
        let size = 200 * 1024;
        let header = format!("Content-Length: {}\r\n\r\n", size + 2);
        let whole = [header.as_bytes(), b"[", &vec![b'7'; size], b"]"].concat();
        for limit in [None, Some(4096), Some(7)] {
            let out = Recorder {
                limit,
                ..Recorder::default()
            };
            let (tx, rx) = mpsc::channel(QUEUE);
            let queue = Queue {
                tx,
                output: Output::new(Box::new(out.clone())),
            };
            let parts = vec![b"[".to_vec(), vec![b'7'; size], b"]".to_vec()];
            assert!(queue.blocking_send(Out::Body(parts)));
            let output = Arc::clone(&queue.output);
            drop(queue);
            write(rx, &output);
            assert_eq!(output.queued.load(Ordering::SeqCst), 0);
            let writes = out.writes.lock().unwrap();
            assert_eq!(writes.concat(), whole);
            match limit {
                None => assert_eq!(writes.len(), 1),
                Some(n) => assert_eq!(writes.len(), whole.len().div_ceil(n)),
            }
        }
    }

    /// A frame given by a thread outside the runtime is written there and
    /// then when nothing is queued (its parts come back), else queued
    /// after what is (the caller sees its parts first), and the frames
    /// leave in the order they were given.
    #[test]
    fn a_frame_is_written_at_once_when_nothing_is_queued() {
        let out = Recorder::default();
        let (tx, rx) = mpsc::channel(QUEUE);
        let queue = Queue {
            tx,
            output: Output::new(Box::new(out.clone())),
        };
        let outbox = Outbox {
            queue,
            stash: Stash::default(),
        };
        let frame = |s: &str| vec![s.as_bytes().to_vec()];
        let mut seen = Vec::new();
        let back = outbox.write_or_send(frame("[1]"), |p| seen.push(p.concat()));
        assert_eq!(back, Some(frame("[1]")));
        assert_eq!(
            out.writes.lock().unwrap().concat(),
            b"Content-Length: 3\r\n\r\n[1]"
        );
        // The writer is not running: a frame sent stays queued, and the
        // next one given here goes after it.
        assert!(outbox.queue.blocking_send(Out::Body(frame("[2]"))));
        let back = outbox.write_or_send(frame("[3]"), |p| seen.push(p.concat()));
        assert_eq!(back, None);
        assert_eq!(seen, [b"[3]".to_vec()]);
        assert_eq!(out.writes.lock().unwrap().len(), 1);
        let output = Arc::clone(&outbox.queue.output);
        drop(outbox);
        write(rx, &output);
        let text = String::from_utf8(out.writes.lock().unwrap().concat()).unwrap();
        let framed = |b: &str| format!("Content-Length: {}\r\n\r\n{b}", b.len());
        assert_eq!(text, [framed("[1]"), framed("[2]"), framed("[3]")].concat());
        assert_eq!(output.queued.load(Ordering::SeqCst), 0);
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
