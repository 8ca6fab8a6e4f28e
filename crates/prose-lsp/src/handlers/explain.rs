//! `prose/explain`: the documentation of a diagnostic code (what
//! `prose explain CODE` prints), as Markdown, for the editors' "Explain
//! diagnostic" views.
//!
//! Params `{"code": string}` (a code such as `E002`, any case, or a rule's
//! name); result `{"code": string, "markdown": string}`, or `null` when no
//! rule has that code.

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::Result;

/// The method name.
pub const METHOD: &str = "prose/explain";

#[derive(Debug, Deserialize)]
pub struct ExplainParams {
    pub code: String,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Explanation {
    pub code: String,
    pub markdown: String,
}

pub fn explain(params: ExplainParams) -> Result<Option<Explanation>> {
    Ok(prose_ide::rule(params.code.trim()).map(|rule| Explanation {
        code: rule.code.to_string(),
        markdown: rule.docs(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explains_a_code_in_any_case() {
        let e = explain(ExplainParams {
            code: " e002 ".into(),
        })
        .unwrap()
        .unwrap();
        assert_eq!(e.code, "E002");
        assert!(e.markdown.contains("## Example"), "{}", e.markdown);
    }

    #[test]
    fn unknown_code_is_null() {
        assert_eq!(
            explain(ExplainParams {
                code: "X999".into()
            })
            .unwrap(),
            None
        );
    }
}
