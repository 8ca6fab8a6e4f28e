//! Diagnostics, pushed (`textDocument/publishDiagnostics`) and pulled
//! (`textDocument/diagnostic`: the request is `diagnostics_pull.rs`).
//!
//! Pushes come from one worker task ([`worker`]) that does one run at a
//! time over the newest state; changes only [`schedule`] work for it. A run
//! takes a [`Job`] (the texts and versions of its documents under the state
//! lock, and an analysis snapshot queued to the analysis thread at the same
//! moment), computes on a blocking thread, and comes back to the lock only
//! to check that nothing changed since:
//!
//! - the snapshot is moved into the blocking closure and dropped there, so
//!   no snapshot outlives the run or waits on the lock (a host write waits
//!   for every snapshot to go: holding one while locking would deadlock);
//! - `Cancelled` (a newer input arrived) ends the run silently: the change
//!   that cancelled it scheduled a newer run;
//! - results whose generation is no longer current are dropped;
//! - pushes go out under `publish_lock`, so they reach the client in
//!   generation order, and not when the document's version and list are
//!   the ones last sent (a new version is always sent, even with the same
//!   list: the editor may have moved the old markers with the edit).
//!
//! Push mode is used when the client does not pull: a client that pulls
//! gets no pushes (or it would show everything twice).
//!
//! A pull is a request: its run goes through
//! `server::blocking_cancellable`, so a pull the client cancels
//! (`$/cancelRequest`) cancels its snapshot and stops computing. Push runs
//! belong to the worker, which no client request can drop; the next edit
//! cancels them.

use std::{
    collections::{BTreeSet, HashMap, hash_map::Entry},
    panic::AssertUnwindSafe,
    path::Path,
    sync::Arc,
};

use futures::FutureExt;

use ls_types::{DiagnosticSeverity, Position, Range, Uri};
use prose_ide::{Cancellable, TextRange};
use tower_lsp_server::jsonrpc::Result;

use super::{
    push_cache::{self, JsonCache},
    push_json::{self, PushBody},
};
use crate::{
    convert::{self, LineText},
    server::{Inner, blocking, panic_message},
    state::{Job, PendingJob},
    workspace::{self, DiskText, MAX_FILE_SIZE},
};

/// The diagnostics of one document of a job.
#[derive(Debug)]
pub struct DocResult {
    pub uri: Uri,
    pub version: Option<i32>,
    pub diagnostics: Converted,
}

/// A document's diagnostics as LSP values, or (for a push) already
/// serialised through the push cache.
#[derive(Debug)]
pub enum Converted {
    Lsp(Vec<ls_types::Diagnostic>),
    /// A JSON array ([`JsonCache::serialise`]).
    Json(Vec<u8>),
}

/// How a run ended.
#[derive(Debug)]
pub enum Outcome<T = DocResult> {
    Done(Vec<T>),
    /// These external paths were never looked up on disk: load them and
    /// run again, so the first diagnostics are already right.
    NeedExternal(Vec<External>),
    /// A newer input cancelled the snapshot.
    Cancelled,
}

/// A path the analysis may depend on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum External {
    Memory(String),
    Import(String),
    /// A file a prompt reads or an instruction spawns (see
    /// `handlers/aux_files.rs`).
    Aux(String),
}

/// Runs a job (on a blocking thread): the LSP values of its diagnostics.
pub fn compute(job: Job) -> Outcome {
    compute_with(job, None)
}

/// Runs a push's job (on a blocking thread): each document's diagnostics
/// serialised through `cache`, which converts only those that changed
/// since its last list of the document (`push_cache.rs`).
pub fn compute_push(job: Job, cache: &mut JsonCache) -> Outcome {
    compute_with(job, Some(cache))
}

fn compute_with(job: Job, cache: Option<&mut JsonCache>) -> Outcome {
    #[cfg(feature = "mimalloc")]
    {
        let text: usize = job
            .docs
            .iter()
            .filter_map(|d| d.text.as_ref())
            .map(|t| t.len())
            .sum();
        prose_alloc::set_purge_delay(purge_delay(text));
    }
    compute_inner(&job, cache).unwrap_or(Outcome::Cancelled)
}

