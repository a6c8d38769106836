//! Every command example in README.md is real output: each fenced block line that starts with
//! `$ othello-explorer` is run on the built binary (in a fresh home, so no store of an earlier run
//! answers for the search), and what it prints must be the lines under it, as `tests/explain/`
//! holds `explain`'s output whole.
//!
//! Only what honestly varies from run to run is left out, field by field ([`varying`]): wall-clock
//! times and the rates made from them. Node counts are compared: the examples that print them run
//! on one thread (`--threads 1`), where the search is the same every run; on more, the threads
//! race for the children and the shared table, and the count varies.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

/// One example: where it is, the arguments after `othello-explorer`, the lines it shows.
struct Example {
    line: usize,
    command: String,
    args: Vec<String>,
    expected: Vec<String>,
}

/// The examples of `text`: in each fenced block, a line `$ othello-explorer ARGS` and the lines
/// under it up to the next `$` line or the end of the block.
fn examples(text: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let (mut in_block, mut open) = (false, false);
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_block = !in_block;
            open = false;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ othello-explorer") {
            found.push(Example { line: i + 1, command: line.to_string(), args: split(command), expected: Vec::new() });
            open = true;
        } else if line.starts_with('$') {
            open = false;
        } else if open {
            found.last_mut().expect("an open example").expected.push(line.to_string());
        }
    }
    found
}

