//! What the transport checks in a message body before tower-lsp-server
//! sees it (see the parent module for the framing).
//!
//! A body that tower-lsp-server would choke on (its reader ends the stream
//! after any body it cannot decode) becomes a request for
//! [`INVALID_MESSAGE`], whose handler answers with the error the client
//! should see:
//!
//! - `-32700` (parse error) for a body that is not JSON;
//! - `-32600` (invalid request) for JSON that is not a JSON-RPC 2.0
//!   message, and for a message whose `id` is neither a string nor an
//!   integer that fits in 64 signed bits (`2^63`, `2^64`, `1e300`): the
//!   answer then carries `id: null`, as JSON-RPC says for an id that cannot
//!   be read;
//! - `-32601` (method not found) for a request whose method starts with
//!   `$/` and that the server does not know: the protocol says such a
//!   request must be answered with that error, and tower-lsp-server drops
//!   it silently. (`$/` notifications may be ignored, and are.)
//!
//! A JSON string holding a lone UTF-16 surrogate escape (`"\ud800"`, which
//! JSON's grammar allows and VS Code sends when an edit splits a surrogate
//! pair) is decoded with U+FFFD in its place: the same length in UTF-16, so
//! positions in later edits still line up, instead of dropping the edit
//! and letting the client's and the server's documents diverge.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

/// The internal method that stands for a malformed message.
pub const INVALID_MESSAGE: &str = "prose/invalidMessage";

/// The parts of a message the checks need; the rest (the `params`, which
/// may be megabytes of document text) is skipped without being built.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    jsonrpc: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "present")]
    result: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "present")]
    error: Option<IgnoredAny>,
}

/// `Some(value)` for a field that is present, even when it is `null`.
fn present<'de, T: Deserialize<'de>, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// What a body turned out to be.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// A message tower-lsp-server reads as it is.
    Fine,
    /// A message to answer with an error instead: its code, the id to
    /// answer (`null` when it has none that can be read) and a message.
    Refuse(ErrorCode, Value, String),
}

/// Whether `id` is one tower-lsp-server (and JSON-RPC) can echo: a string,
/// or an integer that fits in an `i64`.
fn usable_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(n) => n.is_i64(),
        _ => false,
    }
}

fn judge(body: &[u8]) -> Verdict {
    let envelope: Envelope<'_> = match serde_json::from_slice(body) {
        Ok(e) => e,
        Err(e) if e.is_data() => {
            // Valid JSON of the wrong shape (an array, a number id in a
            // string field, ...).
            return match serde_json::from_slice::<Value>(body) {
                Ok(value) => Verdict::Refuse(
                    ErrorCode::InvalidRequest,
                    value
                        .get("id")
                        .filter(|id| usable_id(id))
                        .cloned()
                        .unwrap_or(Value::Null),
                    "Invalid request: not a JSON-RPC 2.0 message".into(),
                ),
                Err(e) => parse_error(&e),
            };
        }
        Err(e) => return parse_error(&e),
    };
    let id = envelope.id.as_ref();
    let answer_id = id
        .filter(|id| usable_id(id))
        .cloned()
        .unwrap_or(Value::Null);
    let is_message = envelope.jsonrpc.as_deref() == Some("2.0")
        && match &envelope.method {
            Some(_) => envelope.result.is_none() && envelope.error.is_none(),
            None => id.is_some() && (envelope.result.is_some() != envelope.error.is_some()),
        };
    if !is_message {
        return Verdict::Refuse(
            ErrorCode::InvalidRequest,
            answer_id,
            "Invalid request: not a JSON-RPC 2.0 message".into(),
        );
    }
    if let Some(id) = id
        && !id.is_null()
        && !usable_id(id)
    {
        return Verdict::Refuse(
            ErrorCode::InvalidRequest,
            Value::Null,
            format!("Invalid request: the id {id} is neither a string nor a 64-bit integer"),
        );
    }
    match &envelope.method {
        Some(method) if method.starts_with("$/") && id.is_some_and(|id| !id.is_null()) => {
            Verdict::Refuse(
                ErrorCode::MethodNotFound,
                answer_id,
                format!("Method not found: {method}"),
            )
        }
        _ => Verdict::Fine,
    }
}

fn parse_error(e: &serde_json::Error) -> Verdict {
    Verdict::Refuse(
        ErrorCode::ParseError,
        Value::Null,
        format!("Parse error: {e}"),
    )
}

/// A valid message unchanged (or with its lone surrogates replaced),
/// anything else a request for [`INVALID_MESSAGE`] carrying the error to
/// answer with.
pub fn sanitize(body: Vec<u8>) -> Vec<u8> {
    // Checked on every body: the other checks skip the `params`.
    let body = replace_lone_surrogates(&body).unwrap_or(body);
    let Verdict::Refuse(code, id, message) = judge(&body) else {
        return body;
    };
    let request = json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": INVALID_MESSAGE,
        "params": { "code": code.code(), "message": message },
    });
    serde_json::to_vec(&request).unwrap_or_default()
}

