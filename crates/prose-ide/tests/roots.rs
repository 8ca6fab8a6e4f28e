//! Several workspace roots: a file's project memory files, `.prose/imports`
//! lookups, `[imports]` mappings and `prose.toml` (profile, severities) come
//! from the innermost root that contains it; a file outside every root uses
//! its own directory and the default configuration; a buffer that is not a
//! file (`untitled:`) belongs to the first root.

use prose_ide::{
    AnalysisHost, Config, Root,
    fixture::{Fixture, HOME},
};

/// `CODE severity message` of every diagnostic of the file at `path`.
fn diagnostics(host: &AnalysisHost, path: &str) -> Vec<String> {
    let file = host.file_id(path).expect("the file is in the fixture");
    host.analysis()
        .diagnostics(file)
        .unwrap()
        .iter()
        .map(|d| format!("{} {} {}", d.code.as_str(), d.severity.as_str(), d.message))
        .collect()
}

fn with_code(diags: &[String], code: &str) -> Vec<String> {
    diags
        .iter()
        .filter(|d| d.starts_with(&format!("{code} ")))
        .cloned()
        .collect()
}

const RESUME: &str =
    "agent captain:\n  model: opus\n  persist: project\nresume: captain\n  prompt: \"Continue\"\n";
const DUPLICATE: &str = "agent a:\n  model: opus\nagent a:\n  model: opus\nsession: a\n";

#[test]
fn each_root_has_its_own_prose_toml() {
    let fixture = Fixture::parse(&format!(
        "#- /ws/prose.toml
[severity]
E006 = \"off\"
#- /other/prose.toml
profile = \"strict\"
#- /ws/dup.prose
{DUPLICATE}#- /other/dup.prose
{DUPLICATE}#- /ws/resume.prose
{RESUME}#- /other/resume.prose
{RESUME}"
    ));
    let (host, _) = fixture.host(None);
    // /ws turns E006 off; /other does not.
    assert_eq!(
        with_code(&diagnostics(&host, "/ws/dup.prose"), "E006"),
        Vec::<String>::new()
    );
    assert_eq!(
        with_code(&diagnostics(&host, "/other/dup.prose"), "E006").len(),
        1
    );
    // /other is strict: a missing memory file is an error there, a hint in /ws.
    let ws = with_code(&diagnostics(&host, "/ws/resume.prose"), "E018");
    let other = with_code(&diagnostics(&host, "/other/resume.prose"), "E018");
    assert_eq!(ws.len(), 1, "{ws:?}");
    assert!(ws[0].starts_with("E018 hint"), "{ws:?}");
    assert_eq!(other.len(), 1, "{other:?}");
    assert!(other[0].starts_with("E018 error"), "{other:?}");
}

#[test]
fn memory_files_come_from_the_files_own_root() {
    let fixture = Fixture::parse(&format!(
        "#- /ws/.prose/agents/captain/memory.md
#- /other/prose.toml
#- /ws/sub/prose.toml
#- /ws/main.prose
{RESUME}#- /other/main.prose
{RESUME}#- /ws/sub/main.prose
{RESUME}#- /ws/lib/main.prose
{RESUME}"
    ));
    let (host, _) = fixture.host(None);
    // /ws has the memory file; so does /ws/lib (inside /ws, not a root).
    assert_eq!(
        with_code(&diagnostics(&host, "/ws/main.prose"), "E018"),
        Vec::<String>::new()
    );
    assert_eq!(
        with_code(&diagnostics(&host, "/ws/lib/main.prose"), "E018"),
        Vec::<String>::new()
    );
    // /other and the nested root /ws/sub look in their own `.prose/agents/`;
    // the message names the path relative to that root.
    for path in ["/other/main.prose", "/ws/sub/main.prose"] {
        let e018 = with_code(&diagnostics(&host, path), "E018");
        assert_eq!(e018.len(), 1, "{path}: {e018:?}");
        assert!(e018[0].starts_with("E018 hint"), "{path}: {e018:?}");
        assert!(
            e018[0].ends_with(": `.prose/agents/captain/memory.md` does not exist yet"),
            "{path}: {e018:?}"
        );
    }
    let analysis = host.analysis();
    let memory = |path: &str| {
        analysis
            .external_paths(host.file_id(path).unwrap())
            .unwrap()
            .memory
    };
    assert_eq!(
        memory("/ws/sub/main.prose"),
        ["/ws/sub/.prose/agents/captain/memory.md"]
    );
    assert_eq!(
        memory("/other/main.prose"),
        ["/other/.prose/agents/captain/memory.md"]
    );
}

