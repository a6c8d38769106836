//! The `othello-explorer` binary: the terminal explorer, and the `show`, `perft`, `solve`,
//! `bench`, `explain`, `review`, `reach`, `shortest`, `store` and `book` subcommands (parsed and run
//! in `cli`).

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
            // One line naming the problem: clap's first paragraph (which may list the missing
            // arguments on lines of their own), without the usage block and the tip.
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .filter(|l| !l.starts_with("tip:"))
                .collect();
            let line = first.join(" ");
            eprintln!("othello-explorer: {}", line.trim_start_matches("error: "));
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
