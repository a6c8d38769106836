//! How far an estimate may overstate the discs a move loses: the review's guard against marks
//! that are only noise.
//!
//! A review judges a move by the loss `best - played`. When either value is an estimate, that
//! loss is off by the estimates' errors, which are several discs on 8x8. The table here gives,
//! per board, stage (empties of the position the move was played in) and estimate depth, the
//! **margin**: the 95th percentile of `estimated loss - exact loss`, over every move whose
//! estimated loss is 2 or more (a move a review would consider marking), measured against exact
//! scores of every move. A review marks a move from estimates by `estimated loss - margin`: the
//! loss is at least that with 95% confidence (see [`super::judge`]).
//!
//! The figures are in `data/review-margins.txt`, made by `fit-eval margins` from the problem
//! files with every move's exact score (`tests/data/estimates-*.obf`, the FFO positions,
//! `docs/review.md` gives the command); a review that reads the network (`--eval network`) takes
//! those of `data/review-margins-network.txt`, measured the same way with the network, on the
//! boards it has figures for (8x8; the network reads the tables elsewhere). Stages outside the measured bands take the nearest band's
//! figures: the 8x8 bands end at 34 empties, the deepest FFO position, so the opening and the
//! early middle game use the measure of 28-34 empties. A depth takes the largest margin measured
//! at it or deeper in its band (deeper searches err less, so the envelope never makes a deep
//! estimate look better than a shallower one measured); a depth beyond the deepest measured takes
//! the deepest measured. A board with no figures (4x4, which is always solved) never gets a mark
//! from an estimate.

use crate::board::size::Size;
use crate::eval::Evaluator;
use std::sync::OnceLock;

/// The table shipped with the program.
const TABLE: &str = include_str!("../../../data/review-margins.txt");
/// The table of the estimates that read the network.
const TABLE_NETWORK: &str = include_str!("../../../data/review-margins-network.txt");

/// One measured row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The board side.
    pub side: usize,
    /// The fewest empties of the band.
    pub low: u32,
    /// The most empties of the band.
    pub high: u32,
    /// The estimate's depth.
    pub depth: u32,
    /// Moves measured.
    pub pairs: usize,
    /// The 95th percentile of the estimated loss less the exact loss, in discs (at least 0).
    pub margin: i32,
}

/// Why a margins table does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarginsError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl std::fmt::Display for MarginsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "margins line {}: {}", self.line, self.what)
    }
}

impl std::error::Error for MarginsError {}

/// Parses a margins table: `#` starts a comment; each row is `side low high depth pairs margin`.
pub fn parse(text: &str) -> Result<Vec<Row>, MarginsError> {
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |what: &str| MarginsError { line: i + 1, what: what.to_string() };
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(err("expected six fields: side low high depth pairs margin"));
        }
        let num = |k: usize| fields[k].parse::<u64>().map_err(|_| err(&format!("field {}: not a number", k + 1)));
        let (side, low, high, depth, pairs, margin) = (num(0)?, num(1)?, num(2)?, num(3)?, num(4)?, num(5)?);
        if !matches!(side, 4 | 6 | 8) || low > high || high > 64 || depth == 0 || depth > 64 || margin > 128 {
            return Err(err("a value out of range"));
        }
        rows.push(Row {
            side: side as usize,
            low: low as u32,
            high: high as u32,
            depth: depth as u32,
            pairs: pairs as usize,
            margin: margin as i32,
        });
    }
    Ok(rows)
}

/// The shipped table (parsed once; a test checks that it parses).
pub fn table() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| parse(TABLE).unwrap_or_default())
}

/// The shipped table of the estimates that read `evaluator`.
pub fn table_for(evaluator: Evaluator) -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    match evaluator {
        Evaluator::Patterns => table(),
        Evaluator::Network => ROWS.get_or_init(|| parse(TABLE_NETWORK).unwrap_or_default()),
    }
}

/// The margin of an estimate `depth` plies deep at a position with `empties` empty squares on
/// `size`, from [`table`]; `None` where nothing was measured for the board.
pub fn margin(size: Size, empties: u32, depth: u32) -> Option<i32> {
    margin_in(table(), size.n(), empties, depth)
}

/// [`margin`] for estimates that read `evaluator`: its own table where it has figures for the
/// board, else the pattern tables' (the evaluation those estimates then read).
pub fn margin_for(evaluator: Evaluator, size: Size, empties: u32, depth: u32) -> Option<i32> {
    let own = table_for(evaluator);
    if own.iter().any(|r| r.side == size.n()) {
        margin_in(own, size.n(), empties, depth)
    } else {
        margin(size, empties, depth)
    }
}

/// [`margin`] over any table.
pub(crate) fn margin_in(rows: &[Row], side: usize, empties: u32, depth: u32) -> Option<i32> {
    let board: Vec<&Row> = rows.iter().filter(|r| r.side == side).collect();
    // The band holding `empties`, else the nearest.
    let distance = |r: &Row| {
        if empties < r.low { r.low - empties } else { empties.saturating_sub(r.high) }
    };
    let nearest = board.iter().map(|r| distance(r)).min()?;
    let band: Vec<&Row> = board.into_iter().filter(|r| distance(r) == nearest).filter(|r| r.pairs > 0).collect();
    let (low, high) = band.iter().map(|r| (r.low, r.high)).min()?;
    let band: Vec<&&Row> = band.iter().filter(|r| (r.low, r.high) == (low, high)).collect();
    let deepest = band.iter().map(|r| r.depth).max()?;
    let from = depth.min(deepest);
    band.iter().filter(|r| r.depth >= from).map(|r| r.margin).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_parses_and_covers_6x6_and_8x8() {
        let network = parse(TABLE_NETWORK).unwrap();
        assert!(network.iter().all(|r| r.side == 8) && !network.is_empty());
        // The network's table is its own on 8x8, the tables' on 6x6.
        assert!(margin_for(Evaluator::Network, Size::Eight, 40, 12).is_some());
        assert_eq!(margin_for(Evaluator::Network, Size::Six, 20, 8), margin(Size::Six, 20, 8));
        let rows = parse(TABLE).unwrap();
        assert!(rows.iter().any(|r| r.side == 8) && rows.iter().any(|r| r.side == 6));
        assert_eq!(margin(Size::Four, 10, 4), None);
        assert!(margin(Size::Eight, 40, 12).is_some());
    }

    #[test]
    fn bands_depths_and_the_envelope() {
        let rows =
            parse("# a comment\n8 20 23 4 50 6\n8 20 23 6 50 7 # noisy\n8 20 23 8 50 3\n8 24 30 4 40 9\n").unwrap();
        // The envelope: depth 4 takes the largest of depths 4, 6 and 8.
        assert_eq!(margin_in(&rows, 8, 21, 4), Some(7));
        assert_eq!(margin_in(&rows, 8, 21, 8), Some(3));
        // Deeper than measured: the deepest measured.
        assert_eq!(margin_in(&rows, 8, 21, 14), Some(3));
        // Outside the bands: the nearest band.
        assert_eq!(margin_in(&rows, 8, 50, 4), Some(9));
        assert_eq!(margin_in(&rows, 8, 10, 8), Some(3));
        assert_eq!(margin_in(&rows, 6, 10, 8), None);
        assert!(parse("8 20 23 4 50").is_err());
        assert!(parse("9 20 23 4 50 6").is_err());
    }
}
