//! A guard in front of tower-lsp-server's reader.
//!
//! tower-lsp-server answers a frame whose body is not a JSON-RPC message
//! with a parse error, but its reader (a tokio-util `FramedRead`) ends the
//! stream after any decoding error, so the server would then stop. This
//! pump reads the frames itself and hands tower-lsp-server only valid
//! messages: a frame that is not one becomes a request for
//! [`INVALID_MESSAGE`], whose handler answers with the error the client
//! should see (`-32700` for bad JSON, `-32600` for JSON that is not a
//! message, with the message's `id` when it has a usable one, else `null`).
//! Header lines without a `Content-Length` are skipped.
//!
//! The pump also tells [`run_stdio`](crate::run_stdio) when the `exit`
//! notification went through: tower-lsp-server stops reading after `exit`
//! but still waits for every running handler, and a handler waiting for
//! the client's answer to one of our requests (`workspace/configuration`,
//! `client/registerCapability`) would wait forever, so the process would
//! never end.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream},
    sync::Notify,
};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Request, Response, Result};

/// The internal method that stands for a malformed message.
pub const INVALID_MESSAGE: &str = "prose/invalidMessage";

/// Header lines longer than this are garbage.
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// Starts the pump from `input`; returns the stream to serve from.
/// `exit_seen` is notified once the `exit` notification has been passed on.
pub fn guard<R: AsyncRead + Unpin + Send + 'static>(
    input: R,
    exit_seen: Arc<Notify>,
) -> DuplexStream {
    let (reader, writer) = tokio::io::duplex(256 * 1024);
    tokio::spawn(pump(input, writer, exit_seen));
    reader
}

/// Whether a (valid) message is the `exit` notification.
pub fn is_exit(body: &[u8]) -> bool {
    // Only bodies that mention it are parsed again.
    body.windows(6).any(|w| w == b"\"exit\"")
        && serde_json::from_slice::<Value>(body)
            .is_ok_and(|v| v.get("method").and_then(Value::as_str) == Some("exit"))
}

async fn pump<R: AsyncRead + Unpin>(input: R, mut out: DuplexStream, exit_seen: Arc<Notify>) {
    let mut input = BufReader::new(input);
    loop {
        let length = match read_headers(&mut input).await {
            Headers::Eof => break,
            Headers::NoLength => continue,
            Headers::Length(n) => n,
        };
        let mut body = vec![0; length];
        if input.read_exact(&mut body).await.is_err() {
            break;
        }
        let body = sanitize(body);
        let exit = is_exit(&body);
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(&body);
        if out.write_all(&frame).await.is_err() {
            break;
        }
        if exit {
            exit_seen.notify_one();
        }
    }
    let _ = out.shutdown().await;
}

enum Headers {
    Eof,
    /// A header block without a usable `Content-Length`: skipped.
    NoLength,
    Length(usize),
}

async fn read_headers<R: AsyncRead + Unpin>(input: &mut BufReader<R>) -> Headers {
    let mut length = None;
    let mut seen_any = false;
    loop {
        let mut line = Vec::new();
        match (&mut *input)
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)
            .await
        {
            Ok(0) | Err(_) => return Headers::Eof,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim();
        if line.is_empty() {
            if !seen_any {
                continue; // stray blank line between frames
            }
            return match length {
                Some(n) => Headers::Length(n),
                None => {
                    eprintln!("prose-lsp: skipped a message without Content-Length");
                    Headers::NoLength
                }
            };
        }
        seen_any = true;
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok();
        }
    }
}