/// A command line split into words as the shell would: spaces separate, quotes group.
fn split(command: &str) -> Vec<String> {
    let (mut words, mut word, mut quote, mut started) = (Vec::new(), String::new(), None, false);
    for c in command.chars() {
        match (quote, c) {
            (None, '"' | '\'') => (quote, started) = (Some(c), true),
            (Some(q), c) if c == q => quote = None,
            (None, ' ') => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (_, c) => (word, started) = (word + &c.to_string(), true),
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The subcommand of `args` (the first word that is not an option).
fn subcommand(args: &[String]) -> &str {
    args.iter().find(|a| !a.starts_with('-')).map_or("", String::as_str)
}

/// The fields of a line of `subcommand`'s output that vary from run to run, as word indexes
/// (words split at whitespace), and why. Every other word, and every other line, must match.
fn varying(subcommand: &str, line: &str) -> Vec<usize> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |i: usize| words.get(i).is_some_and(|w| w.replace(',', "").parse::<f64>().is_ok());
    if line.starts_with("instruction set: ") {
        // The kernels this CPU runs (`src/board/isa.rs`): the machine's, not the program's.
        return vec![2];
    }
    match subcommand {
        // `depth leaves seconds leaves/s`: the time, and the rate made from it.
        "perft" if words.len() == 4 && number(0) && number(1) => vec![2, 3],
        // `nodes: N  time: T s  nodes/s: R`: the time and the rate (the nodes are compared).
        "solve" if words.first() == Some(&"nodes:") => vec![3, 6],
        // `# empties score best seconds nodes nodes/s` and `total seconds nodes nodes/s`.
        "bench" if words.len() == 7 && number(0) => vec![4, 6],
        "bench" if words.first() == Some(&"total") => vec![1, 3],
        // The search lab's rows end in `time s`; the nodes before it are compared.
        "explain" if words.last() == Some(&"s") && words.len() >= 3 && number(words.len() - 2) => {
            vec![words.len() - 2]
        }
        // `shortest`'s last line is its running time alone.
        "shortest" if words.len() == 2 && number(0) && words[1] == "s" => vec![0],
        _ => vec![],
    }
}

/// `v` with every `seconds` field (a wall-clock time) set to null, at any depth.
fn without_times(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "seconds" || key == "total_seconds" {
                    *value = Value::Null;
                } else {
                    without_times(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(without_times),
        _ => {}
    }
}

/// Why `got` is not the README's `want` line, if it is not.
fn differs(subcommand: &str, want: &str, got: &str) -> Option<String> {
    if want.starts_with('{') {
        let parse = |text: &str| serde_json::from_str::<Value>(text).map_err(|e| format!("not JSON ({e}): {text}"));
        let (mut w, mut g) = match (parse(want), parse(got)) {
            (Ok(w), Ok(g)) => (w, g),
            (Err(e), _) | (_, Err(e)) => return Some(e),
        };
        without_times(&mut w);
        without_times(&mut g);
        return (w != g).then(|| format!("the JSON differs beyond its times:\n  README: {want}\n  binary: {got}"));
    }
    let skip = varying(subcommand, want);
    if skip.is_empty() {
        return (want != got).then(|| format!("\n  README: {want:?}\n  binary: {got:?}"));
    }
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split_whitespace().collect(), got.split_whitespace().collect());
    let same = w.len() == g.len() && w.iter().zip(&g).enumerate().all(|(i, (a, b))| skip.contains(&i) || a == b);
    (!same).then(|| format!("(words {skip:?} may differ)\n  README: {want:?}\n  binary: {got:?}"))
}

#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let readme = include_str!("../README.md");
    let examples = examples(readme);
    assert!(examples.len() >= 10, "the README's examples were not found: {}", examples.len());
    let mut failures = Vec::new();
    for example in &examples {
        let home = tempfile::tempdir().unwrap();
        let out = cargo_bin_cmd!("othello-explorer")
            .args(&example.args)
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env_remove("OTHELLO_EXPLORER_ISA")
            .timeout(std::time::Duration::from_secs(600))
            .output()
            .expect("the binary runs");
        let at = format!("README.md:{} `{}`", example.line, example.command);
        if !out.status.success() {
            failures.push(format!("{at}: exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr)));
            continue;
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let got: Vec<&str> = text.lines().collect();
        if got.len() != example.expected.len() {
            failures.push(format!(
                "{at}: {} lines in the README, {} printed:\n{text}",
                example.expected.len(),
                got.len()
            ));
            continue;
        }
        let sub = subcommand(&example.args);
        for (want, got) in example.expected.iter().zip(&got) {
            if let Some(why) = differs(sub, want, got) {
                failures.push(format!("{at}: {why}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} README examples differ from the binary:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_example_reader_finds_commands_and_their_lines() {
    let text = "intro\n```console\n$ othello-explorer show --board \"-----OX--XO----- X\"\nline 1\n\nline 3\n```\n\
                ```sh\n$ othello-explorer perft 2\n$ cargo build\nnot an example's\n```\n$ othello-explorer outside\n";
    let found = examples(text);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].args, ["show", "--board", "-----OX--XO----- X"]);
    assert_eq!(found[0].expected, ["line 1", "", "line 3"]);
    assert_eq!((found[1].line, found[1].expected.len()), (9, 0));
    assert_eq!(split(" solve --moves 'f5 d6'  --json"), ["solve", "--moves", "f5 d6", "--json"]);
    // Only the fields said to vary may differ.
    assert!(differs("solve", "nodes: 10  time: 0.1 s  nodes/s: 100", "nodes: 10  time: 0.3 s  nodes/s: 33").is_none());
    assert!(differs("solve", "nodes: 10  time: 0.1 s  nodes/s: 100", "nodes: 11  time: 0.1 s  nodes/s: 100").is_some());
    assert!(differs("perft", "    9    3005288   0.005   607890164", "    9    3005288   0.009   1").is_none());
    assert!(differs("perft", "    9    3005288   0.005   607890164", "    9    3005289   0.005   607890164").is_some());
    assert!(differs("show", "{\"seconds\":1,\"a\":2}", "{\"seconds\":3,\"a\":2}").is_none());
    assert!(differs("show", "{\"seconds\":1,\"a\":2}", "{\"seconds\":1,\"a\":3}").is_some());
    assert!(differs("show", "black 2", "black  2").is_some(), "alignment counts where nothing varies");
}
