//! The JSON of a `textDocument/publishDiagnostics` notification, made once
//! per push on the blocking thread of the run that computed it.
//!
//! A push used to serialise its list twice: once into a hasher (to tell
//! whether the list changed since the last push) and once more into the
//! frame, on the async worker. Now the list is serialised once into bytes
//! ([`PushBody::new`]), the frame is written from them without another
//! copy ([`message_parts`]), and those bytes are hashed once they are on
//! their way (a fast non-cryptographic hash, [`bytes_hash`]: the hash only
//! decides whether to re-send a list whose version did not change).
//! Converting and serialising reuse the LSP value and the bytes of every
//! diagnostic that the document's previous push had too (`JsonCache`,
//! `push_cache.rs`).

use std::hash::Hasher;

use ls_types::Uri;

use super::diagnostics::{Converted, DocResult};

/// The method of a diagnostics push.
const METHOD: &str = "textDocument/publishDiagnostics";

/// A document's diagnostics, ready to push.
#[derive(Debug)]
pub struct PushBody {
    pub uri: Uri,
    pub version: Option<i32>,
    /// The list as JSON (an array).
    pub list: Vec<u8>,
    /// Whether the list is the one the run's push cache serialised last
    /// (it goes back there: `JsonCache::keep_list`).
    pub cached: bool,
}

impl PushBody {
    /// The push of `result`, whose list a push's run serialised already
    /// (through the push cache); the one-line list of a file too large to
    /// analyse is serialised here.
    pub fn new(result: DocResult) -> PushBody {
        let (list, cached) = match result.diagnostics {
            Converted::Json(list) => (list, true),
            // Writing into a `Vec` fails only for values that do not
            // serialise, and a diagnostic always does.
            Converted::Lsp(items) => {
                let list = serde_json::to_vec(&items).expect("diagnostics serialise");
                (list, false)
            }
        };
        PushBody {
            uri: result.uri,
            version: result.version,
            list,
            cached,
        }
    }
}

/// A hash of serialised bytes.
pub fn bytes_hash(bytes: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    h.finish()
}

/// Which of [`message_parts`] is the list.
pub const LIST_PART: usize = 1;

/// The notification's body in parts (written one after the other, the
/// list never copied, the [`LIST_PART`]th): exactly what serde writes for
/// a `PublishDiagnosticsParams` notification of the same list.
pub fn message_parts(uri: &Uri, version: Option<i32>, list: Vec<u8>) -> Vec<Vec<u8>> {
    let mut head =
        format!(r#"{{"jsonrpc":"2.0","method":"{METHOD}","params":{{"uri":"#).into_bytes();
    // `Uri` serialises as its string, escaped as any string.
    let _ = serde_json::to_writer(&mut head, uri);
    head.extend_from_slice(br#","diagnostics":"#);
    let tail = match version {
        Some(v) => format!(r#","version":{v}}}}}"#).into_bytes(),
        None => b"}}".to_vec(),
    };
    vec![head, list, tail]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ls_types::{Diagnostic, Position, PublishDiagnosticsParams, Range};

    #[test]
    fn parts_are_the_serde_notification() {
        let d = Diagnostic {
            range: Range::new(Position::new(1, 2), Position::new(3, 4)),
            message: "a \"quoted\" \\ message\n".into(),
            ..Default::default()
        };
        for uri in [
            "file:///w/a.prose",
            "untitled:Untitled-1",
            "file:///w/%C3%A9%20x.prose",
        ] {
            let uri: Uri = uri.parse().unwrap();
            for version in [Some(7), None, Some(-1)] {
                for list in [vec![], vec![d.clone(), d.clone()]] {
                    let json = serde_json::to_vec(&list).unwrap();
                    let ours = message_parts(&uri, version, json).concat();
                    #[derive(serde::Serialize)]
                    struct Notification<'a> {
                        jsonrpc: &'static str,
                        method: &'static str,
                        params: &'a PublishDiagnosticsParams,
                    }
                    let params = PublishDiagnosticsParams {
                        uri: uri.clone(),
                        diagnostics: list,
                        version,
                    };
                    let exact = serde_json::to_vec(&Notification {
                        jsonrpc: "2.0",
                        method: METHOD,
                        params: &params,
                    })
                    .unwrap();
                    assert_eq!(
                        String::from_utf8(ours).unwrap(),
                        String::from_utf8(exact).unwrap()
                    );
                }
            }
        }
    }
}