/// The most text a run may cover for the memory it frees to stay for the
/// next keystroke's run.
#[cfg(feature = "mimalloc")]
const TYPING_TEXT: usize = 1024 * 1024;

/// How long the memory freed after a run over `text` bytes of documents
/// stays with the process: through the pause between two keystrokes for
/// documents of a usual size, whose runs free and allocate again a few
/// megabytes each; briefly for larger ones, whose garbage would pile up
/// (docs/performance/language-server.md).
#[cfg(feature = "mimalloc")]
fn purge_delay(text: usize) -> std::ffi::c_long {
    if text <= TYPING_TEXT {
        prose_alloc::TYPING_DELAY_MS
    } else {
        prose_alloc::DELAY_MS
    }
}

fn compute_inner(job: &Job, cache: Option<&mut JsonCache>) -> Cancellable<Outcome> {
    // On one core, or for short documents only, this thread does it all.
    if !several_cores() || job.docs.iter().all(crate::state::DocJob::is_short) {
        return compute_on(job, false, cache, None);
    }
    // The diagnostics are started on another thread (a fork of the job's
    // snapshot) while this one computes the names, the second part of an
    // OpenProse file's rules (`prose_ide::Analysis::prepare_rules`; the
    // fork computes the first, `prepare_first_part`), and the files the
    // programs need (which the fork computes first when the rules run in
    // two parts), then puts the diagnostics together. Each thread finds
    // done what the other did (the names, the first part, the files), or
    // waits for it. On a program of 5,600 lines this thread's part is the
    // longer. When files must be loaded first, the fork is cancelled with
    // the job's snapshot (they share its token), and what this thread
    // computed before it knew is computed again with the files.
    let fork = job.analysis.fork();
    let files: Vec<_> = job.docs.iter().filter_map(|d| d.file).collect();
    // The fork, done with its part first on a long program, also compares
    // the edited document's text with the one of its last push.
    let compared = cache.as_deref().and_then(|cache| {
        job.docs
            .iter()
            .find_map(|d| cache.ahead(&d.uri, d.text.as_ref()?))
    });
    let compare = compared.clone();
    let (done, finished) = std::sync::mpsc::sync_channel::<()>(1);
    let ahead = move || {
        for file in files {
            // The rules' scratch structures are freed once the first
            // part (or the diagnostics) is stored, while the job's thread
            // computes or converts (it waits for this thread after that).
            let stored = prose_ide::deferred::drop_after(|| {
                // When the rules run in two parts, this thread first finds
                // the files the program needs (the job's thread finds them
                // done), then computes the first part, which the job's
                // thread puts together with its second when that is done
                // (on a long program the first ends earlier: no thread is
                // woken on the way to the client). Else it computes the
                // diagnostics, which the job's thread waits for.
                if fork.splits_rules(file)? {
                    fork.needed_files(file)?;
                }
                fork.prepare_first_part(file)
            });
            if stored.is_err() {
                break;
            }
        }
        if let Some(ahead) = compare {
            ahead.compare();
        }
        // The snapshot goes before the job's thread hears of it.
        drop(fork);
        let _ = done.send(());
    };
    // On a thread of the runtime's blocking pool, whose threads wait,
    // parked, between runs. A thread started for each run began after a
    // median 1.3 ms on two cores (either within 0.1 ms or after 1.4-3 ms:
    // the scheduler may leave a new thread on its parent's busy core until
    // it balances the load), by when this thread had the names and
    // computed the diagnostics itself: the work meant to go off the path
    // stayed on it. A parked thread is woken in tens of microseconds, and
    // no thread is made and torn down per keystroke
    // (docs/performance/peer-2026-11-29.md).
    // Outside a runtime (tests), a thread of its own.
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => drop(runtime.spawn_blocking(ahead)),
        Err(_) => drop(std::thread::spawn(ahead)),
    }
    let outcome = compute_on(job, true, cache, compared.as_deref());
    if matches!(outcome, Ok(Outcome::NeedExternal(_))) {
        job.analysis.cancel_token().cancel();
    }
    // The fork's snapshot must be gone before the run ends: the next
    // write to the host waits for every snapshot. A panic of the fork
    // (the channel closed without a message) is the analysis's own,
    // which this thread meets again (salsa passes it on to the queries
    // that wait).
    let _ = finished.recv();
    outcome
}

