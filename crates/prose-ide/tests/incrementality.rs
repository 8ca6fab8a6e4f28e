//! Incrementality is a feature: these tests count salsa `WillExecute`
//! events to prove that
//! - editing one file does not re-run another file's diagnostics;
//! - a comment-only edit of an imported program re-runs that program's
//!   parse and contract, but not the importing file's resolution or
//!   diagnostics (the contract is backdated);
//! - a change of the contract does re-run the importing file's diagnostics
//!   (so the test above can fail);
//! - changing one root's configuration does not re-run the diagnostics
//!   of the files of another root.

use prose_ide::{
    AnalysisHost, FileId,
    fixture::{QueryLog, logging_db},
};

struct Tracked {
    host: AnalysisHost,
    log: QueryLog,
}

impl Tracked {
    fn new() -> Self {
        let (db, log) = logging_db();
        let mut host = AnalysisHost::with_db(db);
        host.set_workspace_root(Some("/ws".into()));
        Tracked { host, log }
    }

    /// Runs the diagnostics of `file` and returns the queries that executed.
    fn diagnose(&self, file: FileId) -> Vec<String> {
        self.log.lock().unwrap().clear();
        self.host.analysis().diagnostics(file).unwrap();
        std::mem::take(&mut *self.log.lock().unwrap())
    }

    fn diagnostics(&self, file: FileId) -> Vec<String> {
        self.host
            .analysis()
            .diagnostics(file)
            .unwrap()
            .iter()
            .map(|d| format!("{} {}", d.code.as_str(), d.message))
            .collect()
    }
}

fn ran(log: &[String], query: &str) -> usize {
    log.iter()
        .filter(|k| k.starts_with(&format!("{query}(")))
        .count()
}

const IMPORTED: &str = "/ws/.prose/imports/alice--research/program.prose";

fn workspace() -> (Tracked, FileId, FileId, FileId) {
    let mut t = Tracked::new();
    let a = t
        .host
        .set_file_text("/ws/a.prose", "agent a:\n  model: opus\nsession: a\n");
    let b = t.host.set_file_text(
        "/ws/b.prose",
        "use \"@alice/research\" as research\nlet r = research(topic: \"x\")\nsession \"Summarise\"\n  context: r.findings\n",
    );
    let c = t.host.set_file_text(IMPORTED, "# Research a topic\ninput topic: \"The topic\"\noutput findings = session \"Research {topic}\"\n");
    // Warm everything up.
    t.diagnose(a);
    t.diagnose(b);
    t.diagnose(c);
    (t, a, b, c)
}

#[test]
fn editing_one_file_does_not_rerun_another_files_diagnostics() {
    let (mut t, a, b, _) = workspace();
    t.host.set_file_text(
        "/ws/a.prose",
        "agent a:\n  model: opus\nsession: a\nsession \"more\"\n",
    );

    let log_b = t.diagnose(b);
    assert_eq!(
        ran(&log_b, "file_diagnostics"),
        0,
        "b's diagnostics re-ran: {log_b:?}"
    );
    assert_eq!(ran(&log_b, "file_semantics"), 0, "{log_b:?}");
    assert_eq!(ran(&log_b, "parse"), 0, "{log_b:?}");

    let log_a = t.diagnose(a);
    assert_eq!(ran(&log_a, "parse"), 1, "{log_a:?}");
    assert_eq!(ran(&log_a, "file_diagnostics"), 1, "{log_a:?}");
}

#[test]
fn comment_only_edit_of_an_import_does_not_rerun_its_dependents() {
    let (mut t, _, b, _) = workspace();
    t.host.set_file_text(IMPORTED, "# Research any topic, carefully\ninput topic: \"The topic\"\noutput findings = session \"Research {topic}\"\n");

    let log = t.diagnose(b);
    // The imported program was re-parsed and its contract recomputed...
    assert_eq!(ran(&log, "parse"), 1, "{log:?}");
    assert_eq!(ran(&log, "program_contract"), 1, "{log:?}");
    // ...but the contract compared equal, so b's resolution and diagnostics did not re-run.
    assert_eq!(ran(&log, "file_semantics"), 0, "{log:?}");
    assert_eq!(ran(&log, "file_diagnostics"), 0, "{log:?}");
}

