//! # D010 `missing-argument`
//!
//! **Missing argument.** The verb needs something that is not there: a
//! query, a block, content, a URL, a source.
//!
//! ## Why is this bad?
//! The action cannot run without it. The message says what is missing and
//! shows the form to use.
//!
//! ## Example
//! ```dialect
//! /recall
//! /fetch
//! /post bluesky
//! ```
//!
//! ## Fix
//! ```dialect
//! /recall project deadlines
//! /fetch https://example.com
//! /post bluesky "hello"
//! ```
//!
//! In a chain, a message without content is not missing anything: it sends
//! the previous action's output (`/recall notes -> /tell @entropy`).

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D010",
    name: "missing-argument",
    summary: "Missing argument",
    severity: Severity::Error,
    source: include_str!("missing_argument.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn each_verb() {
        check(
            "/recall\n/recall + \n/recall notes +\n/recall patch notes\n/context\n/context \"x\"\n/context persona\n/search\n/search in archival\n/reply\n/post\n/post \"hi\"\n/fetch\n/web\n/calc\n/data\n/data read\n/data search src\n/uncertain\n/batch\n",
            expect![[r#"
                D010 1:8-1:8 error: What should I recall? Give a block name or a query: /recall project deadlines
                D010 2:10-2:10 error: What should I store? Give the content: /recall + "..."
                D010 3:16-3:16 error: What should I append to notes? Give the content: /recall notes + "..."
                D010 4:20-4:20 error: A patch needs the edit: /recall patch block_name ```diff ... ```
                D010 5:9-5:9 error: Which block, and what should change? /context persona + "..." appends, /context persona "old" -> "new" replaces
                D010 6:10-6:10 error: Which block should this go in? Name it first: /context block_name + "..."
                D010 7:17-7:17 error: What should I do with persona? Append with /context persona + "...", or replace with /context persona "old" -> "new"
                D010 8:8-8:8 error: What should I search for? /search project deadlines
                D010 9:20-9:20 error: What should I search for? /search project deadlines
                D010 10:7-10:7 error: What should I say? Add the message, e.g. "sounds good"
                D010 11:6-11:6 error: Where should I post - bluesky or discord? /post bluesky "..."
                D010 12:7-12:7 error: Where should I post this? Name the platform first: /post bluesky "..."
                D010 13:7-13:7 error: What should I fetch? Give a URL: /fetch https://example.com
                D010 14:5-14:5 error: What should I search the web for? /web rust async patterns
                D010 15:6-15:6 error: What should I calculate? /calc 20% of 350
                D010 16:6-16:6 error: Which data operation? list, read, search, monitor or pause: /data list
                D010 17:11-17:11 error: Which source? Name it: /data read source_id (see /data list)
                D010 18:17-18:17 error: What should I search for in the source? /data search source_id "query"
                D010 19:11-19:11 error: What are you unsure about? /uncertain "this looks like sarcasm but I can't tell"
                D010 20:7-20:7 error: A batch needs its actions: end the line with `{`, put one action per line, and close with `}` on its own line
            "#]],
        );
    }

    #[test]
    fn the_other_forms() {
        check(
            "/forget\n/remember\n/recall append\n/context persona +\n/context human -> \"new\"\n/context swap persona\n/context load\n",
            expect![[r#"
                D010 1:8-1:8 error: What should I forget? Name the block: /forget block_name
                D010 2:10-2:10 error: What should I remember? Give the content: /recall + "..."
                D010 3:15-3:15 error: Which block should I append to? Name it after the subcommand
                D010 4:19-4:19 error: What should I add to persona? Give the content: /context persona + "..."
                D010 5:18-5:18 error: A replacement needs the old text and the new: /context block "old" -> "new"
                D010 6:22-6:22 error: Which block should I swap in?
                D010 7:14-7:14 error: Which block should I load?
            "#]],
        );
    }

    #[test]
    fn no_action_at_all() {
        let p = crate::parse("just prose\n");
        assert_eq!(p.action, None);
        let d = p.error().unwrap();
        assert_eq!(
            (d.code, d.message.as_str(), d.span),
            (
                "D001",
                "I don't see an action here - actions start with /, like /recall project deadlines",
                crate::Span::new(0, 10)
            )
        );
    }
}
