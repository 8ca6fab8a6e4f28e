//! The server's standard input, read by a thread of its own.
//!
//! tokio's `Stdin` reads on a thread of the blocking pool, one read per
//! task: each time the reader has taken what arrived, it hands the next
//! read to a pool thread again, which on two cores competes with the runs
//! of the diagnostics that the message just read started. Here one thread
//! reads in a loop and passes what it read over a bounded channel, so a
//! client that writes faster than the server reads is held back as before.

use std::{
    io::Read,
    pin::Pin,
    task::{Context, Poll},
};

use tokio::{io::AsyncRead, sync::mpsc};

/// How much one read takes at most.
const CHUNK: usize = 64 * 1024;

/// Chunks read but not yet taken, at most.
const QUEUE: usize = 16;

/// What a reading thread passes on: bytes, or the error that stopped it.
type Chunk = std::io::Result<Vec<u8>>;

/// An async reader over what a thread reads from a blocking source.
pub struct ThreadReader {
    chunks: mpsc::Receiver<Chunk>,
    /// The chunk being taken, and how much of it was.
    current: Vec<u8>,
    taken: usize,
}

/// The process's standard input ([`ThreadReader::spawn`]).
pub fn stdin() -> ThreadReader {
    ThreadReader::spawn(std::io::stdin())
}

impl ThreadReader {
    /// Reads `source` on a new thread until its end or an error (which the
    /// reader then returns once). If the thread cannot start, the reader
    /// returns that error.
    pub fn spawn<R: Read + Send + 'static>(mut source: R) -> ThreadReader {
        let (tx, rx) = mpsc::channel::<Chunk>(QUEUE);
        let fallback = tx.clone();
        let started = std::thread::Builder::new()
            .name("prose-lsp-in".into())
            .spawn(move || {
                // One buffer for every read; each chunk is a copy of what
                // a read gave (a message is often a few hundred bytes).
                let mut buf = vec![0; CHUNK];
                loop {
                    let read = match source.read(&mut buf) {
                        Ok(0) => return,
                        Ok(n) => Ok(buf[..n].to_vec()),
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => Err(e),
                    };
                    let stop = read.is_err();
                    // The reader is gone: nobody wants the rest.
                    if tx.blocking_send(read).is_err() || stop {
                        return;
                    }
                }
            });
        if let Err(e) = started {
            let _ = fallback.try_send(Err(e));
        }
        ThreadReader {
            chunks: rx,
            current: Vec::new(),
            taken: 0,
        }
    }
}

impl AsyncRead for ThreadReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        if this.taken == this.current.len() {
            match this.chunks.poll_recv(cx) {
                Poll::Pending => return Poll::Pending,
                // The end of the input (or of the thread).
                Poll::Ready(None) => return Poll::Ready(Ok(())),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(e)),
                Poll::Ready(Some(Ok(chunk))) => {
                    this.current = chunk;
                    this.taken = 0;
                }
            }
        }
        let n = buf.remaining().min(this.current.len() - this.taken);
        buf.put_slice(&this.current[this.taken..this.taken + n]);
        this.taken += n;
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// A source that gives its bytes a few at a time, then fails or ends.
    struct Trickle {
        data: Vec<u8>,
        at: usize,
        fail_at_end: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.at == self.data.len() {
                return if self.fail_at_end {
                    Err(std::io::Error::other("gone"))
                } else {
                    Ok(0)
                };
            }
            let n = buf.len().min(3).min(self.data.len() - self.at);
            buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    }

    #[test]
    fn passes_everything_on_in_order_then_the_end() {
        let data: Vec<u8> = (0..CHUNK as u32 * 3).map(|i| (i % 251) as u8).collect();
        let mut reader = ThreadReader::spawn(std::io::Cursor::new(data.clone()));
        let mut all = Vec::new();
        runtime().block_on(reader.read_to_end(&mut all)).unwrap();
        assert_eq!(all, data);
        let mut small = ThreadReader::spawn(Trickle {
            data: b"Content-Length: 2\r\n\r\n{}".to_vec(),
            at: 0,
            fail_at_end: false,
        });
        let mut all = Vec::new();
        runtime().block_on(small.read_to_end(&mut all)).unwrap();
        assert_eq!(all, b"Content-Length: 2\r\n\r\n{}");
    }

    #[test]
    fn an_error_comes_after_what_was_read() {
        let mut reader = ThreadReader::spawn(Trickle {
            data: b"abcdefg".to_vec(),
            at: 0,
            fail_at_end: true,
        });
        let rt = runtime();
        let mut got = [0u8; 7];
        rt.block_on(reader.read_exact(&mut got)).unwrap();
        assert_eq!(&got, b"abcdefg");
        let err = rt.block_on(reader.read_u8()).unwrap_err();
        assert_eq!(err.to_string(), "gone");
    }
}