/// A valid message unchanged, anything else a request for
/// [`INVALID_MESSAGE`] carrying the error to answer with.
pub fn sanitize(body: Vec<u8>) -> Vec<u8> {
    let is_message = serde_json::from_slice::<Request>(&body).is_ok()
        || serde_json::from_slice::<Response>(&body).is_ok();
    if is_message {
        return body;
    }
    let (code, id, message) = match serde_json::from_slice::<Value>(&body) {
        Err(e) => (
            ErrorCode::ParseError,
            Value::Null,
            format!("Parse error: {e}"),
        ),
        Ok(value) => {
            let id = match value.get("id") {
                Some(id @ (Value::Number(_) | Value::String(_)))
                    if id.as_f64().is_none_or(|f| f.fract() == 0.0) =>
                {
                    id.clone()
                }
                _ => Value::Null,
            };
            (
                ErrorCode::InvalidRequest,
                id,
                "Invalid request: not a JSON-RPC 2.0 message".to_string(),
            )
        }
    };
    let request = json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": INVALID_MESSAGE,
        "params": { "code": code.code(), "message": message },
    });
    serde_json::to_vec(&request).unwrap_or_default()
}

/// The handler of [`INVALID_MESSAGE`]: the error it carries.
pub fn invalid_message(params: Value) -> Result<()> {
    let code = params["code"]
        .as_i64()
        .unwrap_or(ErrorCode::ParseError.code());
    let message = params["message"]
        .as_str()
        .unwrap_or("Parse error")
        .to_string();
    Err(Error {
        code: ErrorCode::from(code),
        message: message.into(),
        data: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(body: &[u8]) -> Value {
        serde_json::from_slice(&sanitize(body.to_vec())).unwrap()
    }

    #[test]
    fn passes_messages_through() {
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        assert_eq!(sanitize(body.to_vec()), body.to_vec());
        let response = br#"{"jsonrpc":"2.0","id":1,"result":null}"#;
        assert_eq!(sanitize(response.to_vec()), response.to_vec());
    }

    #[test]
    fn replaces_bad_bodies() {
        let v = parsed(b"{oops");
        assert_eq!(v["method"], INVALID_MESSAGE);
        assert_eq!(v["id"], Value::Null);
        assert_eq!(v["params"]["code"], -32700);
        let v = parsed(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#);
        assert_eq!(v["id"], 7);
        assert_eq!(v["params"]["code"], -32600);
        let v = parsed(b"[1,2]");
        assert_eq!(v["params"]["code"], -32600);
        let v = parsed(&[0xff, 0xfe]);
        assert_eq!(v["params"]["code"], -32700);
        assert_eq!(
            invalid_message(v["params"].clone()).unwrap_err().code,
            ErrorCode::ParseError
        );
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn pumps_frames_and_skips_garbage_headers() {
        let rt = runtime();
        rt.block_on(async {
            let input: &[u8] = b"garbage line\r\n\r\nContent-Length: 5\r\n\r\n{oopsContent-Length: 40\r\ncontent-type: x\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}";
            let exit_seen = Arc::new(Notify::new());
            let mut out = guard(input, exit_seen);
            let mut all = Vec::new();
            out.read_to_end(&mut all).await.unwrap();
            let text = String::from_utf8(all).unwrap();
            assert!(text.contains(INVALID_MESSAGE), "{text}");
            assert!(text.ends_with("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}"), "{text}");
            assert_eq!(text.matches("Content-Length").count(), 2, "{text}");
        });
    }

    #[test]
    fn notices_the_exit_notification() {
        assert!(is_exit(br#"{"jsonrpc":"2.0","method":"exit"}"#));
        assert!(is_exit(br#"{"method" : "exit", "jsonrpc":"2.0"}"#));
        assert!(!is_exit(br#"{"jsonrpc":"2.0","method":"shutdown","id":1}"#));
        // A document that merely contains the word.
        assert!(!is_exit(
            br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"text":"\"exit\""}}"#
        ));
        let rt = runtime();
        rt.block_on(async {
            let input: &[u8] =
                b"Content-Length: 33\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}";
            let exit_seen = Arc::new(Notify::new());
            let mut out = guard(input, exit_seen.clone());
            let mut all = Vec::new();
            out.read_to_end(&mut all).await.unwrap();
            // The permit is stored: this returns at once.
            exit_seen.notified().await;
        });
    }
}
