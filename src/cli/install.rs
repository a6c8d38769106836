//! `completions` and `man`: what `cargo install` leaves out, generated from the same clap
//! definitions that parse the command line, so they never drift from it.
//!
//! Shell completions go to standard output (the shell's own folder is the user's to choose). The
//! manual pages go to standard output (the main page) or, with `--out DIR`, into an existing
//! folder, one page for the command and one for each subcommand at every level
//! (`othello-explorer.1`, `othello-explorer-solve.1`, `othello-explorer-store-export.1`, …).
//! Every page's path must be a regular file or absent ([`writefile`]): all of them are checked
//! before the first is written, so a refusal writes nothing.

use super::{Cli, CliError, outln, write_stdout};
use clap::CommandFactory;
use othello_explorer::writefile;
use std::path::{Path, PathBuf};

/// The program's name, as the pages and the completion scripts call it.
const NAME: &str = "othello-explorer";

/// Prints the completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Result<(), CliError> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), NAME, &mut script);
    let mut script = String::from_utf8_lossy(&script).into_owned();
    if shell == clap_complete::Shell::Bash {
        script = mend_bash(&script);
    }
    write_stdout(&script);
    Ok(())
}

/// clap_complete's bash script for a name with a hyphen (up to 4.6.11, clap-rs/clap#6421) spells
/// a subcommand's state `othello__explorer__subcmd__solve` where it is set and
/// `othello__subcmd__explorer__subcmd__solve` where it is matched, so nothing after a subcommand
/// completes (`solve --mode <Tab>`): the matching side is spelt as the setting side. A script
/// already right is left as it is.
fn mend_bash(script: &str) -> String {
    script.replace("othello__subcmd__explorer", "othello__explorer")
}

/// Prints the main manual page, or writes every page into `out`, printing each path written.
pub fn man(out: Option<&Path>) -> Result<(), CliError> {
    let pages = pages().map_err(|e| CliError::Failed(format!("cannot make the manual pages: {e}")))?;
    let Some(dir) = out else {
        let (_, main) = pages.first().expect("the command's own page");
        write_stdout(&String::from_utf8_lossy(main));
        return Ok(());
    };
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(meta) => {
            let what = writefile::kind_of(&meta).unwrap_or("a file");
            return Err(CliError::Usage(format!("man --out {}: {what}, not a folder", dir.display())));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CliError::Usage(format!(
                "man --out {}: no such folder (make it first: it is never created)",
                dir.display()
            )));
        }
        Err(e) => return Err(CliError::Usage(format!("man --out {}: {}", dir.display(), lower(&e)))),
    }
    // Every path checked before anything is written: a device or a FIFO among them writes nothing.
    let targets: Vec<PathBuf> = pages
        .iter()
        .map(|(file, _)| writefile::target(&dir.join(file)))
        .collect::<Result<_, _>>()
        .map_err(|e| CliError::Usage(format!("man --out: {e}")))?;
    for (target, (file, page)) in targets.iter().zip(&pages) {
        std::fs::write(target, page)
            .map_err(|e| CliError::Usage(format!("cannot write {}: {}", dir.join(file).display(), lower(&e))))?;
        outln!("{}", dir.join(file).display());
    }
    Ok(())
}

/// Every manual page, the command's own first, each with its file name.
fn pages() -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut command = Cli::command().disable_help_subcommand(true);
    // Built, each subcommand has its display name (`othello-explorer-solve`), which names its page.
    command.build();
    let mut pages = Vec::new();
    add_pages(command, &mut pages)?;
    Ok(pages)
}

fn add_pages(command: clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render(&mut page)?;
    pages.push((man.get_filename(), page));
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        add_pages(sub.clone(), pages)?;
    }
    Ok(())
}

/// An I/O error as the rest of a message: lower case.
fn lower(e: &std::io::Error) -> String {
    let text = e.to_string();
    text.get(..1).map_or(String::new(), str::to_lowercase) + text.get(1..).unwrap_or("")
}
