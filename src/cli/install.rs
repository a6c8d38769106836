//! `completions` and `man`: what `cargo install` leaves out, generated from the same clap
//! definitions that parse the command line, so they never drift from it.
//!
//! Shell completions go to standard output (the shell's own folder is the user's to choose). The
//! manual pages go to standard output (the main page) or, with `--out DIR`, into an existing
//! folder, one page for the command and one for each subcommand at every level
//! (`othello-explorer.1`, `othello-explorer-solve.1`, `othello-explorer-store-export.1`, …).
//! Every page's path must be a regular file or absent ([`writefile`]): all of them are checked
//! before the first is written, so a refusal writes nothing.

use super::common::{CliError, outln, write_stdout};
use othello_explorer::notation::writefile;
use std::path::{Path, PathBuf};

/// The program's name, as the pages and the completion scripts call it.
const NAME: &str = "othello-explorer";

/// Prints the completion script for `shell`.
pub fn completions(mut command: clap::Command, shell: clap_complete::Shell) -> Result<(), CliError> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, NAME, &mut script);
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
pub fn man(command: clap::Command, out: Option<&Path>) -> Result<(), CliError> {
    let pages = pages(command).map_err(|e| CliError::Failed(format!("cannot make the manual pages: {e}")))?;
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

/// Every manual page of `command`, its own first, each with its file name.
fn pages(command: clap::Command) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut command = command.disable_help_subcommand(true);
    // Built, each subcommand has its display name (`othello-explorer-solve`), which names its page.
    command.build();
    let mut pages = Vec::new();
    add_pages(command, &mut pages)?;
    // The main page: the explorer's keys and commands after the options.
    if let Some((_, main)) = pages.first_mut() {
        main.extend_from_slice(keys_section().as_bytes());
    }
    Ok(pages)
}

/// The manual's section of the explorer's keys, by context, and its `:` commands, from the key
/// table and the command table the key bar and the help are made from.
fn keys_section() -> String {
    // Text as roff reads it: backslashes and hyphens escaped, every other character beyond ASCII
    // by its code (`\[u2190]`), and a line never starting with a control character.
    let escape = |s: &str| {
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            match c {
                '\\' => out.push_str("\\e"),
                '-' => out.push_str("\\-"),
                c if c.is_ascii() => out.push(c),
                c => out.push_str(&format!("\\[u{:04X}]", c as u32)),
            }
        }
        if out.starts_with(['.', '\'']) { format!("\\&{out}") } else { out }
    };
    let mut out = String::from(
        ".SH \"EXPLORER KEYS\"\nWith no subcommand the explorer opens; \\fB?\\fR shows these keys for what is open.\n",
    );
    for (context, lines) in othello_explorer::tui::key_reference() {
        out.push_str(&format!(".SS \"{}\"\n", escape(context)));
        for (keys, help) in lines {
            out.push_str(&format!(".TP\n\\fB{}\\fR\n{}\n", escape(&keys), escape(help)));
        }
    }
    out
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
