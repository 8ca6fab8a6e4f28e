//! # D011 `unexpected-argument`
//!
//! **Unexpected argument.** Words the verb's signature has no place for:
//! text after a quoted content, a second content block, extra words after a
//! block name or request id, an unknown subcommand.
//!
//! ## Why is this bad?
//! The agent meant something by them, and running the action without them
//! might not be what it meant.
//!
//! ## Example
//! ```dialect
//! /approve req-42 because it looks fine
//! ```
//!
//! ## Fix
//! ```dialect
//! /approve req-42
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D011",
    name: "unexpected-argument",
    summary: "Unexpected argument",
    severity: Severity::Error,
    source: include_str!("unexpected_argument.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn each_verb() {
        check(
            "/post bluesky \"hi\" there\n/recall -notes extra\n/approve req-1 now\n/cancel req-1 now\n/fetch https://x.com pdf\n/data frobnicate\n/data lst\n/batch { /recall x }\n/context persona stuff\n",
            expect![[r#"
                D011 1:20-1:25 error: I didn't understand `there` after the content - leave it out, or quote it if it belongs to the content
                D011 2:16-2:21 error: I didn't understand `extra` after the block to delete - leave it out, or quote it if it belongs to the content
                D011 3:16-3:19 error: I didn't understand `now` - /approve takes a request id and `always`, nothing else
                D011 4:15-4:18 error: I didn't understand `now` - /cancel takes at most a request id
                D011 5:22-5:25 error: I didn't understand `pdf` after the URL - the formats are markdown (the default) and html
                D011 6:7-6:17 error: I don't know `/data frobnicate` - the operations are list, read, search, monitor and pause
                D011 7:7-7:10 error: I don't know `/data lst` - did you mean list? The operations are list, read, search, monitor and pause
                D011 8:8-8:21 error: I didn't understand `{ /recall x }` - put each action of a batch on its own line, between `/batch {` and `}`
                D011 9:18-9:23 error: I didn't understand `stuff` after persona - use /context persona + "..." to append, or /context persona "old" -> "new" to replace
            "#]],
        );
    }

    #[test]
    fn after_blocks_sources_and_batches() {
        check(
            "/context archive persona now\n/context load x y\n/context swap a b c\n/data read src extra\n/batch {\n/reply a\n} extra words\n/batch ! {\n} ?\n",
            expect![[r#"
                D011 1:26-1:29 error: I didn't understand `now` after the block to archive - leave it out, or quote it if it belongs to the content
                D011 2:17-2:18 error: I didn't understand `y` after the block to load - leave it out, or quote it if it belongs to the content
                D011 3:19-3:20 error: I didn't understand `c` after the two blocks to swap - leave it out, or quote it if it belongs to the content
                D011 4:16-4:21 error: I didn't understand `extra` after the source to read - leave it out, or quote it if it belongs to the content
                D011 7:3-7:14 error: I didn't understand `extra words` after the batch's `}` - leave it out, or quote it if it belongs to the content
                D005 8:1-9:4 error: Two permission markers (`!` and `?`) - keep the one you mean
            "#]],
        );
    }
}
