//! # D016 `nesting-limit`
//!
//! **Chain or batch too deep.** A chain of more than 64 actions, or batches
//! nested more than 16 deep.
//!
//! ## Why is this bad?
//! No agent needs that many; it is almost certainly runaway output. The rest
//! of the chain is dropped (a deeper batch's actions join the enclosing one)
//! so that the result stays small and safe to process.
//!
//! ## Example
//! ```dialect
//! /calc 1 -> /calc 2 -> /calc 3 -> /calc 4 -> /calc 5 -> /calc 6 -> /calc 7 -> /calc 8 -> /calc 9 -> /calc 10 -> /calc 11 -> /calc 12 -> /calc 13 -> /calc 14 -> /calc 15 -> /calc 16 -> /calc 17 -> /calc 18 -> /calc 19 -> /calc 20 -> /calc 21 -> /calc 22 -> /calc 23 -> /calc 24 -> /calc 25 -> /calc 26 -> /calc 27 -> /calc 28 -> /calc 29 -> /calc 30 -> /calc 31 -> /calc 32 -> /calc 33 -> /calc 34 -> /calc 35 -> /calc 36 -> /calc 37 -> /calc 38 -> /calc 39 -> /calc 40 -> /calc 41 -> /calc 42 -> /calc 43 -> /calc 44 -> /calc 45 -> /calc 46 -> /calc 47 -> /calc 48 -> /calc 49 -> /calc 50 -> /calc 51 -> /calc 52 -> /calc 53 -> /calc 54 -> /calc 55 -> /calc 56 -> /calc 57 -> /calc 58 -> /calc 59 -> /calc 60 -> /calc 61 -> /calc 62 -> /calc 63 -> /calc 64 -> /calc 65
//! ```
//!
//! ## Fix
//! ```dialect
//! /calc 1 -> /calc 2
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D016",
    name: "nesting-limit",
    summary: "Chain or batch too deep",
    severity: Severity::Error,
    source: include_str!("nesting_limit.rs"),
};

#[cfg(test)]
mod tests {
    use crate::DialectParser;
    use crate::action::Arguments;
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn chains_stop_at_64_links() {
        let chain = (1..=70)
            .map(|i| format!("/calc {i}"))
            .collect::<Vec<_>>()
            .join(" -> ");
        let parse = DialectParser::new().parse(&chain);
        let links = parse.action.as_ref().unwrap().links().count();
        assert_eq!(links, 64);
        let d = parse.error().unwrap();
        assert_eq!(d.code, "D016");
        assert_eq!(
            d.span.text(&chain),
            &chain[chain.find("/calc 65").unwrap()..]
        );
        assert_eq!(
            d.message,
            "This chain has 70 actions; I follow at most 64 - split it up"
        );
    }

    #[test]
    fn batches_nest_16_deep_then_flatten() {
        let depth = 20;
        let mut text = String::new();
        for _ in 0..depth {
            text.push_str("/batch {\n");
        }
        text.push_str("/recall x\n");
        for _ in 0..depth {
            text.push_str("}\n");
        }
        let doc = DialectParser::new().parse_document(&text);
        assert_eq!(doc.actions.len(), 1);
        let mut action = doc.actions[0].action.as_ref().unwrap();
        let mut levels = 1;
        while let Arguments::Batch(b) = &action.arguments {
            match b.actions.first() {
                Some(inner) => action = inner,
                None => break,
            }
            levels += 1;
        }
        assert_eq!(levels, 17, "16 batches, then the recall");
        let codes: Vec<_> = doc.diagnostics().map(|d| d.code).collect();
        assert_eq!(codes, ["D016"; 4]);
        check(
            "/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n/batch {\n}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n",
            expect![[r#"
                D016 17:1-17:9 error: Batches nest at most 16 deep - this one's actions join the enclosing batch
            "#]],
        );
    }
}