/// Whether the process may run on more than one core (asked once).
fn several_cores() -> bool {
    static SEVERAL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SEVERAL.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
}

/// [`compute_inner`] on this thread (alone, or `forked` while a fork of
/// the job's snapshot computes the first part of the rules, or the
/// diagnostics).
fn compute_on(
    job: &Job,
    forked: bool,
    mut cache: Option<&mut JsonCache>,
    ahead: Option<&push_cache::Ahead>,
) -> Cancellable<Outcome> {
    let analysis = &job.analysis;
    if forked {
        // While the fork finds the files the programs need and runs the
        // first part of the rules, this thread computes the names they
        // read, then the second part; the diagnostics below take both.
        // (Asking for the files here first made the second part end
        // later.) What these queries set aside (the second part's rule
        // context, the findings kept before) is freed once their results
        // are stored (`prose_ide::deferred`); on a push, once the
        // diagnostics are published (`run_and_publish`).
        prose_ide::deferred::drop_after(|| {
            for file in job.docs.iter().filter_map(|d| d.file) {
                analysis.prepare_names(file)?;
                analysis.prepare_rules(file)?;
            }
            Ok(())
        })?;
    }
    let mut unchecked = BTreeSet::new();
    for file in job.docs.iter().filter_map(|d| d.file) {
        let paths = analysis.needed_files(file)?;
        let memory = paths
            .memory
            .iter()
            .map(|p| (p, External::Memory as fn(String) -> External));
        let imports = paths
            .imports
            .iter()
            .map(|p| (p, External::Import as fn(String) -> External));
        let aux = paths
            .aux
            .iter()
            .map(|p| (p, External::Aux as fn(String) -> External));
        for (p, ext) in memory.chain(imports).chain(aux) {
            if !job.checked_external.contains(p) {
                unchecked.insert(ext(p.clone()));
            }
        }
    }
    if !unchecked.is_empty() {
        return Ok(Outcome::NeedExternal(unchecked.into_iter().collect()));
    }

    let enc = job.encoding;
    // Texts of other files that related notes point into.
    let mut others: HashMap<String, Option<LineText>> = HashMap::new();
    let mut results = Vec::with_capacity(job.docs.len());
    for doc in &job.docs {
        let text = match (&doc.text, doc.file) {
            (Some(text), _) => text.clone(),
            (None, Some(file)) => Arc::new(LineText::new(analysis.file_text(file)?)),
            (None, None) => continue,
        };
        let Some(file) = doc.file else {
            let diagnostics = Converted::Lsp(vec![too_large(text.len())]);
            results.push(DocResult {
                uri: doc.uri.clone(),
                version: doc.version,
                diagnostics,
            });
            continue;
        };
        let docs_url = analysis.file_config(file)?.docs_url;
        // The files related notes point into; the diagnostics are lent
        // (twice: the second time salsa has them already), not copied.
        let elsewhere: BTreeSet<String> = analysis.with_diagnostics(file, |raw| {
            raw.iter()
                .flat_map(|d| &d.related)
                .map(|r| &r.path)
                .filter(|p| **p != doc.path && !job.open.contains_key(*p))
                .cloned()
                .collect()
        })?;
        for path in elsewhere {
            if let Entry::Vacant(slot) = others.entry(path) {
                let other = analysis.file_text_at(slot.key())?.map(LineText::new);
                slot.insert(other);
            }
        }
        let resolve = |path: &str, range: TextRange| {
            if path == doc.path {
                return Some((doc.uri.clone(), text.range(enc, range)));
            }
            if let Some((uri, t)) = job.open.get(path) {
                return Some((uri.clone(), t.range(enc, range)));
            }
            let t = others.get(path)?.as_ref()?;
            Some((workspace::key_uri(path)?, t.range(enc, range)))
        };
        let convert = |d: &prose_ide::Diagnostic| {
            convert::diagnostic(enc, &text, d, docs_url.as_deref(), resolve)
        };
        let diagnostics = analysis.with_diagnostics(file, |raw| match cache.as_deref_mut() {
            Some(cache) => {
                let doc = push_cache::Doc {
                    uri: &doc.uri,
                    path: &doc.path,
                    text: &text,
                    encoding: enc,
                    docs_url: docs_url.as_deref(),
                };
                Converted::Json(cache.serialise(&doc, raw, ahead, convert))
            }
            None => Converted::Lsp(raw.iter().map(convert).collect()),
        })?;
        results.push(DocResult {
            uri: doc.uri.clone(),
            version: doc.version,
            diagnostics,
        });
    }
    Ok(Outcome::Done(results))
}

