//! The thread that owns the analysis database.
//!
//! A salsa write (a new text, a setting) waits until every analysis
//! snapshot taken before it has noticed the cancellation and been dropped.
//! Done in a handler, that wait would hold up the serve loop and the state
//! lock, so a long analysis of one document would stall every edit and
//! request. Instead one thread owns the [`AnalysisHost`] and runs, in
//! order, the jobs it is sent: writes, and reads that take snapshots.
//!
//! Handlers send their jobs while holding the state lock (sending never
//! blocks), so the jobs reach the thread in the order the changes reached
//! the state; a request that asks for a snapshot gets one that holds every
//! change that came before it, and none that came after. Nothing waits for
//! this thread while holding the state lock, and no snapshot is held while
//! waiting for it (a write waiting for that snapshot would wait forever).
//!
//! A job that panics is logged; the thread goes on with the next.

use std::{
    panic::AssertUnwindSafe,
    sync::mpsc::{self, Sender},
};

use prose_ide::{Analysis, AnalysisHost, FileId};

use crate::server::panic_message;

type Job = Box<dyn FnOnce(&mut AnalysisHost) + Send>;

/// A handle on the analysis thread; the thread ends when the last handle
/// is dropped.
#[derive(Clone)]
pub struct Analyzer {
    jobs: Sender<Job>,
}

impl Default for Analyzer {
    fn default() -> Self {
        Self::new(AnalysisHost::new())
    }
}

/// A snapshot and the files of some paths in it.
pub struct Snapshot {
    pub analysis: Analysis,
    /// The file of each path asked for (`None`: the host does not know it).
    pub files: Vec<Option<FileId>>,
}

/// The analysis thread went away (it does not, unless the process ends).
#[derive(Debug)]
pub struct Gone;

impl Analyzer {
    /// Starts the thread with `host`.
    pub fn new(mut host: AnalysisHost) -> Analyzer {
        let (jobs, queue) = mpsc::channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("prose-analysis".into())
            .spawn(move || {
                while let Ok(job) = queue.recv() {
                    if let Err(panic) =
                        std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut host)))
                    {
                        eprintln!(
                            "prose-lsp: an analysis update failed: {}",
                            panic_message(&*panic)
                        );
                    }
                }
            });
        if let Err(e) = spawned {
            eprintln!("prose-lsp: cannot start the analysis thread: {e}");
        }
        Analyzer { jobs }
    }

    /// Queues a change of the analysis inputs.
    pub fn write(&self, f: impl FnOnce(&mut AnalysisHost) + Send + 'static) {
        let _ = self.jobs.send(Box::new(f));
    }

    /// Queues a read; its answer arrives on the receiver once every job
    /// queued before it has run.
    pub fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&AnalysisHost) -> T + Send + 'static,
    ) -> tokio::sync::oneshot::Receiver<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let _ = self.jobs.send(Box::new(move |host: &mut AnalysisHost| {
            // A receiver dropped meanwhile (a cancelled request) drops the
            // answer here.
            let _ = tx.send(f(host));
        }));
        rx
    }

    /// Queues a snapshot, with the files of `paths` in it.
    pub fn snapshot(&self, paths: Vec<String>) -> tokio::sync::oneshot::Receiver<Snapshot> {
        self.read(move |host| Snapshot {
            analysis: host.analysis(),
            files: paths.iter().map(|p| host.file_id(p)).collect(),
        })
    }

    /// [`Self::read`], waiting for the answer on this thread (tests, and
    /// code that is not async; never in a handler).
    pub fn read_blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&AnalysisHost) -> T + Send + 'static,
    ) -> Result<T, Gone> {
        let (tx, rx) = mpsc::channel();
        let _ = self.jobs.send(Box::new(move |host: &mut AnalysisHost| {
            let _ = tx.send(f(host));
        }));
        rx.recv().map_err(|_| Gone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_run_in_order_and_survive_a_panic() {
        let analyzer = Analyzer::default();
        analyzer.write(|host| {
            host.set_file_text("/w/a.prose", "session \"a\"\n");
        });
        analyzer.write(|_| panic!("boom"));
        analyzer.write(|host| {
            host.set_file_text("/w/a.prose", "session \"b\"\n");
        });
        let text = analyzer
            .read_blocking(|host| host.analysis().file_text_at("/w/a.prose").unwrap())
            .unwrap();
        assert_eq!(text.as_deref(), Some("session \"b\"\n"));
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let snapshot = rt
            .block_on(analyzer.snapshot(vec!["/w/a.prose".into(), "/w/none".into()]))
            .unwrap();
        assert!(snapshot.files[0].is_some());
        assert_eq!(snapshot.files[1], None);
    }

    /// A write waits for the snapshots taken before it, on the analysis
    /// thread: the handlers (and the state lock) do not.
    #[test]
    fn a_write_waits_on_the_analysis_thread_not_on_the_caller() {
        let analyzer = Analyzer::default();
        analyzer.write(|host| {
            host.set_file_text("/w/a.prose", "session \"a\"\n");
        });
        let (held, file) = analyzer
            .read_blocking(|host| (host.analysis(), host.file_id("/w/a.prose").unwrap()))
            .unwrap();
        // Returns at once although `held` blocks the write.
        analyzer.write(|host| {
            host.set_file_text("/w/a.prose", "session \"b\"\n");
        });
        let (tx, rx) = mpsc::channel();
        let a2 = analyzer.clone();
        std::thread::spawn(move || {
            let text = a2.read_blocking(|host| host.analysis().file_text_at("/w/a.prose").unwrap());
            let _ = tx.send(text.unwrap());
        });
        // The read waits behind the write, which waits for `held`: the
        // snapshot is cancelled (once the write has started), then dropped.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while held.diagnostics(file) != Err(prose_ide::Cancelled) {
            assert!(std::time::Instant::now() < deadline, "never cancelled");
            assert!(rx.try_recv().is_err(), "the read ran before the write");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(rx.try_recv().is_err(), "the read ran before the write");
        drop(held);
        let text = rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
        assert_eq!(text.as_deref(), Some("session \"b\"\n"));
    }
}
