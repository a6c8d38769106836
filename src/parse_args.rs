//! The command line of either binary, parsed by clap, with the project's rule for bad input: one
//! line on stderr naming the problem, exit code 2 (clap alone prints a usage block and a tip).
//! Shared by `src/main.rs` and `src/bin/fit-eval/main.rs` as a module of each (`#[path]`), since
//! the library does not depend on clap.

use std::process::ExitCode;

/// The parsed arguments with clap's matches (which tell where each value came from), or the exit
/// code once the help or version has been printed (0) or the error has been reported on one line
/// as `program: ...` (2).
#[allow(dead_code)]
pub fn parse_args<P: clap::Parser>(program: &str) -> Result<(P, clap::ArgMatches), ExitCode> {
    parse_args_with::<P>(program, P::command())
}

/// [`parse_args`] with `command`, `P`'s own command as the program shaped it (options hidden
/// where they do nothing).
pub fn parse_args_with<P: clap::Parser>(
    program: &str,
    command: clap::Command,
) -> Result<(P, clap::ArgMatches), ExitCode> {
    let mut again = command.clone();
    let parsed = command
        .try_get_matches()
        .and_then(|m| P::from_arg_matches(&m).map(|p| (p, m)).map_err(|e| e.format(&mut again)));
    parsed.map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // Clap's first paragraph (which may list the missing arguments on lines of their own),
        // without the usage block and the tip.
        let text = e.render().to_string();
        let first: Vec<&str> = text
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .filter(|l| !l.starts_with("tip:"))
            .collect();
        eprintln!("{program}: {}", first.join(" ").trim_start_matches("error: "));
        ExitCode::from(2)
    })
}
