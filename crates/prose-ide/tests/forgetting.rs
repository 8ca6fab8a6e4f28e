//! Removing a file frees what the analysis kept about it: its slot is
//! reused by the next new path (the host does not grow with every file
//! ever seen), and its queries run again on an empty text, replacing the
//! old results (salsa has no other way to drop them). The event log shows
//! that they ran; reusing a slot gives the new file's own answers.

use prose_ide::{AnalysisHost, fixture::logging_db};

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
