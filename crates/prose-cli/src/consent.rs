//! Workspace trust on the command line: before `prose run` uses a program,
//! an endpoint or environment passthrough that the repository's
//! `prose.toml` chose, it prints exactly what that is and asks once; the
//! yes is remembered (`prose_runner::consent`). `--yes` allows it for one
//! run without asking (CI); without a terminal and without `--yes` the run
//! is refused (exit status 2). `prose consent` shows and revokes what was
//! allowed. See docs/security.md.

use std::{
    io::{BufRead, IsTerminal, Write},
    path::{Path, PathBuf},
    process::ExitCode,
};

use clap::Args;
use prose_runner::{
    backend::select_backend,
    config::RunnerConfig,
    consent::{ConsentRequest, ConsentStore},
};

use crate::workspace;

/// Exit status of a refused consent (a usage error).
pub const EXIT_REFUSED: u8 = 2;

/// How the user is asked: a question in, a line of answer out (`None` at
/// the end of input).
pub type Ask<'a> = &'a mut dyn FnMut(&str) -> Option<String>;

/// Decides whether a run may use what the repository chose. `ask` is
/// `None` when nobody can be asked (no terminal, `--no-input`). Returns
/// the refusal's message.
pub fn gate(
    request: Option<&ConsentRequest>,
    store: Option<&ConsentStore>,
    yes: bool,
    ask: Option<Ask<'_>>,
    err: &mut dyn Write,
) -> Result<(), String> {
    let Some(request) = request else {
        return Ok(());
    };
    if store.is_some_and(|s| s.is_granted(request)) {
        return Ok(());
    }
    if yes {
        let _ = write!(
            err,
            "{}allowed for this run (--yes)\n\n",
            request.describe()
        );
        return Ok(());
    }
    let Some(ask) = ask else {
        return Err(format!(
            "not run: the repository's prose.toml chooses what runs: {}\n{}nothing was executed; to allow it, run the command in a terminal and answer yes (remembered for this repository until these settings change), or pass --yes (this run only)",
            request.summary(),
            request.describe()
        ));
    };
    let question = format!(
        "{}Allow this for {}? The answer is remembered until these settings change. [y/N] ",
        request.describe(),
        request.root.display()
    );
    let answer = ask(&question).unwrap_or_default();
    if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        return Err(format!(
            "not run: you did not allow {}; nothing was executed",
            request.summary()
        ));
    }
    if let Some(store) = store
        && let Err(e) = store.grant(request)
    {
        let _ = writeln!(
            err,
            "warning: cannot remember the answer in {}: {e}",
            store.path.display()
        );
    }
    Ok(())
}

/// The gate as `prose run` and `prose jobs run` pass it before a run:
/// remembered answers under `home`, `--yes`, a question on the terminal
/// unless `--no-input` or no terminal. `Err` is the exit status of a
/// refusal, whose reason is already printed.
pub fn before_run(
    root: &Path,
    home: Option<&Path>,
    config: &RunnerConfig,
    yes: bool,
    no_input: bool,
) -> Result<(), u8> {
    let request = request_for(root, config);
    let store = home.map(ConsentStore::in_home);
    let mut ask = ask_on_terminal;
    gate(
        request.as_ref(),
        store.as_ref(),
        yes,
        can_ask(no_input).then_some(&mut ask as Ask<'_>),
        &mut std::io::stderr(),
    )
    .map_err(|m| {
        anstream::eprintln!("error: {m}");
        EXIT_REFUSED
    })
}

/// The consent a run of `config` in the repository at `root` needs
/// (`None`: nothing, or no backend can be chosen, which the run reports).
pub fn request_for(root: &Path, config: &RunnerConfig) -> Option<ConsentRequest> {
    let kind = select_backend(config).ok()?;
    ConsentRequest::new(root, config, kind)
}

/// Asks on the terminal: the question on stderr, the answer from stdin.
pub fn ask_on_terminal(question: &str) -> Option<String> {
    let mut err = std::io::stderr();
    let _ = err.write_all(question.as_bytes());
    let _ = err.flush();
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line),
    }
}

/// Whether `prose run` may ask on this terminal.
pub fn can_ask(no_input: bool) -> bool {
    !no_input && std::io::stdin().is_terminal()
}

// Options of `prose consent`.
#[derive(Debug, Args)]
pub struct ConsentArgs {
    /// The repository (workspace root); found as for `prose check` by
    /// default.
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// Forget what was allowed for the repository: its next run asks again.
    #[arg(long, conflicts_with = "list")]
    pub revoke: bool,

    /// List every repository allowed so far, with what was allowed.
    #[arg(long)]
    pub list: bool,
}

