//! Removing a file frees what the analysis kept about it: its slot is
//! reused by the next new path (the host does not grow with every file
//! ever seen), and its queries run again on an empty text, replacing the
//! old results (salsa has no other way to drop them). The event log shows
//! that they ran; reusing a slot gives the new file's own answers.

use prose_ide::{AnalysisHost, external::ExternalPaths, fixture::logging_db};

#[test]
fn a_removed_file_is_forgotten_and_its_slot_reused() {
    let (db, log) = logging_db();
    let mut host = AnalysisHost::with_db(db);
    let keep = host.set_file_text("/ws/keep.prose", "session \"kept\"\n");
    let first = host.set_file_text("/ws/a.prose", "agent a:\n  model: nope\nsession: a\n");
    let diagnostics = host.analysis().diagnostics(first).unwrap();
    assert!(diagnostics.iter().any(|d| d.code.as_str() == "E008"));

    log.lock().unwrap().clear();
    assert_eq!(host.remove_file("/ws/a.prose"), Some(first));
    let ran = std::mem::take(&mut *log.lock().unwrap());
    for query in ["parse", "file_semantics", "file_diagnostics"] {
        assert!(
            ran.iter().any(|q| q.starts_with(query)),
            "{query} ran again on the emptied file: {ran:?}"
        );
    }
    assert_eq!(host.file_id("/ws/a.prose"), None);

    // Thousands of files opened and closed use one slot.
    for i in 0..1000 {
        let path = format!("untitled:Untitled-{i}");
        let id = host.set_file_text(&path, format!("let x{i} = session \"{{y{i}}}\"\n"));
        assert_eq!(id, first, "the freed slot is reused");
        let d = host.analysis().diagnostics(id).unwrap();
        assert!(
            d.iter().any(|d| d.message.contains(&format!("`y{i}`"))),
            "the new file's own diagnostics: {d:?}"
        );
        host.remove_file(&path);
    }
    let analysis = host.analysis();
    assert_eq!(analysis.files().collect::<Vec<_>>(), vec![keep]);
    assert_eq!(
        analysis.file_text_at("/ws/keep.prose").unwrap().as_deref(),
        Some("session \"kept\"\n")
    );
}

/// A result a newer one replaced is kept until salsa's next revision (a
/// snapshot may be reading it); `trim` frees it between edits, unless a
/// snapshot is alive, which it neither waits for nor cancels.
#[test]
fn trim_frees_replaced_results_when_no_snapshot_is_alive() {
    let mut host = AnalysisHost::new();
    let file = host.set_file_text("/ws/a.prose", "use \"./one.prose\"\nsession \"a\"\n");
    let old = std::sync::Arc::downgrade(&host.analysis().needed_files(file).unwrap());
    let imports = |w: &std::sync::Weak<ExternalPaths>| w.upgrade().map(|p| p.imports.clone());
    assert_eq!(imports(&old), Some(vec!["/ws/one.prose".to_string()]));
    host.set_file_text("/ws/a.prose", "use \"./two.prose\"\nsession \"a\"\n");
    let new = host.analysis().needed_files(file).unwrap();
    assert_eq!(new.imports, vec!["/ws/two.prose".to_string()]);
    assert!(old.upgrade().is_some(), "kept until the next revision");

    // A snapshot alive: nothing done, and its queries still answer.
    let snapshot = host.analysis();
    assert!(!host.trim());
    assert!(old.upgrade().is_some());
    assert_eq!(snapshot.needed_files(file).unwrap(), new);
    drop(snapshot);

    assert!(host.trim());
    assert!(old.upgrade().is_none(), "freed by trim");
    // The current results stay.
    assert_eq!(host.analysis().needed_files(file).unwrap(), new);
}
