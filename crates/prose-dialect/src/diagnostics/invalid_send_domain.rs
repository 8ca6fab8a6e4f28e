//! # D007 `invalid-send-domain`
//!
//! **/send without a valid domain.** `/send` must name its domain first:
//! `@user`, `@agent`, `@channel`, `@bluesky` or `@discord`.
//!
//! ## Why is this bad?
//! The domain decides where the message goes and which permission rules
//! apply. A near miss gets a fix (`@blusky` → `@bluesky`).
//!
//! ## Example
//! ```dialect
//! /send @blusky @at://did:plc:xxx/post/yyy "replying here"
//! ```
//!
//! ## Fix
//! ```dialect
//! /send @bluesky @at://did:plc:xxx/post/yyy "replying here"
//! ```
//!
//! The `@` may be left out (`/send agent @entropy "..."`).

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D007",
    name: "invalid-send-domain",
    summary: "/send without a valid domain",
    severity: Severity::Error,
    source: include_str!("invalid_send_domain.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn missing_and_unknown() {
        check(
            "/send \"hi\"\n/send\n/send @blusky @x \"hi\"\n/send @mars @x \"hi\"\n/send agent @entropy hi\n",
            expect![[r#"
                D007 1:7-1:7 error: /send needs a domain first: @user, @agent, @channel, @bluesky or @discord - where should this go?
                D007 2:6-2:6 error: /send needs a domain first: @user, @agent, @channel, @bluesky or @discord - where should this go?
                D007 3:7-3:14 error: I don't know the domain `@blusky` - did you mean @bluesky? The domains are @user, @agent, @channel, @bluesky or @discord
                  fix 3:7-3:14: Use @bluesky => "@bluesky"
                D007 4:7-4:12 error: I don't know the domain `@mars` - the domains are @user, @agent, @channel, @bluesky or @discord
            "#]],
        );
    }
}
