//! What the request handlers share (hover, completion, semantic tokens,
//! navigation, rename, symbols, code actions, ...): an analysis snapshot
//! that can convert answers pointing into *any* file (the requested
//! document, the targets of go to definition, the edits of a rename), with
//! the editor's texts, URIs and versions of open documents.
//!
//! As for diagnostics (see `diagnostics.rs`), the snapshot is queued to the
//! analysis thread under the state lock (so it holds every change that
//! came before the request, and none after), awaited outside it, moved into
//! a blocking closure and dropped there: nothing holds it while waiting for
//! the lock or for the analysis thread. A snapshot cancelled by a newer edit answers
//! `ContentModified`; a panic in the analysis becomes an `InternalError`
//! (`server::blocking`). The closure runs under
//! `server::blocking_cancellable`: when the client cancels the request
//! (`$/cancelRequest`), the snapshot is cancelled too and the closure
//! stops at the analysis's next check.

use std::{collections::HashMap, sync::Arc};

use ls_types::{
    DocumentChanges, Location, OneOf, OptionalVersionedTextDocumentIdentifier, Position, Range,
    TextDocumentEdit, Uri, WorkspaceEdit,
};
use prose_ide::{
    Analysis, Cancellable, Cancelled, FileId, FilePosition, TextRange, TextSize, features::rename,
};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

use crate::{
    convert::{Encoding, LineText},
    server::{Inner, blocking_cancellable},
    state::{ClientCaps, State},
    workspace,
};

/// LSP 3.17 `RequestFailed`: a valid request the server cannot carry out
/// (a refused rename); editors show the message.
pub const REQUEST_FAILED: i64 = -32803;

/// A `RequestFailed` error with `message`.
pub fn request_failed(message: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::ServerError(REQUEST_FAILED),
        message: message.into().into(),
        data: None,
    }
}

/// A cancelled snapshot: the client asks again if it still cares.
pub fn content_modified(_: Cancelled) -> Error {
    Error::content_modified()
}

/// `Cancellable` -> `Result` (`ContentModified`).
pub trait Lsp<T> {
    fn lsp(self) -> Result<T>;
}

impl<T> Lsp<T> for Cancellable<T> {
    fn lsp(self) -> Result<T> {
        self.map_err(content_modified)
    }
}

/// An open document, as the snapshot saw it.
struct Open {
    uri: Uri,
    text: Arc<LineText>,
    version: i32,
}

/// A snapshot of the analysis with what converting its answers needs.
pub struct Snapshot {
    pub analysis: Analysis,
    pub encoding: Encoding,
    pub caps: ClientCaps,
    /// Open documents by analysis key.
    open: HashMap<String, Open>,
    /// Texts of files (open or not) converted so far.
    texts: HashMap<FileId, Arc<LineText>>,
}

/// A [`Snapshot`] whose analysis is on its way (see [`Snapshot::take`]).
struct PendingSnapshot {
    snapshot: tokio::sync::oneshot::Receiver<crate::analyzer::Snapshot>,
    encoding: Encoding,
    caps: ClientCaps,
    open: HashMap<String, Open>,
}

impl PendingSnapshot {
    /// The snapshot, and the file of the path it was asked with.
    async fn ready(self) -> Result<(Snapshot, Option<FileId>)> {
        let s = self.snapshot.await.map_err(|_| {
            let mut e = Error::internal_error();
            e.message = "prose-lsp: the analysis is not running".into();
            e
        })?;
        let file = s.files.first().copied().flatten();
        Ok((
            Snapshot {
                analysis: s.analysis,
                encoding: self.encoding,
                caps: self.caps,
                open: self.open,
                texts: HashMap::new(),
            },
            file,
        ))
    }
}

impl Snapshot {
    /// Queues a snapshot of everything so far, with the file at `path`.
    fn take(st: &State, path: Option<String>) -> PendingSnapshot {
        PendingSnapshot {
            snapshot: st.analyzer.snapshot(path.into_iter().collect()),
            encoding: st.encoding,
            caps: st.caps,
            open: st
                .docs
                .iter()
                .map(|(uri, doc)| {
                    let open = Open {
                        uri: uri.clone(),
                        text: doc.text.clone(),
                        version: doc.version,
                    };
                    (doc.path.clone(), open)
                })
                .collect(),
        }
    }

    /// The text of a file: the editor's for an open document (the same the
    /// snapshot analyses), else the snapshot's.
    pub fn text(&mut self, file: FileId) -> Result<Arc<LineText>> {
        if let Some(text) = self.texts.get(&file) {
            return Ok(text.clone());
        }
        let path = self.analysis.file_path(file).lsp()?;
        let text = match self.open.get(&path) {
            Some(open) => open.text.clone(),
            None => Arc::new(LineText::new(self.analysis.file_text(file).lsp()?)),
        };
        self.texts.insert(file, text.clone());
        Ok(text)
    }

    /// The URI of a file (the editor's for an open document), and its
    /// version when open. `None` for a key that is not a URI.
    pub fn uri(&self, file: FileId) -> Result<Option<(Uri, Option<i32>)>> {
        let path = self.analysis.file_path(file).lsp()?;
        Ok(match self.open.get(&path) {
            Some(open) => Some((open.uri.clone(), Some(open.version))),
            None => workspace::key_uri(&path).map(|uri| (uri, None)),
        })
    }

    /// The offset of a request's position in a file; `InvalidParams` when
    /// it is not in the document.
    pub fn offset(&mut self, file: FileId, pos: Position) -> Result<TextSize> {
        let text = self.text(file)?;
        text.offset(self.encoding, pos).ok_or_else(|| {
            Error::invalid_params(format!(
                "position {}:{} is not in the document",
                pos.line, pos.character
            ))
        })
    }