/// The one diagnostic of a document too large to analyse.
fn too_large(len: usize) -> ls_types::Diagnostic {
    let mb = |n: usize| n as f64 / (1024.0 * 1024.0);
    ls_types::Diagnostic {
        range: Range::new(Position::new(0, 0), Position::new(0, 0)),
        severity: Some(DiagnosticSeverity::WARNING),
        source: Some(convert::SOURCE.to_string()),
        message: format!(
            "this file is not analysed: it is {:.1} MB, over the {:.0} MB limit",
            mb(len),
            mb(MAX_FILE_SIZE)
        ),
        ..Default::default()
    }
}

/// Looks external paths up on disk (on a blocking thread) and hands what
/// exists to the analysis. Every path is marked as checked, so the next
/// run does not ask again; that run is scheduled here.
pub async fn load_external(inner: &Arc<Inner>, paths: Vec<External>) -> Result<()> {
    let mut aux = Vec::new();
    let mut rest = Vec::new();
    for ext in paths {
        match ext {
            External::Aux(p) => aux.push(p),
            other => rest.push(other),
        }
    }
    let found = blocking(move || {
        rest.into_iter()
            .map(|ext| match ext {
                External::Memory(p) => {
                    let exists = Path::new(&p).is_file();
                    (External::Memory(p), exists, None)
                }
                other => {
                    let text = match &other {
                        External::Import(p) => Some(workspace::read_text(Path::new(p))),
                        _ => None,
                    };
                    (other, false, text)
                }
            })
            .collect::<Vec<_>>()
    })
    .await?;
    {
        let mut st = inner.state();
        for (ext, exists, text) in found {
            match ext {
                External::Memory(p) => {
                    st.set_memory_file(&p, exists);
                }
                External::Import(p) => {
                    Arc::make_mut(&mut st.checked_external).insert(p.clone());
                    // A candidate that does not exist is the common case:
                    // nothing to load, nothing to forget.
                    if let Some(text @ DiskText::Text(_)) = text {
                        st.load_disk_program(&p, text);
                    }
                }
                External::Aux(_) => {}
            }
        }
        st.touch();
    }
    crate::handlers::aux_files::load(inner, aux).await?;
    schedule(inner, None);
    Ok(())
}

/// What the push worker has yet to do.
#[derive(Debug, Default)]
pub struct Pending {
    /// Edited documents, computed and published before the others.
    first: Vec<Uri>,
    /// Whether any run is due.
    due: bool,
}

/// Asks for a push run after an input change: `first` (the edited
/// document) is computed and published on its own first, then every other
/// open document (whose diagnostics may depend on the edit). Requests made
/// while a run is going are merged into the next one.
pub fn schedule(inner: &Arc<Inner>, first: Option<Uri>) {
    if inner.state().caps.pull_diagnostics {
        return;
    }
    {
        let mut pending = inner.pending();
        if let Some(uri) = first
            && !pending.first.contains(&uri)
        {
            pending.first.push(uri);
        }
        pending.due = true;
    }
    inner.wake.notify_one();
}

