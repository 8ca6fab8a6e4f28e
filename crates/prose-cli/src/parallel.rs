//! Work over many files on one thread per core.

use std::{
    sync::{
        OnceLock,
        atomic::{AtomicUsize, Ordering},
    },
    thread,
};

use prose_ide::{Analysis, AnalysisHost, Cancellable};

use crate::check::uncancelled;

/// The number of cores the process may use, asked once (the standard
/// library reads the affinity mask and the cgroup's quota each time).
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `f` of every item, in the items' order, on at most `threads` threads
/// (this one included), each thread with its own database snapshot.
pub fn map_on<I: Sync, T: Send>(
    threads: usize,
    host: &AnalysisHost,
    items: &[I],
    f: impl Fn(&Analysis, &I) -> Cancellable<T> + Sync,
) -> Vec<T> {
    each_on(
        threads,
        items,
        || host.analysis(),
        |analysis, item| uncancelled(f(analysis, item)),
    )
}

/// `f` of every item, in the items' order, on one thread per core (this
/// one and others); each thread first gets its own `state` (made on this
/// thread). The threads
/// take the next item as they finish one, so a few large files do not
/// leave one thread working alone. With one item, or one core, it all
/// runs on this thread.
pub fn each<I: Sync, S: Send, T: Send>(
    items: &[I],
    state: impl FnMut() -> S,
    f: impl Fn(&S, &I) -> T + Sync,
) -> Vec<T> {
    each_on(cores(), items, state, f)
}

/// [`each`] on at most `threads` threads (this one included).
pub fn each_on<I: Sync, S: Send, T: Send>(
    threads: usize,
    items: &[I],
    mut state: impl FnMut() -> S,
    f: impl Fn(&S, &I) -> T + Sync,
) -> Vec<T> {
    let threads = threads.min(items.len());
    if threads <= 1 {
        let state = state();
        return items.iter().map(|i| f(&state, i)).collect();
    }
    let next = AtomicUsize::new(0);
    let work = |state: S| {
        let mut out = Vec::new();
        loop {
            let n = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(n) else { break };
            out.push((n, f(&state, item)));
        }
        out
    };
    let mut done: Vec<Option<T>> = Vec::new();
    done.resize_with(items.len(), || None);
    thread::scope(|scope| {
        // This thread is one of them: a thread fewer to start, and its
        // allocator pages serve again.
        let workers: Vec<_> = (1..threads)
            .map(|_| {
                let state = state();
                let work = &work;
                scope.spawn(move || work(state))
            })
            .collect();
        let mine = work(state());
        let theirs = workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker thread panicked"));
        for (n, t) in mine.into_iter().chain(theirs) {
            done[n] = Some(t);
        }
    });
    done.into_iter()
        .map(|t| t.expect("every item was taken by a thread"))
        .collect()
}
