//! The `othello-explorer` binary: the terminal explorer, and the `show`, `perft`, `solve` and
//! `bench` subcommands.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One line, naming the problem: clap's first line without its usage block.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: bad arguments");
            eprintln!("othello-explorer: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("othello-explorer: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
