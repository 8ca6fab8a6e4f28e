//! Diagnostics pulled (`textDocument/diagnostic`): the document's run is
//! the one a push makes ([`super::diagnostics`]), converted rather than
//! serialised, answered as a report whose `resultId` tells an unchanged
//! one.

use std::{collections::hash_map::DefaultHasher, hash::Hasher, sync::Arc};

use ls_types::{
    DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, RelatedFullDocumentDiagnosticReport,
    RelatedUnchangedDocumentDiagnosticReport, UnchangedDocumentDiagnosticReport,
};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

use super::diagnostics::{Converted, Outcome, compute, load_external};
use crate::server::{Inner, blocking_cancellable};

/// How often a pull retries after its snapshot was cancelled by an edit.
const PULL_ATTEMPTS: usize = 8;

/// `textDocument/diagnostic`: the diagnostics of an open document (or of a
/// file the server loaded from the workspace). `resultId` is a hash of the
/// report, so an unchanged report is answered with `unchanged`.
pub async fn pull(
    inner: &Arc<Inner>,
    params: DocumentDiagnosticParams,
) -> Result<DocumentDiagnosticReportResult> {
    let uri = params.text_document.uri;
    for _ in 0..PULL_ATTEMPTS {
        let job = {
            let st = inner.state();
            if !st.knows(&uri) {
                return Err(Error::invalid_params(format!(
                    "unknown document {}: not open and not a program of the workspace",
                    uri.as_str()
                )));
            }
            st.job(Some(std::slice::from_ref(&uri)))
        };
        let Some(job) = job.ready().await else {
            return Err(Error::internal_error());
        };
        let token = job.analysis.cancel_token();
        match blocking_cancellable(token, move || compute(job)).await? {
            Outcome::Cancelled => tokio::task::yield_now().await,
            Outcome::NeedExternal(paths) => load_external(inner, paths).await?,
            Outcome::Done(mut results) => {
                let items = match results.pop().map(|r| r.diagnostics) {
                    Some(Converted::Lsp(items)) => items,
                    // `compute` converts; only a push serialises.
                    Some(Converted::Json(_)) | None => Vec::new(),
                };
                let result_id = result_id(&items);
                let report = if params.previous_result_id.as_deref() == Some(result_id.as_str()) {
                    DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                        related_documents: None,
                        unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                            result_id,
                        },
                    })
                } else {
                    full_report(inner, result_id, items)
                };
                return Ok(DocumentDiagnosticReportResult::Report(report));
            }
        }
    }
    // LSP 3.17 `ServerCancelled`: the client should ask again.
    Err(Error {
        code: ErrorCode::ServerError(-32802),
        message: "the document kept changing; retry".into(),
        data: Some(serde_json::json!({ "retriggerRequest": true })),
    })
}

/// A full report of `items`. A long one is serialised here and stashed
/// (tower-lsp-server would make a `serde_json::Value` tree of it first,
/// tens of megabytes for the ten thousand diagnostics of a large program):
/// the handler answers a placeholder, an empty report whose `resultId` is
/// the stash key, which the writer replaces (`transport::output`).
fn full_report(
    inner: &Inner,
    result_id: String,
    items: Vec<ls_types::Diagnostic>,
) -> DocumentDiagnosticReport {
    let full = |result_id, items| {
        DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: FullDocumentDiagnosticReport {
                result_id: Some(result_id),
                items,
            },
        })
    };
    if items.len() < STASH_FROM {
        return full(result_id, items);
    }
    // `DocumentDiagnosticReportResult` is untagged: a report serialises
    // as the result itself.
    let report = full(result_id, items);
    match inner.outbox.stash(&report) {
        Some(key) => full(key, Vec::new()),
        None => report,
    }
}

/// Reports with at least this many diagnostics go through the stash.
const STASH_FROM: usize = 64;

/// A stable id of a report's contents.
fn result_id(items: &[ls_types::Diagnostic]) -> String {
    format!("{:016x}", list_hash(items))
}

/// A hash of a list of diagnostics (of its JSON, streamed into the hasher
/// rather than built as a string).
fn list_hash(items: &[ls_types::Diagnostic]) -> u64 {
    struct HashWriter(DefaultHasher);
    impl std::io::Write for HashWriter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.write(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut writer = HashWriter(DefaultHasher::new());
    let _ = serde_json::to_writer(&mut writer, items);
    writer.0.finish()
}