#[test]
fn imports_resolve_from_the_files_own_root() {
    let main = "use \"@alice/research\"\nlet r = research(topic: \"x\")\n";
    let fixture = Fixture::parse(&format!(
        "#- /other/prose.toml
[imports]
\"@alice/research\" = \"vendor/research.prose\"
#- /other/vendor/research.prose
input subject: \"What to research\"
output findings = session \"Research {{subject}}\"
#- /ws/main.prose
{main}#- /other/main.prose
{main}"
    ));
    let (host, _) = fixture.host(None);
    let analysis = host.analysis();
    let imports = |path: &str| {
        analysis
            .external_paths(host.file_id(path).unwrap())
            .unwrap()
            .imports
    };
    assert_eq!(
        imports("/other/main.prose"),
        [
            "/other/vendor/research.prose".to_string(),
            "/other/.prose/imports/alice--research/program.prose".to_string(),
            format!("{HOME}/.prose/imports/alice--research/program.prose"),
        ]
    );
    assert_eq!(
        imports("/ws/main.prose"),
        [
            "/ws/.prose/imports/alice--research/program.prose".to_string(),
            format!("{HOME}/.prose/imports/alice--research/program.prose"),
        ]
    );
    drop(analysis);
    // In /other the mapped program is found: its contract is checked
    // (`topic` is not one of its inputs).
    let other = diagnostics(&host, "/other/main.prose");
    assert_eq!(with_code(&other, "E027").len(), 1, "{other:?}");
    // In /ws the mapping does not apply: the program is not found.
    let ws = diagnostics(&host, "/ws/main.prose");
    assert_eq!(with_code(&ws, "E027"), Vec::<String>::new(), "{ws:?}");
}

#[test]
fn files_outside_every_root_and_untitled_buffers() {
    let mut host = AnalysisHost::new();
    let strict = Config {
        profile: prose_ide::Profile::Strict,
        ..Config::default()
    };
    host.set_roots(vec![
        Root {
            path: "/a".into(),
            config: strict,
        },
        Root {
            path: "/b".into(),
            config: Config::default(),
        },
    ]);
    let mut off = Config::default();
    off.severity
        .insert("E006".into(), prose_ide::config::Level::Off);
    host.set_default_config(off);
    host.set_file_text("/tmp/x/main.prose", RESUME);
    // Not a file: belongs to the first root.
    host.set_file_text("untitled:Untitled-1", RESUME);
    host.set_file_text("/tmp/x/dup.prose", DUPLICATE);
    // `/ab` is not under `/a`.
    host.set_file_text("/ab/dup.prose", DUPLICATE);
    let analysis = host.analysis();
    let file = host.file_id("/tmp/x/main.prose").unwrap();
    assert_eq!(
        analysis.external_paths(file).unwrap().memory,
        ["/tmp/x/.prose/agents/captain/memory.md"]
    );
    drop(analysis);
    let e018 = with_code(&diagnostics(&host, "/tmp/x/main.prose"), "E018");
    assert!(e018[0].starts_with("E018 hint"), "not strict: {e018:?}");
    assert!(
        with_code(&diagnostics(&host, "/tmp/x/dup.prose"), "E006").is_empty(),
        "the default config turns E006 off"
    );
    assert!(with_code(&diagnostics(&host, "/ab/dup.prose"), "E006").is_empty());
    let untitled = with_code(&diagnostics(&host, "untitled:Untitled-1"), "E018");
    assert!(
        untitled[0].starts_with("E018 error"),
        "strict: {untitled:?}"
    );
    let analysis = host.analysis();
    let file = host.file_id("untitled:Untitled-1").unwrap();
    assert_eq!(
        analysis.external_paths(file).unwrap().memory,
        ["/a/.prose/agents/captain/memory.md"]
    );
}

#[test]
fn single_root_convenience_api() {
    let mut host = AnalysisHost::new();
    let config = Config {
        profile: prose_ide::Profile::Strict,
        ..Config::default()
    };
    // Either order: the one root gets the configuration.
    host.set_config(config.clone());
    host.set_workspace_root(Some("/ws".into()));
    assert_eq!(
        host.roots(),
        [Root {
            path: "/ws".into(),
            config: config.clone()
        }]
    );
    let mut host = AnalysisHost::new();
    host.set_workspace_root(Some("/ws".into()));
    host.set_config(config.clone());
    assert_eq!(host.roots()[0].config, config);
    assert_eq!(host.default_config(), config);
    host.set_workspace_root(None);
    assert_eq!(host.roots(), []);
}