/// How long the worker waits for its publications to be written before
/// it frees what the runs replaced anyway.
const TRIM_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// The one task that pushes diagnostics: at most one run at a time, each
/// over the newest state, so a burst of edits costs one run (the running
/// one is cancelled by the first edit of the burst).
pub async fn worker(inner: Arc<Inner>) {
    // The JSON of the edited document's last push (`push_cache.rs`).
    let mut cache = JsonCache::default();
    loop {
        inner.wake.notified().await;
        loop {
            let pending = std::mem::take(&mut *inner.pending());
            if !pending.due {
                break;
            }
            let run = AssertUnwindSafe(push(&inner, pending.first, &mut cache)).catch_unwind();
            match run.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => eprintln!("prose-lsp: diagnostics run failed: {}", e.message),
                Err(panic) => eprintln!(
                    "prose-lsp: diagnostics run panicked: {}",
                    panic_message(&*panic)
                ),
            }
        }
        // Idle until the next edit: what the runs' results replaced is
        // freed now, not by that edit's write before its run can start
        // (`prose_ide::AnalysisHost::trim`; the runs' snapshots are gone).
        // After what was published is written: freeing while a long list
        // is written and read would take a core from the two.
        inner.outbox.flush(TRIM_WAIT).await;
        if !inner.pending().due {
            inner.state().analyzer.write(|host| {
                host.trim();
            });
        }
    }
}

async fn push(inner: &Arc<Inner>, first: Vec<Uri>, cache: &mut JsonCache) -> Result<()> {
    // The edited documents, then the other open ones, one at a time:
    // results arrive as they are ready (each job checks the generation
    // again), and only one document's diagnostics are converted and
    // serialised at a time (those of a large program take megabytes).
    for uri in &first {
        let job = inner.state().job(Some(std::slice::from_ref(uri)));
        if !run_and_publish(inner, job, cache).await? {
            // Superseded: a newer run (already scheduled) covers everything.
            return Ok(());
        }
    }
    let others: Vec<Uri> = {
        let st = inner.state();
        let mut uris: Vec<Uri> = st
            .docs
            .keys()
            .filter(|uri| !first.contains(uri))
            .cloned()
            .collect();
        uris.sort();
        uris
    };
    for uri in &others {
        let job = inner.state().job(Some(std::slice::from_ref(uri)));
        // Not through the edited document's cache: it would drop that.
        if !run_and_publish(inner, job, &mut JsonCache::default()).await? {
            break;
        }
    }
    Ok(())
}

/// Runs a job and publishes its results, serialised (on the blocking
/// thread) through `cache`; false if the run was superseded (the rest of
/// this push is then left to the newer run).
async fn run_and_publish(
    inner: &Arc<Inner>,
    job: PendingJob,
    cache: &mut JsonCache,
) -> Result<bool> {
    let generation = job.generation();
    let mut taken = std::mem::take(cache);
    let publisher = Arc::clone(inner);
    // The blocking thread is started while the analysis thread makes the
    // snapshot, and waits for it there: the analysis thread wakes it
    // directly, not the async side, which then started it (one wake-up
    // instead of two before the run begins).
    let (outcome, taken) = blocking(move || {
        let Some(job) = job.ready_blocking() else {
            return (Pushed::Superseded, taken);
        };
        // What the analysis set aside on this thread (the second part's
        // rule context, the findings it replaced: `prose_ide::deferred`)
        // is freed once the results are published, not before they are
        // converted: the fork is done with its part by then.
        prose_ide::deferred::drop_after(|| {
            let outcome = match compute_push(job, &mut taken) {
                // Published from this thread: the frames go to the output
                // thread at once, not through a wake-up of the async side
                // first (docs/performance/peer-2026-11-30.md, "Fewer
                // hand-offs").
                Outcome::Done(results) => {
                    let bodies = results.into_iter().map(PushBody::new).collect();
                    Pushed::Published(publish(&publisher, generation, bodies, &mut taken))
                }
                Outcome::NeedExternal(paths) => Pushed::NeedExternal(paths),
                Outcome::Cancelled => Pushed::Superseded,
            };
            (outcome, taken)
        })
    })
    .await?;
    *cache = taken;
    match outcome {
        Pushed::Published(current) => Ok(current),
        Pushed::Superseded => Ok(false),
        Pushed::NeedExternal(paths) => {
            load_external(inner, paths).await?;
            Ok(false)
        }
    }
}

