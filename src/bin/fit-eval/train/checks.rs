//! What a fit is checked against beside its validation games: the exact scores of problem files,
//! the opening's values, and the check lines of `fit-eval check`.

use crate::solved;
use othello_explorer::board::geometry::full_mask;
use othello_explorer::eval::{SCALE, Weights, evaluate_with};
use othello_explorer::{Position, Size, Square};
use std::path::{Path, PathBuf};

/// The positions of the OBF problem `files` (each move's exact score listed, as in `data/ffo/`)
/// with their exact values (the best score): `(p, o, empties, value)`, the side to move's.
pub(super) fn read_exact<const N: usize>(files: &[PathBuf]) -> Result<Vec<(u64, u64, usize, i32)>, String> {
    let mut out = Vec::new();
    let size = Size::from_n(N).expect("6 or 8");
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if text.starts_with("# fit-eval solved ") {
            // Solved positions (`solved`, `games-solve`): each line's score is the exact value
            // (an every-move line's, of the position and of each child).
            let every_move = solved::is_every_move(text.lines().next().unwrap_or(""));
            for (k, line) in text.lines().enumerate().skip(1) {
                let positions = solved::line_positions(size, every_move, line)
                    .ok_or_else(|| format!("{}: line {}: not a {N}x{N} solved position", path.display(), k + 1))?;
                for (p, o, value) in positions {
                    out.push((p, o, (full_mask(N) & !(p | o)).count_ones() as usize, value));
                }
            }
            continue;
        }
        for (k, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
                continue;
            }
            let problem = othello_explorer::notation::obf::parse_problem(line)
                .map_err(|e| format!("{}: line {}: {e}", path.display(), k + 1))?;
            let (position, _) = problem.position.after_forced_pass();
            let (Some(value), true) = (problem.best_score(), position.size().n() == N) else {
                return Err(format!(
                    "{}: line {}: not a {N}x{N} problem with its moves' scores",
                    path.display(),
                    k + 1
                ));
            };
            let (p, o) = position.raw();
            out.push((p, o, position.empty_count() as usize, value));
        }
    }
    Ok(out)
}

/// The evaluation against exact values, per stage: the mean absolute error of `w` and of `base`
/// on `positions` ([`read_exact`]), in discs.
pub(super) fn exact_report<const N: usize>(
    positions: &[(u64, u64, usize, i32)],
    w: &Weights,
    base: Option<&Weights>,
    bucket: usize,
) {
    let mut cells: Vec<(usize, f64, f64)> = vec![(0, 0.0, 0.0); w.stages().len()];
    for &(p, o, empties, value) in positions {
        let cell = &mut cells[w.stage_of(empties)];
        cell.0 += 1;
        cell.1 += (evaluate_with::<N>(w, p, o) - value).abs() as f64;
        if let Some(b) = base {
            cell.2 += (evaluate_with::<N>(b, p, o) - value).abs() as f64;
        }
    }
    println!("| stage | empties | exact positions | MAE |{}", if base.is_some() { " MAE, base |" } else { "" });
    println!("|---|---|---|---|{}", if base.is_some() { "---|" } else { "" });
    for (st, &(k, fit, based)) in cells.iter().enumerate().filter(|c| c.1.0 > 0) {
        let base_cell = if base.is_some() { format!(" {:.2} |", based / k as f64) } else { String::new() };
        println!("| {st} | {}-{} | {k} | {:.2} |{base_cell}", st * bucket, st * bucket + bucket - 1, fit / k as f64);
    }
}

/// A quick look at the opening with the new weights: a plain alpha-beta of the start and of the
/// position after its first move (`f5` on 8x8, `d5`... whatever comes first in reading order) at
/// depths 1 to 8, in discs from the side to move (8x8: a draw, Takizawa 2023; 6x6: -4, solved).
pub(super) fn opening_report<const N: usize>(w: &Weights) {
    let start = othello_explorer::Position::start(Size::from_n(N).expect("6 or 8"));
    let first = start.legal_moves().reading_order()[0];
    let child = start.play(first).expect("a legal move");
    for (name, pos) in [("the start".to_string(), start), (format!("after {first}"), child)] {
        let (p, o) = pos.raw();
        let empties = pos.empty_count() as usize;
        let values: Vec<String> = (1..=8)
            .map(|d| {
                let v = crate::bootstrap::<N>(w, p, o, empties - d, -i32::MAX, i32::MAX);
                format!("{:+.1}", v as f64 / SCALE as f64)
            })
            .collect();
        println!("{name}, depths 1-8: {}", values.join(" "));
    }
}

/// One line of a check file (`check-N.txt`): a comment, or a position with the evaluation
/// written after its board string.
pub enum CheckLine<'a> {
    /// A `#` line, as written.
    Comment(&'a str),
    /// A check position: the line and its board string as written, and the position.
    Position { line: &'a str, board: &'a str, pos: Position },
}

/// The lines of a check file's `text` read from `path` (named in errors with the line number).
pub fn check_lines<'a>(text: &'a str, path: &Path) -> Result<Vec<CheckLine<'a>>, String> {
    text.lines()
        .enumerate()
        .map(|(k, line)| {
            if line.starts_with('#') {
                return Ok(CheckLine::Comment(line));
            }
            let board = line.rsplit_once(' ').map_or(line, |(b, _)| b);
            othello_explorer::notation::obf::parse_board(board)
                .map(|pos| CheckLine::Position { line, board, pos })
                .map_err(|e| format!("{}: line {}: {e}", path.display(), k + 1))
        })
        .collect()
}

/// A check file's line for `pos` (written as `board`) with the evaluation of `w`.
pub fn check_line<const N: usize>(w: &Weights, board: &str, pos: &Position) -> String {
    let (p, o) = pos.raw();
    format!("{board} {}\n", evaluate_with::<N>(w, p, o))
}

/// The board string with `p` as X to move (the check file's convention: colours do not matter to
/// the evaluation, only who is to move).
pub(super) fn board_string<const N: usize>(p: u64, o: u64) -> String {
    let size = Size::from_n(N).expect("6 or 8");
    let mut s: String = Square::all(size)
        .map(|sq| {
            let b = 1u64 << sq.bit(size);
            if p & b != 0 {
                'X'
            } else if o & b != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    s.push_str(" X");
    s
}
