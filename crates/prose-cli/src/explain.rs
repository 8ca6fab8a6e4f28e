//! `prose explain CODE`: the documentation page of a diagnostic code.

use std::{io::Write, process::ExitCode};

use crate::{check::EXIT_FAILURE, write_or_exit};

pub fn run(code: Option<&str>) -> ExitCode {
    let mut out = anstream::stdout().lock();
    let Some(code) = code else {
        let mut text = String::new();
        for r in prose_ide::all_rules() {
            text.push_str(&format!("{:<5} {:<32} {}\n", r.code, r.name, r.summary));
        }
        write_or_exit(out.write_all(text.as_bytes()).and_then(|()| out.flush()), 0);
        return ExitCode::SUCCESS;
    };
    match prose_ide::rule(code) {
        Some(rule) => {
            let default = match rule.default {
                prose_ide::config::Level::Off => "off",
                prose_ide::config::Level::On(s) => s.as_str(),
            };
            let text = format!(
                "{}\nSeverity: {default} in the `default` profile, {} in `strict`.\n",
                rule.docs(),
                rule.strict.as_str()
            );
            write_or_exit(out.write_all(text.as_bytes()).and_then(|()| out.flush()), 0);
            ExitCode::SUCCESS
        }
        None => {
            eprintln!(
                "error: unknown diagnostic code `{code}`; run `prose explain` to list them all"
            );
            ExitCode::from(EXIT_FAILURE)
        }
    }
}
