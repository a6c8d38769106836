//! `completions` and `man` on the real binary: the scripts name every subcommand, the pages are
//! roff with a title, and `man --out` writes only into an existing folder, never over a device, a
//! FIFO or a folder (one line on stderr, exit code 2, nothing written).

use std::os::unix::fs::FileTypeExt;
use std::path::Path;

mod binary;
use binary::bin;

fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The subcommands, as `--help` lists them (so a new one is checked without editing this file).
fn subcommands() -> Vec<String> {
    let help = stdout_of(&["--help"]);
    let listed: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect();
    for name in ["show", "perft", "solve", "bench", "review", "store", "book", "completions", "man"] {
        assert!(listed.iter().any(|l| l == name), "{name} not in --help: {help}");
    }
    listed
}

#[test]
fn the_completion_scripts_name_every_subcommand() {
    let bash = stdout_of(&["completions", "bash"]);
    assert!(bash.contains("complete -F _othello__explorer"), "{bash}");
    // Bash itself completes with the script: the subcommands, then each one's options and their
    // values (which clap_complete's script alone misses for a name with a hyphen).
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("othello-explorer.bash");
    std::fs::write(&script, &bash).unwrap();
    let complete = |words: &[&str]| -> Vec<String> {
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let (cur, prev) = (words[words.len() - 1], words[words.len() - 2]);
        let run = format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; _othello__explorer othello-explorer '{cur}' '{prev}'; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display(),
            quoted.join(" "),
            words.len() - 1
        );
        let out = std::process::Command::new("bash").args(["-c", &run]).output().expect("bash runs");
        assert!(out.status.success(), "{words:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
    };
    let all = complete(&["othello-explorer", ""]);
    for name in subcommands() {
        assert!(all.contains(&name), "{name} not completed: {all:?}");
    }
    assert_eq!(complete(&["othello-explorer", "so"]), ["solve"]);
    assert_eq!(complete(&["othello-explorer", "solve", "--mode", ""]), ["auto", "exact", "wld", "estimate", "play"]);
    assert_eq!(complete(&["othello-explorer", "solve", "--dep"]), ["--depth"]);
    assert_eq!(complete(&["othello-explorer", "store", "exp"]), ["export"]);
    assert_eq!(complete(&["othello-explorer", "completions", "fi"]), ["fish"]);
    // Values, not file names: the sizes, the selectivity levels, the evaluations, the topics.
    assert_eq!(complete(&["othello-explorer", "show", "--size", ""]), ["8", "6", "4"]);
    assert_eq!(complete(&["othello-explorer", "solve", "--selectivity", ""]), ["73", "87", "95", "98", "99", "100"]);
    assert_eq!(complete(&["othello-explorer", "--selectivity", ""]), ["73", "87", "95", "98", "99", "100"]);
    assert_eq!(complete(&["othello-explorer", "solve", "--eval", ""]), ["patterns", "network"]);
    let topics = complete(&["othello-explorer", "explain", ""]);
    for topic in [
        "legal", "flips", "play", "popcount", "empties", "symmetry", "stable", "frontier", "regions", "corners",
        "search",
    ] {
        assert!(topics.iter().any(|t| t == topic), "{topic} not completed: {topics:?}");
    }
    assert_eq!(complete(&["othello-explorer", "explain", "sy"]), ["symmetry"]);
    // The store's and the archive's options only where something reads them.
    let options = |sub: &str| complete(&["othello-explorer", sub, "--"]);
    for sub in ["show", "perft", "review", "explain", "completions", "man", "match", "reach", "shortest"] {
        let o = options(sub);
        assert!(!o.iter().any(|w| w == "--store" || w == "--no-store" || w == "--archive"), "{sub}: {o:?}");
    }
    assert!(options("solve").contains(&"--store".to_string()) && !options("solve").contains(&"--archive".to_string()));
    assert!(options("archive").contains(&"--archive".to_string()));
    for (shell, needle) in [
        ("zsh", "#compdef othello-explorer"),
        ("fish", "complete -c othello-explorer"),
        ("elvish", "othello-explorer"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains(needle), "{shell}: {script}");
        assert!(script.contains("solve"), "{shell}");
    }
    let out = bin().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("tcsh") && err.contains("bash"), "{err}");
}

