//! The `prose` command; all the work is in the `prose_cli` library.

fn main() -> std::process::ExitCode {
    prose_cli::main()
}