/// `prose consent`: what the repository's `prose.toml` chooses that needs
/// consent, and whether it is allowed; `--revoke`, `--list`.
pub fn run(args: &ConsentArgs) -> ExitCode {
    let Some(home) = prose_lsp::workspace::home().map(PathBuf::from) else {
        eprintln!("error: no home directory (set HOME or PROSE_HOME)");
        return ExitCode::from(2);
    };
    let store = ConsentStore::in_home(&home);
    let mut out = std::io::stdout().lock();
    if args.list {
        let grants = store.grants();
        if grants.is_empty() {
            let _ = writeln!(out, "no repository is allowed ({})", store.path.display());
        }
        for g in grants {
            let _ = writeln!(out, "{} (allowed {})", g.root, g.granted);
            for s in g.settings {
                let _ = writeln!(out, "  {s}");
            }
        }
        return ExitCode::SUCCESS;
    }
    let root = workspace::find_root(args.dir.as_deref());
    if args.revoke {
        return match store.revoke(&root) {
            Ok(0) => {
                let _ = writeln!(out, "nothing was allowed for {}", root.display());
                ExitCode::SUCCESS
            }
            Ok(_) => {
                let _ = writeln!(
                    out,
                    "revoked: the next run in {} asks again",
                    root.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", store.path.display());
                ExitCode::from(2)
            }
        };
    }
    let repo = match workspace::load_config(&root) {
        Ok(c) => c,
        Err(m) => {
            eprintln!("error: {m}");
            return ExitCode::from(2);
        }
    };
    let config = match prose_runner::config::layered(&root, Some(&home), &repo) {
        Ok(c) => c,
        Err(m) => {
            eprintln!("error: {m}");
            return ExitCode::from(2);
        }
    };
    match request_for(&root, &config) {
        None => {
            let _ = writeln!(
                out,
                "{}: the repository's prose.toml chooses nothing that needs consent",
                root.display()
            );
        }
        Some(request) => {
            let _ = write!(out, "{}", request.describe());
            let _ = writeln!(
                out,
                "{}",
                if store.is_granted(&request) {
                    "allowed (`prose consent --revoke` forgets it)"
                } else {
                    "not allowed yet: `prose run` asks before the first run"
                }
            );
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use prose_runner::{backend::BackendKind, config::Origin};

    fn request(root: &Path, command: &str) -> ConsentRequest {
        let mut c = RunnerConfig::default();
        c.apply(
            &prose_ide::Config::from_toml(&format!("[runner]\ncommand = {command:?}\n"))
                .unwrap()
                .runner,
            &Origin::RepositoryFile(root.join("prose.toml")),
            root,
        );
        ConsentRequest::new(root, &c, BackendKind::Command).unwrap()
    }

    #[test]
    fn asks_once_and_remembers_a_yes() {
        let home = tempfile::tempdir().unwrap();
        let repo = tempfile::tempdir().unwrap();
        let store = ConsentStore::in_home(home.path());
        let r = request(repo.path(), "./agent.sh");
        let mut err = Vec::new();

        // No.
        let mut questions = Vec::new();
        let mut no = |q: &str| {
            questions.push(q.to_string());
            Some("n\n".to_string())
        };
        let e = gate(Some(&r), Some(&store), false, Some(&mut no), &mut err).unwrap_err();
        assert!(e.contains("you did not allow `runner.command`"), "{e}");
        assert_eq!(questions.len(), 1);
        assert!(
            questions[0].contains("executes `./agent.sh`"),
            "{}",
            questions[0]
        );
        assert!(questions[0].ends_with("[y/N] "), "{}", questions[0]);
        assert!(!store.is_granted(&r));

        // End of input is a no too.
        let mut eof = |_: &str| None;
        assert!(gate(Some(&r), Some(&store), false, Some(&mut eof), &mut err).is_err());

        // Yes: allowed and remembered ...
        let mut yes = |_: &str| Some("Yes\n".to_string());
        gate(Some(&r), Some(&store), false, Some(&mut yes), &mut err).unwrap();
        assert!(store.is_granted(&r));
        // ... so the next run asks nothing.
        let mut never = |q: &str| -> Option<String> { panic!("asked again: {q}") };
        gate(Some(&r), Some(&store), false, Some(&mut never), &mut err).unwrap();
        gate(Some(&r), Some(&store), false, None, &mut err).unwrap();
        // Another command asks again.
        let other = request(repo.path(), "./other.sh");
        assert!(gate(Some(&other), Some(&store), false, None, &mut err).is_err());
    }

    #[test]
    fn refuses_without_a_terminal_and_yes_allows_one_run() {
        let home = tempfile::tempdir().unwrap();
        let repo = tempfile::tempdir().unwrap();
        let store = ConsentStore::in_home(home.path());
        let r = request(repo.path(), "./agent.sh");
        let mut err = Vec::new();
        let e = gate(Some(&r), Some(&store), false, None, &mut err).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "not run: the repository's prose.toml chooses what runs: `runner.command` in {}",
                repo.path().join("prose.toml").display()
            )),
            "{e}"
        );
        assert!(e.contains("or pass --yes"), "{e}");

        gate(Some(&r), Some(&store), true, None, &mut err).unwrap();
        let printed = String::from_utf8(err).unwrap();
        assert!(printed.contains("executes `./agent.sh`"), "{printed}");
        assert!(
            printed.ends_with("allowed for this run (--yes)\n\n"),
            "{printed}"
        );
        // --yes is for one run: nothing is remembered.
        assert!(!store.is_granted(&r));
        // Nothing to ask about: nothing asked.
        gate(None, Some(&store), false, None, &mut Vec::new()).unwrap();
    }
}
