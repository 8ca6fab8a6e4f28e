//! `prose dialect parse`: Pattern Dialect actions in agent output, as JSON
//! lines (docs/dialect.md has the contract).

use std::{
    io::{self, Read, Write},
    path::PathBuf,
    process::ExitCode,
};

use clap::{Args, Subcommand};
use prose_dialect::{BlockRegistry, Diagnostic, DialectParser, ParsedAction, Span};
use serde::Serialize;

use crate::{
    check::{EXIT_FAILURE, EXIT_OK},
    line_index::LineIndex,
    render::JsonRange,
    source::{LoadError, read_source, report_load_error},
    write_or_exit,
};

// The `prose dialect` commands.
#[derive(Debug, Args)]
pub struct DialectArgs {
    #[command(subcommand)]
    pub command: DialectCommand,
}

#[derive(Debug, Subcommand)]
pub enum DialectCommand {
    /// Read agent output on stdin and print each Pattern Dialect action as
    /// one line of JSON.
    ///
    /// An action starts at a `/` followed by a letter at the start of a
    /// line; its multi-line content blocks and its chain (`->`) belong to
    /// it, and a `/batch { ... }` is one action. Other text is ignored.
    #[command(after_help = PARSE_AFTER_HELP)]
    Parse(ParseArgs),
}

/// Options of `prose dialect parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The known memory blocks, one name per line (`#` comments; names
    /// below a `[context]` line are working-memory blocks). With it,
    /// `/recall name` reads the block `name` instead of searching.
    #[arg(long, value_name = "FILE")]
    pub registry: Option<PathBuf>,
}

const PARSE_AFTER_HELP: &str = "\
Output, one object per action, one per line:
  {\"input\":\"/recall notes\",\"action\":{\"verb\":\"recall\",\"marker\":null,
   \"intent\":\"search\",\"chain\":null,...}|null,\"error\":null|\"message\",
   \"line\":1,\"span\":{\"start\":0,\"end\":13},\"diagnostics\":[...]}
`action` is null when the verb is unknown; when `error` is set, the action
must not run. Offsets (`span`) are bytes into stdin; `line` and the
diagnostics' ranges are 1-based, columns in Unicode scalar values.

Exit status:
  0  stdin was read (even if some actions have errors)
  2  bad usage, an unreadable or invalid registry, or stdin not UTF-8

Examples:
  agent | prose dialect parse
  prose dialect parse --registry blocks.txt < transcript.txt";

pub fn run(args: &DialectArgs) -> ExitCode {
    match &args.command {
        DialectCommand::Parse(p) => ExitCode::from(parse(p)),
    }
}

fn parse(args: &ParseArgs) -> u8 {
    let mut parser = DialectParser::new();
    if let Some(path) = &args.registry {
        let text = match read_source(path) {
            Ok(t) => t,
            Err(e) => {
                report_load_error(&e);
                return EXIT_FAILURE;
            }
        };
        match BlockRegistry::parse(&text) {
            Ok(r) => parser = parser.with_registry(r),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return EXIT_FAILURE;
            }
        }
    }
    let mut bytes = Vec::new();
    if let Err(e) = io::stdin().lock().read_to_end(&mut bytes) {
        report_load_error(&LoadError::Io(PathBuf::from("<stdin>"), e));
        return EXIT_FAILURE;
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            report_load_error(&LoadError::NotUtf8(PathBuf::from("<stdin>"), offset));
            return EXIT_FAILURE;
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    write_or_exit(write_actions(&mut out, &parser, &text), EXIT_OK);
    write_or_exit(out.flush(), EXIT_OK);
    EXIT_OK
}

/// One output line.
#[derive(Serialize)]
struct JsonAction<'a> {
    input: &'a str,
    action: Option<&'a ParsedAction>,
    error: Option<&'a str>,
    line: usize,
    span: Span,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    severity: &'a str,
    message: &'a str,
    range: JsonRange,
}

/// Writes every action of `text` as a JSON line.
pub fn write_actions(out: &mut dyn Write, parser: &DialectParser, text: &str) -> io::Result<()> {
    let doc = parser.parse_actions(text);
    let index = LineIndex::new(text);
    for a in &doc.actions {
        let line = JsonAction {
            input: a.span.text(text),
            action: a.action.as_ref(),
            error: a.error().map(|d| d.message.as_str()),
            line: a.line,
            span: a.span,
            diagnostics: a
                .diagnostics
                .iter()
                .map(|d| diagnostic(&index, d))
                .collect(),
        };
        serde_json::to_writer(&mut *out, &line)?;
        writeln!(out)?;
    }
    Ok(())
}

fn diagnostic<'a>(index: &LineIndex<'_>, d: &'a Diagnostic) -> JsonDiagnostic<'a> {
    JsonDiagnostic {
        code: d.code,
        severity: d.severity.as_str(),
        message: &d.message,
        range: JsonRange::new(index, d.span.start, d.span.end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn run(text: &str) -> String {
        let mut out = Vec::new();
        write_actions(&mut out, &DialectParser::new(), text).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn one_line_per_action_with_the_contract_fields_first() {
        expect![[r#"
            {"input":"/recall notes ?","action":{"verb":"recall","marker":"?","intent":"search","chain":null,"arguments":{"type":"recall","intent":"search","query":{"text":"notes","form":"unquoted","span":{"start":14,"end":19}}},"written":"recall","confidence":1.0,"span":{"start":6,"end":21}},"error":null,"line":2,"span":{"start":6,"end":21},"diagnostics":[]}
            {"input":"/summarize x","action":null,"error":"I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell","line":3,"span":{"start":22,"end":34},"diagnostics":[{"code":"D001","severity":"error","message":"I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell","range":{"start":{"line":3,"column":2},"end":{"line":3,"column":11}}}]}
        "#]]
        .assert_eq(&run("Hello\n/recall notes ?\n/summarize x\n"));
    }

    #[test]
    fn command_line() {
        use crate::args::{Cli, Command};
        use clap::Parser;
        let cli =
            Cli::try_parse_from(["prose", "dialect", "parse", "--registry", "b.txt"]).unwrap();
        let Command::Dialect(DialectArgs {
            command: DialectCommand::Parse(p),
        }) = cli.command
        else {
            panic!("not dialect parse")
        };
        assert_eq!(p.registry, Some(PathBuf::from("b.txt")));
        assert!(Cli::try_parse_from(["prose", "dialect"]).is_err());
        assert!(Cli::try_parse_from(["prose", "dialect", "parse", "x"]).is_err());
    }

    #[test]
    fn no_actions_no_output() {
        assert_eq!(run(""), "");
        assert_eq!(run("just prose\n"), "");
    }
}
