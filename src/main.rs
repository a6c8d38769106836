//! The `othello-explorer` binary: the terminal explorer, and the `show`, `perft`, `solve`,
//! `bench`, `review`, `explain`, `reach`, `shortest`, `store`, `gtp`, `nboard`, `match`,
//! `archive` and `book` subcommands, with `completions` and `man` for installing it (parsed and
//! run in `cli`).

mod cli;
mod parse_args;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match parse_args::parse_args_with::<cli::Cli>("othello-explorer", cli::command()) {
        Ok((args, matches)) => cli::check_placement(&matches).map(|()| args),
        Err(code) => return code,
    };
    match args.and_then(cli::run) {
        Ok(code) => code,
        Err(e) => {
            // One line, whatever a file put into the message (control characters, its length).
            eprintln!("othello-explorer: {}", othello_explorer::notation::printable::one_line(&e.to_string(), 400));
            ExitCode::from(e.exit_code())
        }
    }
}
