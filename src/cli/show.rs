//! `show`: a position with its masks and every legal move's flip mask.

use super::args::Resolved;
use super::common::CliError;
use super::report::Report;
use othello_explorer::notation::printable::count;
use othello_explorer::{Bitboard, Position, Scoring, notation::opening, notation::transcript};
use serde::Serialize;

pub fn run(resolved: &Resolved, json: bool) -> Result<(), CliError> {
    let (position, passed) = resolved.position.after_forced_pass();
    let game_over = position.is_game_over();
    let report = ShowReport {
        size: position.size().n(),
        board: position.to_string(),
        transcript: resolved.line.as_ref().map(|l| transcript::format(&l.moves)),
        opening: opening_name(resolved),
        to_move: position.to_move().name(),
        passed,
        black: position.black().hex(),
        white: position.white().hex(),
        empty: position.empty().hex(),
        legal: position.legal_moves().hex(),
        moves: moves_with_flips(&position)
            .into_iter()
            .map(|(sq, flips)| MoveFlips { square: sq.to_string(), flips: flips.hex() })
            .collect(),
        black_discs: position.black().count(),
        white_discs: position.white().count(),
        empties: position.empty_count(),
        game_over,
        score: game_over.then(|| position.black_score(Scoring::Standard)),
        position,
    };
    report.print(json);
    Ok(())
}

/// A position shown: as text (the diagram, the masks side by side, every move's flips), or with
/// `--json` as one JSON object.
#[derive(Serialize)]
struct ShowReport {
    size: usize,
    board: String,
    transcript: Option<String>,
    opening: Option<&'static str>,
    to_move: &'static str,
    passed: bool,
    black: String,
    white: String,
    empty: String,
    legal: String,
    moves: Vec<MoveFlips>,
    black_discs: u32,
    white_discs: u32,
    empties: u32,
    game_over: bool,
    score: Option<i32>,
    #[serde(skip)]
    position: Position,
}

/// A legal move and its flip mask.
#[derive(Serialize)]
struct MoveFlips {
    #[serde(rename = "move")]
    square: String,
    flips: String,
}

impl std::fmt::Display for ShowReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_text(&self.position, self.passed, self.transcript.as_deref(), self.opening))
    }
}

/// The opening name: the deepest named position along the `--moves` line, else the position's own.
fn opening_name(resolved: &Resolved) -> Option<&'static str> {
    match &resolved.line {
        Some(line) => opening::name_along(&line.start, &line.moves),
        None => opening::name(&resolved.position),
    }
}

/// The legal moves in reading order, each with its flip mask.
pub fn moves_with_flips(position: &Position) -> Vec<(othello_explorer::Square, Bitboard)> {
    position.legal_moves().reading_order().into_iter().map(|sq| (sq, position.flips(sq))).collect()
}

fn to_text(position: &Position, passed: bool, moves: Option<&str>, opening: Option<&str>) -> String {
    let mut out = String::new();
    let size = position.size();
    let (b, w) = (position.black().count(), position.white().count());
    if passed {
        out.push_str(&format!("{} has no legal move and passes.\n", capitalised(position.to_move().opponent().name())));
    }
    let state = if position.is_game_over() {
        let score = position.black_score(Scoring::Standard);
        let verdict = match score.signum() {
            1 => format!("black wins by {score}"),
            -1 => format!("white wins by {}", -score),
            _ => "draw".to_string(),
        };
        format!("game over: {verdict}")
    } else {
        format!("{} to move", position.to_move().name())
    };
    out.push_str(&format!("{size}, {state}; black {b}, white {w}, {} empty\n", position.empty_count()));
    out.push_str(&format!("board: {position}\n"));
    if let Some(moves) = moves {
        out.push_str(&format!("moves: {moves}\n"));
    }
    if let Some(name) = opening {
        out.push_str(&format!("opening: {name}\n"));
    }
    out.push('\n');
    out.push_str(&position.diagram());
    out.push('\n');
    out.push_str(&side_by_side(&[
        ("black", position.black()),
        ("white", position.white()),
        ("empty", position.empty()),
        ("legal", position.legal_moves()),
    ]));
    let moves = moves_with_flips(position);
    if !moves.is_empty() {
        out.push_str(&format!(
            "\n{} for {}:\n",
            count(moves.len() as i64, "legal move", "legal moves"),
            position.to_move().name()
        ));
        let hex_width = size.hex_digits() + 2;
        for (sq, flips) in moves {
            let names: Vec<String> = flips.reading_order().iter().map(|s| s.to_string()).collect();
            out.push_str(&format!(
                "  {sq}  flips {:<hex_width$}  {} ({})\n",
                flips.hex(),
                flips.count(),
                names.join(" ")
            ));
        }
    }
    out
}

/// Masks in columns: the name, the hex value, then the binary grid with row numbers on the left.
pub fn side_by_side(masks: &[(&str, Bitboard)]) -> String {
    let Some(first) = masks.first() else { return String::new() };
    let size = first.1.size();
    let width = (size.hex_digits() + 2).max(size.n()) + 2;
    let names: String = masks.iter().map(|(name, _)| format!("{name:<width$}")).collect();
    let hexes: String = masks.iter().map(|(_, mask)| format!("{:<width$}", mask.hex())).collect();
    let mut out = format!("    {}\n    {}\n", names.trim_end(), hexes.trim_end());
    let grids: Vec<Vec<String>> = masks.iter().map(|(_, m)| m.binary_rows()).collect();
    for row in 0..size.n() {
        out.push_str(&format!("{:>2}  ", row + 1));
        for grid in &grids {
            out.push_str(&format!("{:<width$}", grid[row]));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
