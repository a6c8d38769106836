//! What the store's writes, imports and statistics report: plain counts, printed by the
//! commands.

use super::Entry;
use crate::board::{position::Scoring, size::Size};

/// What a batch of writes did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PutSummary {
    /// Positions the store did not have.
    pub added: u64,
    /// Entries that became tighter (or gained a best move).
    pub merged: u64,
    /// Entries that added nothing.
    pub unchanged: u64,
    /// Entries whose bounds contradict the kept ones (the kept ones stay).
    pub conflicting: u64,
}

impl PutSummary {
    pub(super) fn add(&mut self, other: PutSummary) {
        self.added += other.added;
        self.merged += other.merged;
        self.unchanged += other.unchanged;
        self.conflicting += other.conflicting;
    }
}

/// What [`Store::import`] did.
pub type ImportSummary = PutSummary;

/// An entry [`Store::import_checked`] refused: the solver disagrees with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Its line in the text, from 1.
    pub line: usize,
    /// The entry, as the text gives it.
    pub entry: Entry,
    /// What is wrong, in words.
    pub problem: String,
}

/// What [`Store::import_checked`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckedImport {
    /// Entries in the text.
    pub entries: usize,
    /// Entries re-solved (every one up to the check's empties, and the sample).
    pub checked: usize,
    /// Of those, the sample beyond the check's empties.
    pub sampled: usize,
    /// Entries the solver disagrees with: not written.
    pub refused: Vec<Refused>,
    /// Entries whose check needed more nodes than the budget ([`ImportCheck::max_nodes`]), with
    /// their lines: neither confirmed nor refuted, so written as unchecked entries are (unless
    /// the sample found a wrong one).
    pub skipped: Vec<(usize, Entry)>,
    /// Entries not checked and not written, because the sample found a wrong one.
    pub suspect: usize,
    /// Nodes searched by the check.
    pub nodes: u64,
    /// Entries written (to the store's merge: see `summary`).
    pub written: usize,
    /// What the writes did.
    pub summary: ImportSummary,
    /// Whether the stop flag ended the import (nothing written when it came during the check).
    pub stopped: bool,
}

/// Counts of one board size and scoring rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsRow {
    /// The board size.
    pub size: Size,
    /// The scoring rule.
    pub scoring: Scoring,
    /// Entries with an exact score.
    pub exact: u64,
    /// Entries with bounds only.
    pub bounds: u64,
    /// Entries by source, in the order of [`Source::ALL`].
    pub by_source: [u64; 3],
}

/// What a store holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// One row per size and scoring present, smallest size first.
    pub rows: Vec<StatsRow>,
    /// The file's size in bytes.
    pub file_bytes: u64,
}

impl Stats {
    /// Every entry.
    pub fn total(&self) -> u64 {
        self.rows.iter().map(|r| r.exact + r.bounds).sum()
    }
}