/// How a push's run ended.
enum Pushed {
    /// Its results were published if their generation was still current
    /// (true), else dropped.
    Published(bool),
    /// See [`Outcome::NeedExternal`].
    NeedExternal(Vec<External>),
    /// A newer input cancelled the snapshot.
    Superseded,
}

/// Publishes results of `generation` if it is still current; false if not.
/// On a blocking thread: it waits for the lock and for room in the output's
/// queue there, or writes the frames itself (`Outbox::write_or_send`).
/// Each list comes back to `cache` (the JSON its next run copies from)
/// whether it was sent or not.
fn publish(
    inner: &Arc<Inner>,
    generation: u64,
    results: Vec<PushBody>,
    cache: &mut JsonCache,
) -> bool {
    let _in_order = inner.publish_lock.blocking_lock();
    let mut to_send = Vec::new();
    {
        let mut st = inner.state();
        let current = st.generation == generation;
        for r in results {
            let version = st.docs.get(&r.uri).map(|doc| Some(doc.version));
            // The same version's list as the last one sent is not sent
            // again.
            let unchanged = |last: Option<&(Option<i32>, Option<u64>)>| {
                last.is_some_and(|&(v, h)| {
                    v == r.version && h == Some(push_json::bytes_hash(&r.list))
                })
            };
            if current && version == Some(r.version) && !unchanged(st.published.get(&r.uri)) {
                st.published.insert(r.uri.clone(), (r.version, None));
                to_send.push(r);
            } else if r.cached {
                cache.keep_list(&r.uri, r.list);
            }
        }
        if !current {
            return false;
        }
    }
    for r in to_send {
        let (uri, version, cached) = (r.uri, r.version, r.cached);
        let parts = push_json::message_parts(&uri, version, r.list);
        let mut hash = None;
        // The list is hashed and given back to the cache once the client
        // has it, or before it is queued (the queue takes it).
        let written = inner.outbox.write_or_send(parts, |parts| {
            let list = &parts[push_json::LIST_PART];
            hash = Some(push_json::bytes_hash(list));
            if cached {
                cache.keep_list(&uri, list.clone());
            }
        });
        if let Some(mut parts) = written {
            let list = std::mem::take(&mut parts[push_json::LIST_PART]);
            hash = Some(push_json::bytes_hash(&list));
            if cached {
                cache.keep_list(&uri, list);
            }
        }
        let mut st = inner.state();
        if let Some(last) = st.published.get_mut(&uri)
            && *last == (version, None)
        {
            last.1 = hash;
        }
    }
    true
}

/// Sends `textDocument/publishDiagnostics` with a list serialised already
/// (`push_json.rs`), straight into its frame (see `transport/output.rs`:
/// the list of a large program would otherwise be built as a JSON tree of
/// tens of megabytes first).
async fn send(inner: &Arc<Inner>, uri: &Uri, list: Vec<u8>, version: Option<i32>) {
    let parts = push_json::message_parts(uri, version, list);
    inner.outbox.send_body(parts).await;
}

/// Clears the pushed diagnostics of a closed document.
pub async fn clear(inner: &Arc<Inner>, uri: Uri) {
    if inner.state().caps.pull_diagnostics {
        return;
    }
    let _in_order = inner.publish_lock.lock().await;
    if inner.state().docs.contains_key(&uri) {
        return; // opened again meanwhile: its own run publishes
    }
    send(inner, &uri, b"[]".to_vec(), None).await;
}

#[cfg(all(test, feature = "mimalloc"))]
mod tests {
    /// Runs over documents of a usual size keep their freed memory for the
    /// next keystroke; runs over megabytes give it back soon.
    #[test]
    fn freed_memory_stays_for_typing_in_usual_documents() {
        assert_eq!(super::purge_delay(0), prose_alloc::TYPING_DELAY_MS);
        assert_eq!(super::purge_delay(150_000), prose_alloc::TYPING_DELAY_MS);
        assert_eq!(
            super::purge_delay(1024 * 1024),
            prose_alloc::TYPING_DELAY_MS
        );
        assert_eq!(super::purge_delay(1024 * 1024 + 1), prose_alloc::DELAY_MS);
        assert_eq!(super::purge_delay(16_800_000), prose_alloc::DELAY_MS);
    }
}
