//! Every verb, alias and form in the seed's tables and examples (seed 001,
//! "Verb Reference", "Syntax" and "Agent Instructions"), parsed with a
//! registry of `project_notes`, `meeting_notes` (long-term) and `persona`,
//! `human` (working memory). Each action is shown as its JSON without spans.

mod common;

use expect_test::{Expect, expect};

fn check(lines: &[&str], expect: Expect) {
    let text = lines.join("\n");
    expect.assert_eq(&common::show(&text));
}

/// The /recall form table, with the registry.
#[test]
fn recall_form_table() {
    check(
        &[
            "/recall project_notes",
            "/recall \"fuzzy query\"",
            "/recall + \"content\"",
            "/recall project_notes + \"content\"",
            "/recall -project_notes",
            "/recall patch project_notes ```diff\n- old line\n+ new line\n```",
            "/recall user mentioned project deadlines",
            "/recall Project_Notes",
            "/recall unknown_block",
        ],
        expect![[r#"
            > /recall project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall"}
            > /recall "fuzzy query"
            {"arguments":{"intent":"search","query":{"form":"quoted","text":"fuzzy query"},"type":"recall"},"chain":null,"intent":"search","marker":null,"verb":"recall"}
            > /recall + "content"
            {"arguments":{"content":{"form":"quoted","text":"content"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall"}
            > /recall project_notes + "content"
            {"arguments":{"block":{"text":"project_notes"},"content":{"form":"quoted","text":"content"},"intent":"append","type":"recall"},"chain":null,"intent":"append","marker":null,"verb":"recall"}
            > /recall -project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"delete","type":"recall"},"chain":null,"intent":"delete","marker":null,"verb":"recall"}
            > /recall patch project_notes ```diff
            > - old line
            > + new line
            > ```
            {"arguments":{"block":{"text":"project_notes"},"intent":"patch","patch":{"form":"fenced","lang":"diff","text":"- old line\n+ new line"},"type":"recall"},"chain":null,"intent":"patch","marker":null,"verb":"recall"}
            > /recall user mentioned project deadlines
            {"arguments":{"intent":"search","query":{"form":"unquoted","text":"user mentioned project deadlines"},"type":"recall"},"chain":null,"intent":"search","marker":null,"verb":"recall"}
            > /recall Project_Notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall"}
            > /recall unknown_block
            {"arguments":{"intent":"search","query":{"form":"unquoted","text":"unknown_block"},"type":"recall"},"chain":null,"intent":"search","marker":null,"verb":"recall"}
        "#]],
    );
}

/// Every subcommand word of /recall.
#[test]
fn recall_subcommands() {
    check(
        &[
            "/recall insert \"a\"",
            "/recall add \"a\"",
            "/recall save \"a\"",
            "/recall insert label \"a\"",
            "/recall append project_notes \"a\"",
            "/recall append project_notes + \"a\"",
            "/recall project_notes + more text",
            "/recall read project_notes",
            "/recall get project_notes",
            "/recall check project_notes",
            "/recall show project_notes",
            "/recall delete project_notes",
            "/recall remove project_notes",
            "/recall - project_notes",
            "/recall patch project_notes \"\"\"\n@@ -1 +1 @@\n\"\"\"",
            "/recall edit project_notes ```diff\n-a\n```",
        ],
        expect![[r#"
            > /recall insert "a"
            {"arguments":{"content":{"form":"quoted","text":"a"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall"}
            > /recall add "a"
            {"arguments":{"content":{"form":"quoted","text":"a"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall"}
            > /recall save "a"
            {"arguments":{"content":{"form":"quoted","text":"a"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall"}
            > /recall insert label "a"
            {"arguments":{"content":{"form":"quoted","text":"a"},"intent":"insert","label":{"text":"label"},"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall"}
            > /recall append project_notes "a"
            {"arguments":{"block":{"text":"project_notes"},"content":{"form":"quoted","text":"a"},"intent":"append","type":"recall"},"chain":null,"intent":"append","marker":null,"verb":"recall"}
            > /recall append project_notes + "a"
            {"arguments":{"block":{"text":"project_notes"},"content":{"form":"quoted","text":"a"},"intent":"append","type":"recall"},"chain":null,"intent":"append","marker":null,"verb":"recall"}
            > /recall project_notes + more text
            {"arguments":{"block":{"text":"project_notes"},"content":{"form":"unquoted","text":"more text"},"intent":"append","type":"recall"},"chain":null,"intent":"append","marker":null,"verb":"recall"}
            > /recall read project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall"}
            > /recall get project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall"}
            > /recall check project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall"}
            > /recall show project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall"}
            > /recall delete project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"delete","type":"recall"},"chain":null,"intent":"delete","marker":null,"verb":"recall"}
            > /recall remove project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"delete","type":"recall"},"chain":null,"intent":"delete","marker":null,"verb":"recall"}
            > /recall - project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"delete","type":"recall"},"chain":null,"intent":"delete","marker":null,"verb":"recall"}
            > /recall patch project_notes """
            > @@ -1 +1 @@
            > """
            {"arguments":{"block":{"text":"project_notes"},"intent":"patch","patch":{"form":"triple_quoted","text":"@@ -1 +1 @@"},"type":"recall"},"chain":null,"intent":"patch","marker":null,"verb":"recall"}
            > /recall edit project_notes ```diff
            > -a
            > ```
            {"arguments":{"block":{"text":"project_notes"},"intent":"patch","patch":{"form":"fenced","lang":"diff","text":"-a"},"type":"recall"},"chain":null,"intent":"patch","marker":null,"verb":"recall"}
        "#]],
    );
}

/// The aliases of /recall, and what each implies.
#[test]
fn recall_aliases() {
    check(
        &[
            "/remember \"the user prefers tea\"",
            "/store \"a fact\"",
            "/save the user's birthday is in May",
            "/archive \"old conversation summary\"",
            "/forget meeting_notes",
            "/store project_notes + \"more\"",
            "/get project_notes",
        ],
        expect![[r#"
            > /remember "the user prefers tea"
            {"arguments":{"content":{"form":"quoted","text":"the user prefers tea"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall","written":"remember"}
            > /store "a fact"
            {"arguments":{"content":{"form":"quoted","text":"a fact"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall","written":"store"}
            > /save the user's birthday is in May
            {"arguments":{"content":{"form":"unquoted","text":"the user's birthday is in May"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall","written":"save"}
            > /archive "old conversation summary"
            {"arguments":{"content":{"form":"quoted","text":"old conversation summary"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall","written":"archive"}
            > /forget meeting_notes
            {"arguments":{"block":{"text":"meeting_notes"},"intent":"delete","type":"recall"},"chain":null,"intent":"delete","marker":null,"verb":"recall","written":"forget"}
            > /store project_notes + "more"
            {"arguments":{"block":{"text":"project_notes"},"content":{"form":"quoted","text":"more"},"intent":"append","type":"recall"},"chain":null,"intent":"append","marker":null,"verb":"recall","written":"store"}
            > /get project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall","written":"get"}
        "#]],
    );
}

/// The /context form table and its aliases.
#[test]
fn context_forms() {
    check(
        &[
            "/context persona + \"likes tea\"",
            "/context human \"old\" -> \"new\"",
            "/context archive persona",
            "/context load meeting_notes",
            "/context swap persona meeting_notes",
            "/note human + \"prefers short answers\"",
            "/update persona \"formal\" -> \"casual\"",
        ],
        expect![[r#"
            > /context persona + "likes tea"
            {"arguments":{"block":{"text":"persona"},"content":{"form":"quoted","text":"likes tea"},"intent":"append","type":"context"},"chain":null,"intent":"append","marker":null,"verb":"context"}
            > /context human "old" -> "new"
            {"arguments":{"block":{"text":"human"},"intent":"replace","new":{"form":"quoted","text":"new"},"old":{"form":"quoted","text":"old"},"type":"context"},"chain":null,"intent":"replace","marker":null,"verb":"context"}
            > /context archive persona
            {"arguments":{"block":{"text":"persona"},"intent":"archive","type":"context"},"chain":null,"intent":"archive","marker":null,"verb":"context"}
            > /context load meeting_notes
            {"arguments":{"intent":"load","label":{"text":"meeting_notes"},"type":"context"},"chain":null,"intent":"load","marker":null,"verb":"context"}
            > /context swap persona meeting_notes
            {"arguments":{"block":{"text":"persona"},"intent":"swap","label":{"text":"meeting_notes"},"type":"context"},"chain":null,"intent":"swap","marker":null,"verb":"context"}
            > /note human + "prefers short answers"
            {"arguments":{"block":{"text":"human"},"content":{"form":"quoted","text":"prefers short answers"},"intent":"append","type":"context"},"chain":null,"intent":"append","marker":null,"verb":"context","written":"note"}
            > /update persona "formal" -> "casual"
            {"arguments":{"block":{"text":"persona"},"intent":"replace","new":{"form":"quoted","text":"casual"},"old":{"form":"quoted","text":"formal"},"type":"context"},"chain":null,"intent":"replace","marker":null,"verb":"context","written":"update"}
        "#]],
    );
}

/// remember, archive and get: resolved by the arguments.
#[test]
fn shared_word_rules() {
    check(
        &[
            "/remember persona \"old\" -> \"new\"",
            "/remember load meeting_notes",
            "/remember swap persona meeting_notes",
            "/remember archive persona",
            "/remember persona + \"likes tea\"",
            "/remember project_notes + \"more\"",
            "/remember \"a new fact\"",
            "/archive persona",
            "/archive project_notes",
            "/get https://example.com",
            "/get example.com/page html",
            "/get continue",
            "/get project_notes",
        ],
        expect![[r#"
            > /remember persona "old" -> "new"
            {"arguments":{"block":{"text":"persona"},"intent":"replace","new":{"form":"quoted","text":"new"},"old":{"form":"quoted","text":"old"},"type":"context"},"chain":null,"intent":"replace","marker":null,"verb":"context","written":"remember"}
            > /remember load meeting_notes
            {"arguments":{"intent":"load","label":{"text":"meeting_notes"},"type":"context"},"chain":null,"intent":"load","marker":null,"verb":"context","written":"remember"}
            > /remember swap persona meeting_notes
            {"arguments":{"block":{"text":"persona"},"intent":"swap","label":{"text":"meeting_notes"},"type":"context"},"chain":null,"intent":"swap","marker":null,"verb":"context","written":"remember"}
            > /remember archive persona
            {"arguments":{"block":{"text":"persona"},"intent":"archive","type":"context"},"chain":null,"intent":"archive","marker":null,"verb":"context","written":"remember"}
            > /remember persona + "likes tea"
            {"arguments":{"block":{"text":"persona"},"content":{"form":"quoted","text":"likes tea"},"intent":"append","type":"context"},"chain":null,"intent":"append","marker":null,"verb":"context","written":"remember"}
            > /remember project_notes + "more"
            {"arguments":{"block":{"text":"project_notes"},"content":{"form":"quoted","text":"more"},"intent":"append","type":"recall"},"chain":null,"intent":"append","marker":null,"verb":"recall","written":"remember"}
            > /remember "a new fact"
            {"arguments":{"content":{"form":"quoted","text":"a new fact"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall","written":"remember"}
            > /archive persona
            {"arguments":{"block":{"text":"persona"},"intent":"archive","type":"context"},"chain":null,"intent":"archive","marker":null,"verb":"context","written":"archive"}
            > /archive project_notes
            {"arguments":{"content":{"form":"unquoted","text":"project_notes"},"intent":"insert","label":null,"type":"recall"},"chain":null,"intent":"insert","marker":null,"verb":"recall","written":"archive"}
            > /get https://example.com
            {"arguments":{"intent":"markdown","type":"fetch","url":{"text":"https://example.com"}},"chain":null,"intent":"markdown","marker":null,"verb":"fetch","written":"get"}
            > /get example.com/page html
            {"arguments":{"intent":"html","type":"fetch","url":{"text":"example.com/page"}},"chain":null,"intent":"html","marker":null,"verb":"fetch","written":"get"}
            > /get continue
            {"arguments":{"intent":"continue","type":"fetch"},"chain":null,"intent":"continue","marker":null,"verb":"fetch","written":"get"}
            > /get project_notes
            {"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall","written":"get"}
        "#]],
    );
}

/// The /search form table, domain modifiers and aliases.
#[test]
fn search_forms() {
    check(
        &[
            "/search query terms",
            "/search in archival query",
            "/search in conversations query",
            "/search in constellation query",
            "/search in all query",
            "/search everywhere query",
            "/search query everywhere",
            "/search query in archival",
            "/search query > 2 weeks",
            "/search query <3d",
            "/search query >2weeks",
            "/search query role:assistant",
            "/search conversations about project",
            "/search in the docs",
            "/find deadlines",
            "/query deadlines",
            "/look deadlines",
            "/lookup deadlines",
        ],
        expect![[r#"
            > /search query terms
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"query terms"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /search in archival query
            {"arguments":{"domain":"archival","query":{"form":"unquoted","text":"query"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"archival","marker":null,"verb":"search"}
            > /search in conversations query
            {"arguments":{"domain":"conversations","query":{"form":"unquoted","text":"query"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"conversations","marker":null,"verb":"search"}
            > /search in constellation query
            {"arguments":{"domain":"constellation","query":{"form":"unquoted","text":"query"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"constellation","marker":null,"verb":"search"}
            > /search in all query
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"query"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /search everywhere query
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"query"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /search query everywhere
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"query"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /search query in archival
            {"arguments":{"domain":"archival","query":{"form":"unquoted","text":"query"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"archival","marker":null,"verb":"search"}
            > /search query > 2 weeks
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"query"},"role":null,"time":{"amount":2,"older":true,"unit":"weeks"},"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /search query <3d
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"query"},"role":null,"time":{"amount":3,"older":false,"unit":"days"},"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /search query >2weeks
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"query"},"role":null,"time":{"amount":2,"older":true,"unit":"weeks"},"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /search query role:assistant
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"query"},"role":{"text":"assistant"},"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /search conversations about project
            {"arguments":{"domain":"conversations","query":{"form":"unquoted","text":"project"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"conversations","marker":null,"verb":"search"}
            > /search in the docs
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"in the docs"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search"}
            > /find deadlines
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"deadlines"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search","written":"find"}
            > /query deadlines
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"deadlines"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search","written":"query"}
            > /look deadlines
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"deadlines"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search","written":"look"}
            > /lookup deadlines
            {"arguments":{"domain":"all","query":{"form":"unquoted","text":"deadlines"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"all","marker":null,"verb":"search","written":"lookup"}
        "#]],
    );
}

/// /send and its domains (the seed's examples).
#[test]
fn send_examples() {
    check(
        &[
            "/send @agent @entropy \"can you help break this down?\"",
            "/send @bluesky @at://did:plc:xxx/post/yyy \"replying here\"",
            "/send @discord @general \"hey everyone\"",
            "/send @user \"here's what I found\"",
            "/send @channel @ops deploy finished",
            "/send user \"no @ on the domain\"",
        ],
        expect![[r#"
            > /send @agent @entropy "can you help break this down?"
            {"arguments":{"content":{"form":"quoted","text":"can you help break this down?"},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":null,"intent":"agent","marker":null,"verb":"send"}
            > /send @bluesky @at://did:plc:xxx/post/yyy "replying here"
            {"arguments":{"content":{"form":"quoted","text":"replying here"},"domain":"bluesky","target":{"text":"at://did:plc:xxx/post/yyy"},"type":"message"},"chain":null,"intent":"bluesky","marker":null,"verb":"send"}
            > /send @discord @general "hey everyone"
            {"arguments":{"content":{"form":"quoted","text":"hey everyone"},"domain":"discord","target":{"text":"general"},"type":"message"},"chain":null,"intent":"discord","marker":null,"verb":"send"}
            > /send @user "here's what I found"
            {"arguments":{"content":{"form":"quoted","text":"here's what I found"},"domain":"user","target":null,"type":"message"},"chain":null,"intent":"user","marker":null,"verb":"send"}
            > /send @channel @ops deploy finished
            {"arguments":{"content":{"form":"unquoted","text":"deploy finished"},"domain":"channel","target":{"text":"ops"},"type":"message"},"chain":null,"intent":"channel","marker":null,"verb":"send"}
            > /send user "no @ on the domain"
            {"arguments":{"content":{"form":"quoted","text":"no @ on the domain"},"domain":"user","target":null,"type":"message"},"chain":null,"intent":"user","marker":null,"verb":"send"}
        "#]],
    );
}

/// /reply, /post, /dm, /tell (the seed's examples).
#[test]
fn shorthand_examples() {
    check(
        &[
            "/reply sounds good .",
            "/post bluesky \"thoughts on this\" ?public",
            "/dm @user \"private info\" ?",
            "/tell @anchor \"should I do this?\" ?ask",
            "/reply sounds good to me",
            "/post discord hello team",
            "/post mastodon \"hello fediverse\"",
        ],
        expect![[r#"
            > /reply sounds good .
            {"arguments":{"content":{"form":"unquoted","text":"sounds good"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":".","verb":"reply"}
            > /post bluesky "thoughts on this" ?public
            {"arguments":{"content":{"form":"quoted","text":"thoughts on this"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":"?public","verb":"post"}
            > /dm @user "private info" ?
            {"arguments":{"content":{"form":"quoted","text":"private info"},"domain":"user","target":{"text":"user"},"type":"message"},"chain":null,"intent":"user","marker":"?","verb":"dm"}
            > /tell @anchor "should I do this?" ?ask
            {"arguments":{"content":{"form":"quoted","text":"should I do this?"},"domain":"agent","target":{"text":"anchor"},"type":"message"},"chain":null,"intent":"agent","marker":"?ask","verb":"tell"}
            > /reply sounds good to me
            {"arguments":{"content":{"form":"unquoted","text":"sounds good to me"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}
            > /post discord hello team
            {"arguments":{"content":{"form":"unquoted","text":"hello team"},"domain":"discord","target":null,"type":"message"},"chain":null,"intent":"discord","marker":null,"verb":"post"}
            > /post mastodon "hello fediverse"
            {"arguments":{"content":{"form":"quoted","text":"hello fediverse"},"domain":"mastodon","target":null,"type":"message"},"chain":null,"intent":"mastodon","marker":null,"verb":"post"}
        "#]],
    );
}

/// Every content form of the seed.
#[test]
fn content_blocks() {
    check(
        &[
            "/post bluesky \"single line content\"",
            "/post bluesky \"\"\"\nmulti-line\ncontent\n\"\"\"",
            "/post bluesky ```\ncode block style\n```",
            "/post bluesky\n> block quote\n> also works",
            "/post bluesky ?public\n> marker before the quote",
            "/reply “curly quotes”",
            "/reply \"escaped \\\"quotes\\\" and \\\\ backslash\"",
            "/post bluesky \"\"\"inline triple\"\"\" !",
            "/post bluesky ~~~md\n# title\n~~~ ?public -> /reply posted",
        ],
        expect![[r##"
            > /post bluesky "single line content"
            {"arguments":{"content":{"form":"quoted","text":"single line content"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":null,"verb":"post"}
            > /post bluesky """
            > multi-line
            > content
            > """
            {"arguments":{"content":{"form":"triple_quoted","text":"multi-line\ncontent"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":null,"verb":"post"}
            > /post bluesky ```
            > code block style
            > ```
            {"arguments":{"content":{"form":"fenced","text":"code block style"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":null,"verb":"post"}
            > /post bluesky
            > > block quote
            > > also works
            {"arguments":{"content":{"form":"block_quote","text":"block quote\nalso works"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":null,"verb":"post"}
            > /post bluesky ?public
            > > marker before the quote
            {"arguments":{"content":{"form":"block_quote","text":"marker before the quote"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":"?public","verb":"post"}
            > /reply “curly quotes”
            {"arguments":{"content":{"form":"quoted","text":"curly quotes"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}
            > /reply "escaped \"quotes\" and \\ backslash"
            {"arguments":{"content":{"form":"quoted","text":"escaped \"quotes\" and \\ backslash"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}
            > /post bluesky """inline triple""" !
            {"arguments":{"content":{"form":"triple_quoted","text":"inline triple"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":"!","verb":"post"}
            > /post bluesky ~~~md
            > # title
            > ~~~ ?public -> /reply posted
            {"arguments":{"content":{"form":"fenced","lang":"md","text":"# title"},"domain":"bluesky","target":null,"type":"message"},"chain":{"arguments":{"content":{"form":"unquoted","text":"posted"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"},"intent":"bluesky","marker":"?public","verb":"post"}
        "##]],
    );
}

/// /fetch, /web and their aliases.
#[test]
fn external() {
    check(
        &[
            "/fetch https://example.com",
            "/fetch https://example.com html",
            "/fetch continue",
            "/fetch @[https://example.com/a b]",
            "/web rust async patterns",
            "/web site:docs.rs tokio runtime",
            "/search web rust async",
            "/google rust async",
            "/look up rust async",
        ],
        expect![[r#"
            > /fetch https://example.com
            {"arguments":{"intent":"markdown","type":"fetch","url":{"text":"https://example.com"}},"chain":null,"intent":"markdown","marker":null,"verb":"fetch"}
            > /fetch https://example.com html
            {"arguments":{"intent":"html","type":"fetch","url":{"text":"https://example.com"}},"chain":null,"intent":"html","marker":null,"verb":"fetch"}
            > /fetch continue
            {"arguments":{"intent":"continue","type":"fetch"},"chain":null,"intent":"continue","marker":null,"verb":"fetch"}
            > /fetch @[https://example.com/a b]
            {"arguments":{"intent":"markdown","type":"fetch","url":{"text":"https://example.com/a b"}},"chain":null,"intent":"markdown","marker":null,"verb":"fetch"}
            > /web rust async patterns
            {"arguments":{"query":{"form":"unquoted","text":"rust async patterns"},"sites":[],"type":"web"},"chain":null,"intent":null,"marker":null,"verb":"web"}
            > /web site:docs.rs tokio runtime
            {"arguments":{"query":{"form":"unquoted","text":"site:docs.rs tokio runtime"},"sites":[{"text":"docs.rs"}],"type":"web"},"chain":null,"intent":null,"marker":null,"verb":"web"}
            > /search web rust async
            {"arguments":{"query":{"form":"unquoted","text":"rust async"},"sites":[],"type":"web"},"chain":null,"intent":null,"marker":null,"verb":"web","written":"search web"}
            > /google rust async
            {"arguments":{"query":{"form":"unquoted","text":"rust async"},"sites":[],"type":"web"},"chain":null,"intent":null,"marker":null,"verb":"web","written":"google"}
            > /look up rust async
            {"arguments":{"query":{"form":"unquoted","text":"rust async"},"sites":[],"type":"web"},"chain":null,"intent":null,"marker":null,"verb":"web","written":"look up"}
        "#]],
    );
}

/// /calc and /data.
#[test]
fn utilities() {
    check(
        &[
            "/calc 5 feet to meters",
            "/calc radius = 5; pi * radius^2",
            "/calc 20% of 350",
            "/calculate 2+2",
            "/compute 3*3",
            "/math 1/3",
            "/data list",
            "/data read source_id",
            "/data search source_id \"query\"",
            "/data monitor source_id",
            "/data pause source_id",
        ],
        expect![[r#"
            > /calc 5 feet to meters
            {"arguments":{"expression":{"form":"unquoted","text":"5 feet to meters"},"type":"calc"},"chain":null,"intent":null,"marker":null,"verb":"calc"}
            > /calc radius = 5; pi * radius^2
            {"arguments":{"expression":{"form":"unquoted","text":"radius = 5; pi * radius^2"},"type":"calc"},"chain":null,"intent":null,"marker":null,"verb":"calc"}
            > /calc 20% of 350
            {"arguments":{"expression":{"form":"unquoted","text":"20% of 350"},"type":"calc"},"chain":null,"intent":null,"marker":null,"verb":"calc"}
            > /calculate 2+2
            {"arguments":{"expression":{"form":"unquoted","text":"2+2"},"type":"calc"},"chain":null,"intent":null,"marker":null,"verb":"calc","written":"calculate"}
            > /compute 3*3
            {"arguments":{"expression":{"form":"unquoted","text":"3*3"},"type":"calc"},"chain":null,"intent":null,"marker":null,"verb":"calc","written":"compute"}
            > /math 1/3
            {"arguments":{"expression":{"form":"unquoted","text":"1/3"},"type":"calc"},"chain":null,"intent":null,"marker":null,"verb":"calc","written":"math"}
            > /data list
            {"arguments":{"intent":"list","type":"data"},"chain":null,"intent":"list","marker":null,"verb":"data"}
            > /data read source_id
            {"arguments":{"intent":"read","source":{"text":"source_id"},"type":"data"},"chain":null,"intent":"read","marker":null,"verb":"data"}
            > /data search source_id "query"
            {"arguments":{"intent":"search","query":{"form":"quoted","text":"query"},"source":{"text":"source_id"},"type":"data"},"chain":null,"intent":"search","marker":null,"verb":"data"}
            > /data monitor source_id
            {"arguments":{"intent":"monitor","source":{"text":"source_id"},"type":"data"},"chain":null,"intent":"monitor","marker":null,"verb":"data"}
            > /data pause source_id
            {"arguments":{"intent":"pause","source":{"text":"source_id"},"type":"data"},"chain":null,"intent":"pause","marker":null,"verb":"data"}
        "#]],
    );
}

/// /approve, /deny, /escalate, /cancel and their aliases.
#[test]
fn authority() {
    check(
        &[
            "/approve [request-id]",
            "/approve [request-id] always",
            "/approve",
            "/allow req-1",
            "/permit req-1",
            "/ok req-1",
            "/yes",
            "/deny [request-id]",
            "/deny [request-id] \"reason\"",
            "/deny [request-id] always",
            "/deny req-9 spam link",
            "/reject req-1",
            "/block req-1",
            "/no",
            "/escalate [request-id]",
            "/escalate [request-id] \"this needs human review\"",
            "/escalate \"content seems political, above my pay grade\"",
            "/cancel",
            "/cancel [request-id]",
            "/abort",
            "/nevermind",
            "/stop req-3",
        ],
        expect![[r#"
            > /approve [request-id]
            {"arguments":{"always":false,"reason":null,"request":{"text":"request-id"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"approve"}
            > /approve [request-id] always
            {"arguments":{"always":true,"reason":null,"request":{"text":"request-id"},"type":"decision"},"chain":null,"intent":"always","marker":null,"verb":"approve"}
            > /approve
            {"arguments":{"always":false,"reason":null,"request":null,"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"approve"}
            > /allow req-1
            {"arguments":{"always":false,"reason":null,"request":{"text":"req-1"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"approve","written":"allow"}
            > /permit req-1
            {"arguments":{"always":false,"reason":null,"request":{"text":"req-1"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"approve","written":"permit"}
            > /ok req-1
            {"arguments":{"always":false,"reason":null,"request":{"text":"req-1"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"approve","written":"ok"}
            > /yes
            {"arguments":{"always":false,"reason":null,"request":null,"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"approve","written":"yes"}
            > /deny [request-id]
            {"arguments":{"always":false,"reason":null,"request":{"text":"request-id"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"deny"}
            > /deny [request-id] "reason"
            {"arguments":{"always":false,"reason":{"form":"quoted","text":"reason"},"request":{"text":"request-id"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"deny"}
            > /deny [request-id] always
            {"arguments":{"always":true,"reason":null,"request":{"text":"request-id"},"type":"decision"},"chain":null,"intent":"always","marker":null,"verb":"deny"}
            > /deny req-9 spam link
            {"arguments":{"always":false,"reason":{"form":"unquoted","text":"spam link"},"request":{"text":"req-9"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"deny"}
            > /reject req-1
            {"arguments":{"always":false,"reason":null,"request":{"text":"req-1"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"deny","written":"reject"}
            > /block req-1
            {"arguments":{"always":false,"reason":null,"request":{"text":"req-1"},"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"deny","written":"block"}
            > /no
            {"arguments":{"always":false,"reason":null,"request":null,"type":"decision"},"chain":null,"intent":"once","marker":null,"verb":"deny","written":"no"}
            > /escalate [request-id]
            {"arguments":{"reason":null,"request":{"text":"request-id"},"type":"escalate"},"chain":null,"intent":null,"marker":null,"verb":"escalate"}
            > /escalate [request-id] "this needs human review"
            {"arguments":{"reason":{"form":"quoted","text":"this needs human review"},"request":{"text":"request-id"},"type":"escalate"},"chain":null,"intent":null,"marker":null,"verb":"escalate"}
            > /escalate "content seems political, above my pay grade"
            {"arguments":{"reason":{"form":"quoted","text":"content seems political, above my pay grade"},"request":null,"type":"escalate"},"chain":null,"intent":null,"marker":null,"verb":"escalate"}
            > /cancel
            {"arguments":{"request":null,"type":"cancel"},"chain":null,"intent":"chain","marker":null,"verb":"cancel"}
            > /cancel [request-id]
            {"arguments":{"request":{"text":"request-id"},"type":"cancel"},"chain":null,"intent":"request","marker":null,"verb":"cancel"}
            > /abort
            {"arguments":{"request":null,"type":"cancel"},"chain":null,"intent":"chain","marker":null,"verb":"cancel","written":"abort"}
            > /nevermind
            {"arguments":{"request":null,"type":"cancel"},"chain":null,"intent":"chain","marker":null,"verb":"cancel","written":"nevermind"}
            > /stop req-3
            {"arguments":{"request":{"text":"req-3"},"type":"cancel"},"chain":null,"intent":"request","marker":null,"verb":"cancel","written":"stop"}
        "#]],
    );
}

/// /halt and /uncertain.
#[test]
fn emergency_and_uncertain() {
    check(
        &[
            "/halt \"reason for emergency stop\" !",
            "/uncertain \"this looks like sarcasm but I can't tell\"",
        ],
        expect![[r#"
            > /halt "reason for emergency stop" !
            {"arguments":{"reason":{"form":"quoted","text":"reason for emergency stop"},"type":"halt"},"chain":null,"intent":null,"marker":"!","verb":"halt"}
            > /uncertain "this looks like sarcasm but I can't tell"
            {"arguments":{"note":{"form":"quoted","text":"this looks like sarcasm but I can't tell"},"type":"uncertain"},"chain":null,"intent":null,"marker":null,"verb":"uncertain"}
        "#]],
    );
}

/// Every reference of the seed, where an argument is expected.
#[test]
fn references() {
    check(
        &[
            "/tell @entropy @last",
            "/tell @entropy @last.message",
            "/tell @entropy @last.output",
            "/reply @thread",
            "/recall @parent",
            "/fetch @[https://example.com]",
            "/tell @entropy that",
            "/post bluesky this",
            "/reply it",
            "/reply I like that",
            "/send @agent @parent \"to whoever sent it\"",
        ],
        expect![[r#"
            > /tell @entropy @last
            {"arguments":{"content":{"form":"reference","reference":{"ref":"last.message"},"text":"@last"},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":null,"intent":"agent","marker":null,"verb":"tell"}
            > /tell @entropy @last.message
            {"arguments":{"content":{"form":"reference","reference":{"ref":"last.message"},"text":"@last.message"},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":null,"intent":"agent","marker":null,"verb":"tell"}
            > /tell @entropy @last.output
            {"arguments":{"content":{"form":"reference","reference":{"ref":"last.output"},"text":"@last.output"},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":null,"intent":"agent","marker":null,"verb":"tell"}
            > /reply @thread
            {"arguments":{"content":{"form":"reference","reference":{"ref":"thread"},"text":"@thread"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}
            > /recall @parent
            {"arguments":{"intent":"search","query":{"form":"reference","reference":{"ref":"parent"},"text":"@parent"},"type":"recall"},"chain":null,"intent":"search","marker":null,"verb":"recall"}
            > /fetch @[https://example.com]
            {"arguments":{"intent":"markdown","type":"fetch","url":{"text":"https://example.com"}},"chain":null,"intent":"markdown","marker":null,"verb":"fetch"}
            > /tell @entropy that
            {"arguments":{"content":{"form":"reference","reference":{"ref":"that"},"text":"that"},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":null,"intent":"agent","marker":null,"verb":"tell"}
            > /post bluesky this
            {"arguments":{"content":{"form":"reference","reference":{"ref":"this"},"text":"this"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":null,"verb":"post"}
            > /reply it
            {"arguments":{"content":{"form":"reference","reference":{"ref":"it"},"text":"it"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}
            > /reply I like that
            {"arguments":{"content":{"form":"unquoted","text":"I like that"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}
            > /send @agent @parent "to whoever sent it"
            {"arguments":{"content":{"form":"quoted","text":"to whoever sent it"},"domain":"agent","target":{"text":"parent"},"type":"message"},"chain":null,"intent":"agent","marker":null,"verb":"send"}
        "#]],
    );
}

/// Every permission marker and where it may stand.
#[test]
fn markers() {
    check(
        &[
            "/reply ok",
            "/reply ok .",
            "/reply ok ?",
            "/reply ok ?ask",
            "/reply ok !",
            "/reply ok ?public",
            "/reply sounds good.",
            "/reply \"quoted\"?",
            "/cancel!",
            "/post bluesky ?public \"\"\"\nmarker before the opener\n\"\"\"",
            "/recall notes ? -> /tell @entropy !",
        ],
        expect![[r#"
            > /reply ok
            {"arguments":{"content":{"form":"unquoted","text":"ok"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}
            > /reply ok .
            {"arguments":{"content":{"form":"unquoted","text":"ok"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":".","verb":"reply"}
            > /reply ok ?
            {"arguments":{"content":{"form":"unquoted","text":"ok"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":"?","verb":"reply"}
            > /reply ok ?ask
            {"arguments":{"content":{"form":"unquoted","text":"ok"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":"?ask","verb":"reply"}
            > /reply ok !
            {"arguments":{"content":{"form":"unquoted","text":"ok"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":"!","verb":"reply"}
            > /reply ok ?public
            {"arguments":{"content":{"form":"unquoted","text":"ok"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":"?public","verb":"reply"}
            > /reply sounds good.
            {"arguments":{"content":{"form":"unquoted","text":"sounds good."},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}
            > /reply "quoted"?
            {"arguments":{"content":{"form":"quoted","text":"quoted"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":"?","verb":"reply"}
            > /cancel!
            {"arguments":{"request":null,"type":"cancel"},"chain":null,"intent":"chain","marker":"!","verb":"cancel"}
            > /post bluesky ?public """
            > marker before the opener
            > """
            {"arguments":{"content":{"form":"triple_quoted","text":"marker before the opener"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":"?public","verb":"post"}
            > /recall notes ? -> /tell @entropy !
            {"arguments":{"intent":"search","query":{"form":"unquoted","text":"notes"},"type":"recall"},"chain":{"arguments":{"content":{"form":"reference","reference":{"ref":"last.output"},"text":""},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":null,"intent":"agent","marker":"!","verb":"tell"},"intent":"search","marker":"?","verb":"recall"}
        "#]],
    );
}

/// Chains: one action, links resolved one by one.
#[test]
fn chains() {
    check(
        &[
            "/action1 -> /action2 -> /action3",
            "/recall meeting notes -> /summarize -> /tell @entropy",
            "/recall meeting notes -> /tell @entropy",
            "/recall notes ->\n/tell @entropy\n  -> /reply done",
            "/context persona \"old\" -> \"new\" -> /reply updated",
            "/post bluesky \"\"\"\nlong\n\"\"\" -> /reply posted",
        ],
        expect![[r#"
            > /action1 -> /action2 -> /action3
            null
            D001 error: I don't know the verb /action1 - the common ones are /recall, /search, /reply, /post and /tell
            D001 error: I don't know the verb /action2 - the common ones are /recall, /search, /reply, /post and /tell
            D001 error: I don't know the verb /action3 - the common ones are /recall, /search, /reply, /post and /tell
            > /recall meeting notes -> /summarize -> /tell @entropy
            {"arguments":{"intent":"search","query":{"form":"unquoted","text":"meeting notes"},"type":"recall"},"chain":null,"intent":"search","marker":null,"verb":"recall"}
            D001 error: I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell
            > /recall meeting notes -> /tell @entropy
            {"arguments":{"intent":"search","query":{"form":"unquoted","text":"meeting notes"},"type":"recall"},"chain":{"arguments":{"content":{"form":"reference","reference":{"ref":"last.output"},"text":""},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":null,"intent":"agent","marker":null,"verb":"tell"},"intent":"search","marker":null,"verb":"recall"}
            > /recall notes ->
            > /tell @entropy
            >   -> /reply done
            {"arguments":{"intent":"search","query":{"form":"unquoted","text":"notes"},"type":"recall"},"chain":{"arguments":{"content":{"form":"reference","reference":{"ref":"last.output"},"text":""},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":{"arguments":{"content":{"form":"unquoted","text":"done"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"},"intent":"agent","marker":null,"verb":"tell"},"intent":"search","marker":null,"verb":"recall"}
            > /context persona "old" -> "new" -> /reply updated
            {"arguments":{"block":{"text":"persona"},"intent":"replace","new":{"form":"quoted","text":"new"},"old":{"form":"quoted","text":"old"},"type":"context"},"chain":{"arguments":{"content":{"form":"unquoted","text":"updated"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"},"intent":"replace","marker":null,"verb":"context"}
            > /post bluesky """
            > long
            > """ -> /reply posted
            {"arguments":{"content":{"form":"triple_quoted","text":"long"},"domain":"bluesky","target":null,"type":"message"},"chain":{"arguments":{"content":{"form":"unquoted","text":"posted"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"},"intent":"bluesky","marker":null,"verb":"post"}
        "#]],
    );
}

/// The examples of the seed's agent instructions.
#[test]
fn agent_instructions() {
    check(
        &[
            "/recall project deadlines",
            "/reply sounds good .",
            "/post bluesky \"hello\" ?public",
            "/recall meeting notes -> /summarize -> /tell @entropy",
        ],
        expect![[r#"
            > /recall project deadlines
            {"arguments":{"intent":"search","query":{"form":"unquoted","text":"project deadlines"},"type":"recall"},"chain":null,"intent":"search","marker":null,"verb":"recall"}
            > /reply sounds good .
            {"arguments":{"content":{"form":"unquoted","text":"sounds good"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":".","verb":"reply"}
            > /post bluesky "hello" ?public
            {"arguments":{"content":{"form":"quoted","text":"hello"},"domain":"bluesky","target":null,"type":"message"},"chain":null,"intent":"bluesky","marker":"?public","verb":"post"}
            > /recall meeting notes -> /summarize -> /tell @entropy
            {"arguments":{"intent":"search","query":{"form":"unquoted","text":"meeting notes"},"type":"recall"},"chain":null,"intent":"search","marker":null,"verb":"recall"}
            D001 error: I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell
        "#]],
    );
}

/// /batch { ... } (the seed's example, and a chain after it).
#[test]
fn batch() {
    check(
        &[
            "/batch {\n  /recall project_notes\n  /search conversations about project\n  /fetch https://project-docs.example.com\n}",
            "/batch ? {\n  /reply one\n  /batch {\n    /reply two\n  }\n} -> /tell @entropy !",
        ],
        expect![[r#"
            > /batch {
            >   /recall project_notes
            >   /search conversations about project
            >   /fetch https://project-docs.example.com
            > }
            {"arguments":{"actions":[{"arguments":{"block":{"text":"project_notes"},"intent":"read","type":"recall"},"chain":null,"intent":"read","marker":null,"verb":"recall"},{"arguments":{"domain":"conversations","query":{"form":"unquoted","text":"project"},"role":null,"time":null,"type":"search"},"chain":null,"intent":"conversations","marker":null,"verb":"search"},{"arguments":{"intent":"markdown","type":"fetch","url":{"text":"https://project-docs.example.com"}},"chain":null,"intent":"markdown","marker":null,"verb":"fetch"}],"type":"batch"},"chain":null,"intent":null,"marker":null,"verb":"batch"}
            > /batch ? {
            >   /reply one
            >   /batch {
            >     /reply two
            >   }
            > } -> /tell @entropy !
            {"arguments":{"actions":[{"arguments":{"content":{"form":"unquoted","text":"one"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"},{"arguments":{"actions":[{"arguments":{"content":{"form":"unquoted","text":"two"},"domain":"thread","target":null,"type":"message"},"chain":null,"intent":"thread","marker":null,"verb":"reply"}],"type":"batch"},"chain":null,"intent":null,"marker":null,"verb":"batch"}],"type":"batch"},"chain":{"arguments":{"content":{"form":"reference","reference":{"ref":"last.output"},"text":""},"domain":"agent","target":{"text":"entropy"},"type":"message"},"chain":null,"intent":"agent","marker":"!","verb":"tell"},"intent":null,"marker":"?","verb":"batch"}
        "#]],
    );
}