/// The body with every `\uXXXX` escape of an unpaired UTF-16 surrogate
/// replaced by `\ufffd`; `None` when it has none.
pub fn replace_lone_surrogates(body: &[u8]) -> Option<Vec<u8>> {
    let hex = |at: usize| -> Option<u16> {
        let digits = body.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    // `\u` escapes of surrogates, as (offset of the backslash, value).
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut in_string = false;
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'"' => {
                in_string = !in_string;
                i += 1;
            }
            b'\\' if in_string => {
                if body.get(i + 1) != Some(&b'u') {
                    i += 2;
                    continue;
                }
                let Some(unit) = hex(i + 2) else {
                    i += 2;
                    continue;
                };
                let lone = match unit {
                    0xD800..=0xDBFF => {
                        // A high surrogate needs a low one right after it.
                        let low = (body.get(i + 6..i + 8) == Some(b"\\u"))
                            .then(|| hex(i + 8))
                            .flatten();
                        if low.is_some_and(|l| (0xDC00..=0xDFFF).contains(&l)) {
                            i += 12;
                            continue;
                        }
                        true
                    }
                    0xDC00..=0xDFFF => true,
                    _ => false,
                };
                if lone {
                    let out = out.get_or_insert_with(|| Vec::with_capacity(body.len()));
                    out.extend_from_slice(&body[copied..i]);
                    out.extend_from_slice(b"\\ufffd");
                    copied = i + 6;
                }
                i += 6;
            }
            _ => i += 1,
        }
    }
    let mut out = out?;
    out.extend_from_slice(&body[copied..]);
    Some(out)
}

/// Whether a (valid) message is the `exit` notification.
pub fn is_exit(body: &[u8]) -> bool {
    // Only bodies that mention it are parsed again.
    body.windows(6).any(|w| w == b"\"exit\"")
        && serde_json::from_slice::<Envelope<'_>>(body)
            .is_ok_and(|e| e.method.as_deref() == Some("exit") && e.id.is_none())
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
        for body in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#[..],
            br#"{"jsonrpc":"2.0","id":"a","method":"x","params":{"t":"\u00e9\ud83d\ude00"}}"#,
            br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":null}"#,
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}"#,
            br#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"x"}"#,
        ] {
            assert_eq!(sanitize(body.to_vec()), body.to_vec());
        }
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
        let v = parsed(br#"{"jsonrpc":"2.0","id":"s","method":1}"#);
        assert_eq!(v["id"], "s");
        assert_eq!(v["params"]["code"], -32600);
        let v = parsed(b"[1,2]");
        assert_eq!(v["params"]["code"], -32600);
        let v = parsed(br#"{"jsonrpc":"2.0","id":1}"#);
        assert_eq!(v["params"]["code"], -32600);
        let v = parsed(&[0xff, 0xfe]);
        assert_eq!(v["params"]["code"], -32700);
        assert_eq!(
            invalid_message(v["params"].clone()).unwrap_err().code,
            ErrorCode::ParseError
        );
    }

    #[test]
    fn ids_that_do_not_fit_are_answered_with_null() {
        for id in [
            "18446744073709551616",
            "9223372036854775808",
            "1e300",
            "1.5",
            "[1]",
        ] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover"}}"#);
            let v = parsed(body.as_bytes());
            assert_eq!(v["method"], INVALID_MESSAGE, "{id}");
            assert_eq!(v["id"], Value::Null, "{id}");
            assert_eq!(v["params"]["code"], -32600, "{id}");
        }
    }

    #[test]
    fn unknown_dollar_requests_are_method_not_found() {
        let v = parsed(br#"{"jsonrpc":"2.0","id":3,"method":"$/someUnknownRequest"}"#);
        assert_eq!(v["method"], INVALID_MESSAGE);
        assert_eq!(v["id"], 3);
        assert_eq!(v["params"]["code"], -32601);
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let body = br#"{"jsonrpc":"2.0","method":"x","params":{"text":"a\ud800b\udc00\\ud800\ud83d\ude00"}}"#;
        let fixed = sanitize(body.to_vec());
        let v: Value = serde_json::from_slice(&fixed).unwrap();
        assert_eq!(v["method"], "x");
        // The escaped backslash and the valid pair are kept.
        assert_eq!(v["params"]["text"], "a\u{FFFD}b\u{FFFD}\\ud800\u{1F600}");
        assert_eq!(replace_lone_surrogates(br#"{"t":"\ud83d\ude00"}"#), None);
        // A high surrogate at the very end of a string.
        let v = parsed(br#"{"jsonrpc":"2.0","method":"x","params":["\uD800"]}"#);
        assert_eq!(v["params"][0], "\u{FFFD}");
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
    }
}