    /// The analysis position of a request's position; `InvalidParams` when
    /// it is not in the document.
    pub fn position(&mut self, file: FileId, pos: Position) -> Result<FilePosition> {
        let offset = self.offset(file, pos)?;
        Ok(FilePosition { file, offset })
    }

    /// The byte range of a request's (visible) range in a file, clamped to
    /// the text: an editor's visible range may reach past the end.
    pub fn range_clamped(&mut self, file: FileId, range: Range) -> Result<TextRange> {
        let text = self.text(file)?;
        let start = text.offset_clamped(self.encoding, range.start);
        let end = text.offset_clamped(self.encoding, range.end);
        Ok(TextRange::new(start.min(end), start.max(end)))
    }

    /// The LSP range of a byte range of a file.
    pub fn range(&mut self, file: FileId, range: TextRange) -> Result<Range> {
        Ok(self.text(file)?.range(self.encoding, range))
    }

    /// The location of a byte range of a file (`None`: no URI for it).
    pub fn location(&mut self, file: FileId, range: TextRange) -> Result<Option<Location>> {
        let Some((uri, _)) = self.uri(file)? else {
            return Ok(None);
        };
        let range = self.range(file, range)?;
        Ok(Some(Location { uri, range }))
    }

    /// A `WorkspaceEdit` of a source change: `documentChanges` (with the
    /// versions of open documents) when the client supports them, else
    /// `changes`.
    pub fn workspace_edit(&mut self, change: &rename::SourceChange) -> Result<WorkspaceEdit> {
        let mut files = Vec::new();
        for (file, edits) in &change.edits {
            let Some((uri, version)) = self.uri(*file)? else {
                continue;
            };
            let text = self.text(*file)?;
            let edits: Vec<ls_types::TextEdit> = edits
                .iter()
                .map(|e| ls_types::TextEdit {
                    range: text.range(self.encoding, e.range),
                    new_text: e.new_text.clone(),
                })
                .collect();
            files.push((uri, version, edits));
        }
        if self.caps.document_changes {
            let edits = files
                .into_iter()
                .map(|(uri, version, edits)| TextDocumentEdit {
                    text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
                    edits: edits.into_iter().map(OneOf::Left).collect(),
                })
                .collect();
            Ok(WorkspaceEdit {
                document_changes: Some(DocumentChanges::Edits(edits)),
                ..Default::default()
            })
        } else {
            let changes = files
                .into_iter()
                .map(|(uri, _, edits)| (uri, edits))
                .collect();
            Ok(WorkspaceEdit {
                changes: Some(changes),
                ..Default::default()
            })
        }
    }
}

/// Runs `f` over a snapshot and the file of document `uri` on a blocking
/// thread (cancelled with the request).
///
/// `Ok(None)` when the document is known but not analysed (over the size
/// limit); `InvalidParams` when it is neither open nor a program of the
/// workspace; `ContentModified` when an edit cancelled the snapshot.
pub async fn on_document<T: Send + 'static>(
    inner: &Arc<Inner>,
    uri: &Uri,
    f: impl FnOnce(&mut Snapshot, FileId) -> Result<T> + Send + 'static,
) -> Result<Option<T>> {
    let (pending, text) = {
        let st = inner.state();
        let (analysed, text) = match st.docs.get(uri) {
            Some(doc) => (doc.analysed, Some(doc.text.clone())),
            None if st.knows(uri) => (true, None),
            None => {
                return Err(Error::invalid_params(format!(
                    "unknown document {}: not open and not a program of the workspace",
                    uri.as_str()
                )));
            }
        };
        if !analysed {
            return Ok(None);
        }
        (Snapshot::take(&st, Some(workspace::uri_key(uri))), text)
    };
    let (mut snapshot, file) = pending.ready().await?;
    let Some(file) = file else {
        return Err(Error::invalid_params(format!(
            "unknown document {}",
            uri.as_str()
        )));
    };
    // The requested document's text is the editor's for it, whatever
    // other open URIs share its analysis key.
    if let Some(text) = text {
        snapshot.texts.insert(file, text);
    }
    let token = snapshot.analysis.cancel_token();
    blocking_cancellable(token, move || {
        let mut snapshot = snapshot;
        f(&mut snapshot, file)
    })
    .await?
    .map(Some)
}

/// [`on_document`] for a command the user asked for (a lens clicked): an
/// edit or a file loaded meanwhile (`ContentModified`) retries over a new
/// snapshot, a few times, instead of failing a click that no client
/// repeats by itself.
pub async fn on_document_retrying<T: Send + 'static>(
    inner: &Arc<Inner>,
    uri: &Uri,
    f: impl Fn(&mut Snapshot, FileId) -> Result<T> + Send + Sync + 'static,
) -> Result<Option<T>> {
    let f = Arc::new(f);
    let mut tries = 0;
    loop {
        let g = f.clone();
        match on_document(inner, uri, move |s, file| g(s, file)).await {
            Err(e) if e.code == ErrorCode::ContentModified && tries < 8 => tries += 1,
            other => return other,
        }
    }
}

/// Runs `f` over a snapshot of the whole workspace on a blocking thread
/// (cancelled with the request).
pub async fn on_workspace<T: Send + 'static>(
    inner: &Arc<Inner>,
    f: impl FnOnce(&mut Snapshot) -> Result<T> + Send + 'static,
) -> Result<T> {
    let pending = Snapshot::take(&inner.state(), None);
    let (snapshot, _) = pending.ready().await?;
    let token = snapshot.analysis.cancel_token();
    blocking_cancellable(token, move || {
        let mut snapshot = snapshot;
        f(&mut snapshot)
    })
    .await?
}
