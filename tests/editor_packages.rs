//! The editor packages agree with the contracts: the Helix snippet parses
//! and names the right command, file types, comment token and indent; the
//! VS Code extension contributes the language ids of docs/languages.md,
//! registers grammars that exist, keeps its command ids apart from the
//! server's, and marks as restricted exactly the settings that name an
//! executable, arguments, an endpoint or environment variables; every
//! setting it passes is in the "Editor settings" table of docs/lsp.md.
//! (The editors themselves are tested by editors/test.sh.)

use std::{collections::BTreeSet, fs, path::Path};

use serde_json::Value;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn strings(value: &toml::Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Table(t) => format!("glob:{}", t["glob"].as_str().unwrap()),
            other => panic!("unexpected {other:?}"),
        })
        .collect()
}

fn helix_language<'a>(config: &'a toml::Value, name: &str) -> &'a toml::Value {
    config["language"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no [[language]] {name}"))
}

#[test]
fn helix_snippet_parses_and_names_the_server_and_file_types() {
    let config: toml::Value = toml::from_str(&read("editors/helix/languages.toml")).unwrap();
    assert_eq!(
        config["language-server"]["prose-lsp"]["command"].as_str(),
        Some("prose-lsp")
    );
    let prose = helix_language(&config, "prose");
    assert_eq!(strings(&prose["file-types"]), ["prose"]);
    assert_eq!(prose["comment-token"].as_str(), Some("#"));
    assert_eq!(prose["indent"]["unit"].as_str(), Some("  "));
    assert_eq!(prose["indent"]["tab-width"].as_integer(), Some(2));
    assert_eq!(strings(&prose["language-servers"]), ["prose-lsp"]);
    assert_eq!(strings(&prose["roots"]), ["prose.toml", ".prose"]);
    let dialect = helix_language(&config, "dialect");
    assert_eq!(strings(&dialect["file-types"]), ["dialect"]);
    assert_eq!(strings(&dialect["language-servers"]), ["prose-lsp"]);
    let jobs = helix_language(&config, "prose-jobs");
    assert_eq!(
        strings(&jobs["file-types"]),
        ["glob:*.jobs.json", "glob:jobs.json"]
    );
    assert_eq!(jobs["language-id"].as_str(), Some("json"));
    assert_eq!(strings(&jobs["language-servers"]), ["prose-lsp"]);
}

fn vscode_manifest() -> Value {
    serde_json::from_str(&read("editors/vscode/package.json")).unwrap()
}

#[test]
fn vscode_languages_follow_the_document_kinds_contract() {
    let manifest = vscode_manifest();
    let languages = manifest["contributes"]["languages"].as_array().unwrap();
    let extensions = |id: &str| -> Vec<String> {
        let language = languages.iter().find(|l| l["id"] == id).unwrap();
        language["extensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(extensions("prose"), [".prose"]);
    assert_eq!(extensions("prose-dialect"), [".dialect"]);
    // Job entries and markdown keep VS Code's own language ids.
    assert_eq!(languages.len(), 2);
    let selector = read("editors/vscode/src/client.ts");
    for needle in [
        "language: \"prose\"",
        "language: \"prose-dialect\"",
        "language: \"markdown\"",
        "\"json\", \"jsonc\"",
        "\"**/*.jobs.json\", \"**/jobs.json\"",
    ] {
        assert!(selector.contains(needle), "client.ts selects {needle}");
    }
}

#[test]
fn vscode_grammars_exist_and_match_their_scope_names() {
    let manifest = vscode_manifest();
    for grammar in manifest["contributes"]["grammars"].as_array().unwrap() {
        let path = grammar["path"].as_str().unwrap();
        let file = path.strip_prefix("./syntaxes/").expect("under syntaxes/");
        let text = read(&format!("syntaxes/{file}"));
        let json: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["scopeName"], grammar["scopeName"], "{file}");
    }
}

#[test]
fn vscode_command_ids_differ_from_the_servers() {
    let manifest = vscode_manifest();
    let server = [
        "prose.run",
        "prose.dryRun",
        "prose.cancelRun",
        "prose.revealErrors",
        "prose.showTaskPrompt",
        "prose.runTask",
        "prose.dryRunTask",
        "prose.showModelView",
    ];
    for command in manifest["contributes"]["commands"].as_array().unwrap() {
        let id = command["command"].as_str().unwrap();
        assert!(id.starts_with("prose.client."), "{id}");
        assert!(!server.contains(&id));
    }
}

#[test]
fn vscode_restricted_settings_are_those_naming_programs_or_endpoints() {
    let manifest = vscode_manifest();
    let restricted: BTreeSet<&str> =
        manifest["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
    assert_eq!(
        manifest["capabilities"]["untrustedWorkspaces"]["supported"],
        "limited"
    );
    let properties = manifest["contributes"]["configuration"]["properties"]
        .as_object()
        .unwrap();
    let lsp_md = read("docs/lsp.md");
    let docs = &lsp_md[lsp_md
        .find("## Editor settings")
        .expect("the Editor settings section")..];
    for (key, schema) in properties {
        let says_restricted = schema["markdownDescription"]
            .as_str()
            .is_some_and(|d| d.contains("Restricted"));
        assert_eq!(
            restricted.contains(key.as_str()),
            says_restricted,
            "{key}: restrictedConfigurations and its description disagree"
        );
        // Every setting passed to the server is in docs/lsp.md's table.
        if let Some(server_key) = key.strip_prefix("prose.")
            && !server_key.starts_with("server.")
            && !server_key.starts_with("trace.")
        {
            let row = format!("| `{server_key}` |");
            let line = docs
                .lines()
                .find(|l| l.starts_with(&row))
                .unwrap_or_else(|| panic!("docs/lsp.md has no row {row}"));
            let flag = if restricted.contains(key.as_str()) {
                "yes"
            } else {
                "no"
            };
            assert!(line.trim_end().ends_with(&format!("| {flag} |")), "{line}");
        }
    }
    for key in &restricted {
        assert!(properties.contains_key(*key), "{key} is not a setting");
    }
}