#[test]
fn a_contract_change_reruns_the_dependents() {
    let (mut t, _, b, _) = workspace();
    assert!(
        !t.diagnostics(b).iter().any(|d| d.starts_with("E026")),
        "{:?}",
        t.diagnostics(b)
    );
    t.host.set_file_text(
        IMPORTED,
        "input topic: \"The topic\"\ninput depth: \"How deep\"\noutput findings = session \"Research {topic}\"\n",
    );
    let log = t.diagnose(b);
    assert_eq!(ran(&log, "file_diagnostics"), 1, "{log:?}");
    assert_eq!(
        ran(&log, "file_semantics"),
        0,
        "b's own names did not change: {log:?}"
    );
    assert!(
        t.diagnostics(b).iter().any(|d| d.starts_with("E026")),
        "{:?}",
        t.diagnostics(b)
    );
}

#[test]
fn memory_files_appearing_update_results_without_reparsing() {
    let mut t = Tracked::new();
    let f = t.host.set_file_text(
        "/ws/main.prose",
        "agent captain:\n  model: opus\n  persist: project\nresume: captain\n  prompt: \"Continue\"\n",
    );
    let before = t.diagnostics(f);
    assert!(before.iter().any(|d| d.starts_with("E018")), "{before:?}");
    t.host
        .set_memory_files(["/ws/.prose/agents/captain/memory.md".to_string()].into());
    let log = t.diagnose(f);
    assert_eq!(ran(&log, "parse"), 0, "{log:?}");
    assert_eq!(ran(&log, "file_diagnostics"), 1, "{log:?}");
    let after = t.diagnostics(f);
    assert!(!after.iter().any(|d| d.starts_with("E018")), "{after:?}");
}

#[test]
fn one_roots_config_change_does_not_rerun_another_roots_files() {
    use prose_ide::{Config, Profile, Root};
    let mut t = Tracked::new();
    let root = |path: &str, profile: Profile| Root {
        path: path.into(),
        config: Config {
            profile,
            ..Config::default()
        },
    };
    t.host.set_roots(vec![
        root("/ws", Profile::Default),
        root("/other", Profile::Default),
    ]);
    let text = "agent captain:\n  model: opus\n  persist: project\nresume: captain\n";
    let ws = t.host.set_file_text("/ws/main.prose", text);
    let other = t.host.set_file_text("/other/main.prose", text);
    t.diagnose(ws);
    t.diagnose(other);

    t.host.set_roots(vec![
        root("/ws", Profile::Default),
        root("/other", Profile::Strict),
    ]);
    let log = t.diagnose(ws);
    assert_eq!(ran(&log, "file_diagnostics"), 0, "{log:?}");
    assert_eq!(
        ran(&log, "file_root"),
        1,
        "re-checked, found equal: {log:?}"
    );
    let log = t.diagnose(other);
    assert_eq!(ran(&log, "file_diagnostics"), 1, "{log:?}");
    assert!(
        t.diagnostics(other).iter().any(|d| d.starts_with("E018")),
        "{:?}",
        t.diagnostics(other)
    );
}

/// A dialect file: an edit re-parses that document only, not the block
/// registry of its root (read once per file, from the configuration), and
/// a program next to it is not re-checked.
#[test]
fn editing_a_dialect_file_reparses_it_and_not_its_registry() {
    let mut t = Tracked::new();
    let mut config =
        prose_ide::Config::from_toml("[dialect]\nregistry = \"blocks.txt\"\n").unwrap();
    config
        .load_dialect_registry("/ws", |_| Ok("project_notes\n".to_string()))
        .unwrap();
    t.host.set_config(config);
    let d = t
        .host
        .set_file_text("/ws/out.dialect", "/recall read notes\n");
    let p = t.host.set_file_text("/ws/a.prose", "session \"x\"\n");
    t.diagnose(d);
    t.diagnose(p);
    assert_eq!(t.diagnostics(d).len(), 1, "D012 with the registry");
    t.host
        .set_file_text("/ws/out.dialect", "/recall read project_notes\n");
    let log = t.diagnose(d);
    assert_eq!(ran(&log, "document"), 1, "{log:?}");
    assert_eq!(ran(&log, "registry"), 0, "{log:?}");
    assert!(t.diagnostics(d).is_empty());
    let log = t.diagnose(p);
    assert_eq!(ran(&log, "file_diagnostics"), 0, "{log:?}");
}
