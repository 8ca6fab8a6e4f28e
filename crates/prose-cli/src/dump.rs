//! `prose dump-cst` and `prose dump-tokens`: debugging views of one file.

use std::{io::Write, path::Path, process::ExitCode};

use prose_ide::AnalysisHost;

use crate::{
    check::{EXIT_FAILURE, uncancelled},
    source::{read_source, report_load_error},
    write_or_exit,
};

fn load(path: &Path) -> Result<String, ExitCode> {
    read_source(path).map_err(|e| {
        report_load_error(&e);
        ExitCode::from(EXIT_FAILURE)
    })
}

/// Prints the syntax tree and the syntax errors, as prose-ide sees them.
pub fn cst(path: &Path) -> ExitCode {
    let text = match load(path) {
        Ok(text) => text,
        Err(code) => return code,
    };
    let mut host = AnalysisHost::new();
    let id = host.set_file_text(&path.display().to_string(), text);
    let tree = uncancelled(host.analysis().debug_syntax_tree(id));
    let mut out = anstream::stdout().lock();
    write_or_exit(out.write_all(tree.as_bytes()).and_then(|()| out.flush()), 0);
    ExitCode::SUCCESS
}

/// Prints one `KIND "text"` line per token, then the lexer's errors.
pub fn tokens(path: &Path) -> ExitCode {
    let text = match load(path) {
        Ok(text) => text,
        Err(code) => return code,
    };
    let lexed = prose_syntax::lexer::lex(&text);
    let mut dump = String::new();
    for (kind, token) in lexed.iter(&text) {
        dump.push_str(&format!("{kind:?} {token:?}\n"));
    }
    for error in lexed.errors() {
        dump.push_str(&format!("error {error}\n"));
    }
    let mut out = anstream::stdout().lock();
    write_or_exit(out.write_all(dump.as_bytes()).and_then(|()| out.flush()), 0);
    ExitCode::SUCCESS
}