/// The roff checks every page passes: a title macro first, the sections man(7) expects, nothing
/// but requests and text; and groff, where it is installed, reads it without a warning.
fn check_page(page: &str, title: &str) {
    let first = page.lines().find(|l| !l.starts_with(".ie") && !l.starts_with(".el")).unwrap_or("");
    assert!(first.starts_with(&format!(".TH {title} 1 ")), "{title}: starts with {first:?}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION"] {
        assert!(page.contains(section), "{title}: no {section}");
    }
    assert!(page.lines().all(|l| !l.starts_with('\'')), "{title}: a line begins with a control quote");
    let Ok(mut groff) = std::process::Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    else {
        eprintln!("notice: groff is not installed; {title} is checked without it");
        return;
    };
    use std::io::Write;
    groff.stdin.take().unwrap().write_all(page.as_bytes()).unwrap();
    let out = groff.wait_with_output().unwrap();
    assert!(out.status.success(), "{title}: groff failed");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{title}: groff warns");
}

#[test]
fn man_prints_the_main_page_and_writes_one_for_every_subcommand() {
    let page = stdout_of(&["man"]);
    check_page(&page, "othello-explorer");
    // The explorer's keys, by context, from the key table: a section of the main page.
    assert!(page.contains(".SH \"EXPLORER KEYS\""), "no keys section");
    for needle in ["\\fBCtrl\\-C\\fR", "\\fBb\\fR", "commands (after :)", "review [on|off]"] {
        assert!(page.contains(needle), "{needle} not in the keys section");
    }
    for name in subcommands() {
        assert!(page.contains(&format!("othello\\-explorer\\-{name}(1)")), "the main page names {name}");
    }

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    std::fs::create_dir(&out).unwrap();
    let listed = stdout_of(&["man", "--out", out.to_str().unwrap()]);
    let mut files: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(listed.lines().count(), files.len(), "{listed}");
    assert!(files.contains(&"othello-explorer.1".to_string()));
    for name in subcommands() {
        assert!(files.contains(&format!("othello-explorer-{name}.1")), "{name}: {files:?}");
    }
    // The store's own subcommands have pages of their own.
    assert!(files.contains(&"othello-explorer-store-export.1".to_string()), "{files:?}");
    assert_eq!(std::fs::read_to_string(out.join("othello-explorer.1")).unwrap(), page);
    for file in &files {
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        check_page(&text, file.trim_end_matches(".1"));
    }
    // Written again, the pages are replaced, not refused.
    stdout_of(&["man", "--out", out.to_str().unwrap()]);
}

/// Runs `man --out DIR` and checks the refusal: exit 2, one line naming `what`.
fn refused(dir: &Path, what: &str) {
    let out = bin().args(["man", "--out"]).arg(dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(what), "{what}: {err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn man_writes_nothing_over_a_device_a_fifo_or_a_folder_and_makes_no_folder() {
    let dir = tempfile::tempdir().unwrap();
    // A FIFO, and where root may make one a character device (`/dev/null`'s numbers), at the path
    // of a subcommand's page: refused before any page is written.
    let fifo_dir = dir.path().join("with-fifo");
    std::fs::create_dir(&fifo_dir).unwrap();
    let fifo = fifo_dir.join("othello-explorer-solve.1");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    refused(&fifo_dir, "othello-explorer-solve.1: a FIFO, not a regular file");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(std::fs::read_dir(&fifo_dir).unwrap().count(), 1, "nothing else was written");

    let device_dir = dir.path().join("with-device");
    std::fs::create_dir(&device_dir).unwrap();
    let device = device_dir.join("othello-explorer.1");
    let made = std::process::Command::new("mknod")
        .args(["-m", "666"])
        .arg(&device)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    if made {
        refused(&device_dir, "othello-explorer.1: a character device, not a regular file");
        assert!(std::fs::metadata(&device).unwrap().file_type().is_char_device());
        assert_eq!(std::fs::read_dir(&device_dir).unwrap().count(), 1, "nothing else was written");
    } else {
        eprintln!("mknod is not allowed here (not root?): the device case is skipped");
    }

    // A page's path that is a folder; --out naming a device, a file, nothing.
    let folder_dir = dir.path().join("with-folder");
    std::fs::create_dir_all(folder_dir.join("othello-explorer-man.1")).unwrap();
    refused(&folder_dir, "othello-explorer-man.1: a folder");
    refused(Path::new("/dev/null"), "/dev/null: a character device, not a folder");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "keep me").unwrap();
    refused(&file, "not a folder");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
    let missing = dir.path().join("missing").join("man1");
    refused(&missing, "no such folder");
    assert!(!dir.path().join("missing").exists(), "no folder is made");
}
