//! Copies the stages of one weights file that cover a range of empties into another, and writes
//! the result with its check positions' evaluations: how version 9 of the 8x8 weights was made
//! from version 8 and the fit on the million games (docs/eval.md, "Version 9").
//!
//! ```text
//! cargo run --release --example splice_stages -- BASE FROM EMPTIES OUT [CHECK]
//! cargo run --release --example splice_stages -- version-8.oxev fit.oxev 12-39 \
//!     data/eval/weights-8.oxev fit-check-8.txt
//! ```
//!
//! `BASE` and `FROM` are weights files of one board side and one stage width
//! (`data/eval/weights-N.oxev`'s format); every stage of `FROM` that lies wholly within `EMPTIES`
//! (`A-B`, empty squares) replaces `BASE`'s, the others stay `BASE`'s. With `CHECK` (a
//! `check-N.txt` of `fit-eval`: board strings with an evaluation), the same boards are written
//! beside `OUT` (`check-N.txt` in its directory) with the spliced weights' evaluations. Bad input:
//! one line on stderr, exit code 2.

use othello_explorer::eval::evaluate_with;
use othello_explorer::eval::weights::{Weights, board_side};
use othello_explorer::notation::obf::parse_board;
use std::path::Path;

fn main() {
    if let Err(message) = run(&std::env::args().skip(1).collect::<Vec<_>>()) {
        eprintln!("splice_stages: {message}");
        std::process::exit(2);
    }
}

fn read(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{path}: {e}"))
}

fn run(args: &[String]) -> Result<(), String> {
    let [base, from, empties, out, rest @ ..] = args else {
        return Err("usage: splice_stages BASE FROM EMPTIES OUT [CHECK]".into());
    };
    let (base_bytes, from_bytes) = (read(base)?, read(from)?);
    let n = board_side(&base_bytes).ok_or_else(|| format!("{base}: too short for a weights file"))?;
    let mut spliced = Weights::from_bytes(n, &base_bytes).map_err(|e| format!("{base}: {e}"))?;
    let source = Weights::from_bytes(n, &from_bytes).map_err(|e| format!("{from}: {e}"))?;
    if source.bucket() != spliced.bucket() {
        return Err(format!("{from}: stages of {} empties, {base}'s of {}", source.bucket(), spliced.bucket()));
    }
    let (lo, hi) = empties
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .filter(|(a, b)| a <= b)
        .ok_or_else(|| format!("empties {empties:?}: expected A-B, A at most B"))?;
    let w = spliced.bucket();
    let stages: Vec<usize> = (0..spliced.stages().len()).filter(|&s| s * w >= lo && s * w + w - 1 <= hi).collect();
    if stages.is_empty() {
        return Err(format!("empties {empties}: no stage of {w} empties lies within it"));
    }
    for &s in &stages {
        spliced.set_stage(s, source.stage(s).clone());
    }
    let bytes = spliced.to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("{out}: {e}"))?;
    let (first, last) = (stages[0] * w, stages[stages.len() - 1] * w + w - 1);
    eprintln!("{out}: stages {stages:?} ({first}-{last} empties) from {from}, the rest from {base}");
    if let Some(check) = rest.first() {
        let text = std::fs::read_to_string(check).map_err(|e| format!("{check}: {e}"))?;
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                lines.push(line.to_string());
                continue;
            }
            let board = line.rsplit_once(' ').map_or(line, |(b, _)| b);
            let (p, o) = parse_board(board).map_err(|e| format!("{check}:{}: {e}", i + 1))?.raw();
            let value = match n {
                4 => evaluate_with::<4>(&spliced, p, o),
                6 => evaluate_with::<6>(&spliced, p, o),
                _ => evaluate_with::<8>(&spliced, p, o),
            };
            lines.push(format!("{board} {value}"));
        }
        let path = Path::new(out).with_file_name(format!("check-{n}.txt"));
        std::fs::write(&path, lines.join("\n") + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
