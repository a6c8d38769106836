//! Fitted weights: their in-memory form, the file format, and the files shipped in `data/eval/`.
//!
//! # File format, version 2
//!
//! All integers little-endian. One file per board size (`data/eval/weights-N.oxev`).
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `OXEVAL\0\x1a` |
//! | 2 | format version (2; version 1 had eleven scalar features and 38 8x8 placements) |
//! | 1 | board side `N` (4, 6 or 8) |
//! | 1 | empties per stage `W`: stage `s` is for `sW..sW+W-1` empty squares (the last stage also takes any more) |
//! | 1 | number of stages |
//! | 1 | number of scalar features ([`SCALARS`]) |
//! | 1 | number of patterns |
//! | 1 | 0 (reserved) |
//! | 8 × patterns | each pattern's mask on the board, which must match the code's set ([`super::pattern::patterns`]) |
//! | per stage | the scalar weights, `i16` each; then the canonical table entries ([`Layout::canonical_entries`]) in order, as runs: a LEB128 count of zeros, a LEB128 count of values, then those values as zigzag LEB128, until every entry is given |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! Weights are in 1/[`SCALE`] of a disc. A table entry that is not canonical takes its canonical
//! entry's weight when loaded, so the tables are symmetric whatever the file holds.

use super::features::SCALARS;
use super::pattern::{Instance, Layout, patterns};
use std::fmt;
use std::sync::OnceLock;

/// The units of a weight: 1/`SCALE` of a disc.
pub const SCALE: i32 = 64;

/// The file format version this build reads and writes.
pub const VERSION: u16 = 2;

/// The magic bytes a weights file starts with.
pub const MAGIC: [u8; 8] = *b"OXEVAL\0\x1a";

/// One stage's weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageWeights {
    /// The scalar features' weights.
    pub scalars: [i16; SCALARS],
    /// Every pattern's table, concatenated in the order of [`Layout::offsets`].
    pub tables: Vec<i16>,
}

/// The weights of one board size: a [`StageWeights`] per stage of `bucket` empty squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    n: usize,
    bucket: usize,
    stages: Vec<StageWeights>,
    /// The stage of each number of empties (0 to 64), [`Weights::stage_of`] without a division.
    stage_by_empties: [u8; 65],
    /// The size's pattern layout, kept here so the evaluation reaches it in one step.
    layout: &'static Layout,
}

/// [`Weights::stage_by_empties`]: `empties / bucket`, at most the last of `count` stages.
fn stage_table(bucket: usize, count: usize) -> [u8; 65] {
    std::array::from_fn(|e| (e / bucket).min(count - 1) as u8)
}

/// Why a weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// The file's version is one this build cannot read (newer, or 0).
    UnsupportedVersion {
        /// The version the file says.
        found: u16,
        /// The version this build reads.
        supported: u16,
    },
    /// The file ended early.
    Truncated,
    /// The file is for another board size (or an impossible one).
    WrongSize {
        /// The size asked for.
        expected: usize,
        /// The size the file says.
        found: usize,
    },
    /// A header field is out of range.
    BadHeader(&'static str),
    /// The file's pattern set differs from the code's.
    PatternMismatch {
        /// The first pattern that differs.
        pattern: usize,
    },
    /// The checksum does not match the contents.
    Checksum,
    /// A run of values overflows a stage's table or a value overflows 16 bits.
    BadRun,
    /// Bytes follow the checksum.
    TrailingBytes,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::BadMagic => write!(f, "not an evaluation weights file (bad magic)"),
            WeightsError::UnsupportedVersion { found, supported } => {
                write!(f, "weights file version {found} is not supported (this build reads version {supported})")
            }
            WeightsError::Truncated => write!(f, "weights file is truncated"),
            WeightsError::WrongSize { expected, found } => {
                write!(f, "weights file is for a {found}x{found} board, expected {expected}x{expected}")
            }
            WeightsError::BadHeader(what) => write!(f, "weights file header: bad {what}"),
            WeightsError::PatternMismatch { pattern } => {
                write!(f, "weights file pattern {pattern} differs from this build's pattern set")
            }
            WeightsError::Checksum => write!(f, "weights file checksum does not match its contents"),
            WeightsError::BadRun => write!(f, "weights file has a run past the end of a table"),
            WeightsError::TrailingBytes => write!(f, "weights file has bytes after its checksum"),
        }
    }
}

impl std::error::Error for WeightsError {}

use crate::notation::checksum::fnv1a;

fn put_leb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads from the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn bytes(&mut self, k: usize) -> Result<&[u8], WeightsError> {
        if self.0.len() < k {
            return Err(WeightsError::Truncated);
        }
        let (head, rest) = self.0.split_at(k);
        self.0 = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, WeightsError> {
        Ok(self.bytes(1)?[0])
    }
    fn i16(&mut self) -> Result<i16, WeightsError> {
        Ok(i16::from_le_bytes(self.bytes(2)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, WeightsError> {
        Ok(u64::from_le_bytes(self.bytes(8)?.try_into().unwrap()))
    }
    fn leb(&mut self) -> Result<u64, WeightsError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(WeightsError::BadRun)
    }
}

impl Weights {
    /// All-zero weights for the `n x n` board with stages of `bucket` empty squares (the fitting
    /// tool's start).
    pub fn zero(n: usize, bucket: usize) -> Weights {
        let squares = n * n - 4;
        let count = squares / bucket + 1;
        let len = Layout::of(n).table_len();
        let stage = StageWeights { scalars: [0; SCALARS], tables: vec![0; len] };
        Weights {
            n,
            bucket,
            stages: vec![stage; count],
            stage_by_empties: stage_table(bucket, count),
            layout: Layout::of(n),
        }
    }

    /// The board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The pattern placements the evaluation reads ([`Layout::instances`]).
    #[inline(always)]
    pub fn instances(&self) -> &'static [Instance] {
        &self.layout.instances
    }

    /// The size's pattern layout (placements, offsets, the rows of [`super::indexes`]).
    #[inline(always)]
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// Empty squares per stage.
    pub fn bucket(&self) -> usize {
        self.bucket
    }

    /// The stages, fewest empties first.
    pub fn stages(&self) -> &[StageWeights] {
        &self.stages
    }

    /// The stage for a position with `empties` empty squares.
    #[inline(always)]
    pub fn stage_of(&self, empties: usize) -> usize {
        self.stage_by_empties[empties.min(64)] as usize
    }

    /// The weights of stage `s`.
    #[inline(always)]
    pub fn stage(&self, s: usize) -> &StageWeights {
        &self.stages[s]
    }

    /// Replaces stage `s`, making its tables symmetric (each entry takes its canonical entry's
    /// weight).
    pub fn set_stage(&mut self, s: usize, mut stage: StageWeights) {
        let layout = Layout::of(self.n);
        assert_eq!(stage.tables.len(), layout.table_len(), "one weight per table entry");
        for (i, &c) in layout.canon.iter().enumerate() {
            stage.tables[i] = stage.tables[c as usize];
        }
        self.stages[s] = stage;
    }

    /// The file form (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let set = patterns(self.n);
        let mut out = MAGIC.to_vec();
        out.extend(VERSION.to_le_bytes());
        out.extend([self.n as u8, self.bucket as u8, self.stages.len() as u8, SCALARS as u8, set.len() as u8, 0]);
        for p in set {
            out.extend(p.mask(self.n).to_le_bytes());
        }
        let layout = Layout::of(self.n);
        let entries: Vec<usize> = layout.canonical_entries().collect();
        for stage in &self.stages {
            for w in stage.scalars {
                out.extend(w.to_le_bytes());
            }
            let values: Vec<i16> = entries.iter().map(|&i| stage.tables[i]).collect();
            let mut i = 0;
            while i < values.len() {
                let zeros = values[i..].iter().take_while(|&&v| v == 0).count();
                i += zeros;
                // A literal run ends at the next pair of zeros (a single zero is cheaper inline).
                let mut end = i;
                while end < values.len() && !(values[end] == 0 && values.get(end + 1).is_none_or(|&v| v == 0)) {
                    end += 1;
                }
                put_leb(&mut out, zeros as u64);
                put_leb(&mut out, (end - i) as u64);
                for &v in &values[i..end] {
                    put_leb(&mut out, ((v as i64) << 1 ^ (v as i64) >> 63) as u64);
                }
                i = end;
            }
        }
        let sum = fnv1a(&out);
        out.extend(sum.to_le_bytes());
        out
    }

    /// Reads a weights file for the `n x n` board.
    ///
    /// ```
    /// use othello_explorer::eval::weights::{Weights, WeightsError};
    /// let w = Weights::zero(4, 1);
    /// assert_eq!(Weights::from_bytes(4, &w.to_bytes()), Ok(w.clone()));
    /// assert_eq!(Weights::from_bytes(4, b"hello"), Err(WeightsError::Truncated));
    /// assert_eq!(Weights::from_bytes(6, &w.to_bytes()), Err(WeightsError::WrongSize { expected: 6, found: 4 }));
    /// ```
    pub fn from_bytes(n: usize, bytes: &[u8]) -> Result<Weights, WeightsError> {
        let mut r = Reader(bytes);
        if r.bytes(8)? != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let version = u16::from_le_bytes(r.bytes(2)?.try_into().unwrap());
        if version != VERSION {
            return Err(WeightsError::UnsupportedVersion { found: version, supported: VERSION });
        }
        let found = r.u8()? as usize;
        if found != n || ![4, 6, 8].contains(&n) {
            return Err(WeightsError::WrongSize { expected: n, found });
        }
        let (bucket, count) = (r.u8()? as usize, r.u8()? as usize);
        if bucket == 0 {
            return Err(WeightsError::BadHeader("stage width"));
        }
        if count != (n * n - 4) / bucket + 1 {
            return Err(WeightsError::BadHeader("stage count"));
        }
        if r.u8()? as usize != SCALARS {
            return Err(WeightsError::BadHeader("scalar feature count"));
        }
        let set = patterns(n);
        if r.u8()? as usize != set.len() {
            return Err(WeightsError::PatternMismatch { pattern: set.len().min(255) });
        }
        r.u8()?;
        for (i, p) in set.iter().enumerate() {
            if r.u64()? != p.mask(n) {
                return Err(WeightsError::PatternMismatch { pattern: i });
            }
        }
        let layout = Layout::of(n);
        let entries: Vec<usize> = layout.canonical_entries().collect();
        let mut stages = Vec::with_capacity(count);
        for _ in 0..count {
            let mut scalars = [0i16; SCALARS];
            for w in &mut scalars {
                *w = r.i16()?;
            }
            let mut values = vec![0i16; entries.len()];
            let mut i = 0;
            while i < values.len() {
                let zeros = r.leb()? as usize;
                let literal = r.leb()? as usize;
                if zeros.saturating_add(literal) > values.len() - i {
                    return Err(WeightsError::BadRun);
                }
                i += zeros;
                for v in &mut values[i..i + literal] {
                    let z = r.leb()?;
                    let signed = (z >> 1) as i64 ^ -((z & 1) as i64);
                    *v = i16::try_from(signed).map_err(|_| WeightsError::BadRun)?;
                }
                i += literal;
            }
            let mut tables = vec![0i16; layout.table_len()];
            for (&e, &v) in entries.iter().zip(&values) {
                tables[e] = v;
            }
            for (i, &c) in layout.canon.iter().enumerate() {
                tables[i] = tables[c as usize];
            }
            stages.push(StageWeights { scalars, tables });
        }
        let body = bytes.len() - r.0.len();
        let sum = r.u64()?;
        if sum != fnv1a(&bytes[..body]) {
            return Err(WeightsError::Checksum);
        }
        if !r.0.is_empty() {
            return Err(WeightsError::TrailingBytes);
        }
        let stage_by_empties = stage_table(bucket, stages.len());
        Ok(Weights { n, bucket, stages, stage_by_empties, layout })
    }
}

/// The shipped weights file of the `n x n` board, as built into the binary.
pub fn shipped_bytes(n: usize) -> &'static [u8] {
    match n {
        4 => include_bytes!("../../data/eval/weights-4.oxev"),
        6 => include_bytes!("../../data/eval/weights-6.oxev"),
        _ => include_bytes!("../../data/eval/weights-8.oxev"),
    }
}

/// The weights in use for each board side: the shipped file's, unless [`use_instead`] put
/// another file's first.
static LOADED: [OnceLock<Result<Weights, WeightsError>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];

fn slot(n: usize) -> usize {
    match n {
        4 => 0,
        6 => 1,
        _ => 2,
    }
}

/// The weights of the `n x n` board in use, parsed on first use: the shipped ones (or those
/// [`use_instead`] gave); the error if the file built in is not readable (then
/// [`super::evaluate`] falls back to [`super::baseline`]).
pub fn shipped(n: usize) -> Result<&'static Weights, &'static WeightsError> {
    LOADED[slot(n)].get_or_init(|| Weights::from_bytes(n, shipped_bytes(n))).as_ref()
}

/// The board side a weights file's header names (after the magic and the format version), or
/// `None` when the file ends before it; [`Weights::from_bytes`] checks the rest.
pub fn board_side(bytes: &[u8]) -> Option<usize> {
    bytes.get(MAGIC.len() + 2).map(|&n| n as usize)
}

/// Makes the weights file `bytes` (any board side, named in its header) the one the evaluation
/// uses for its side, for the rest of the process: `--weights` of the engine protocols, so a
/// match can set two weights files against each other. Must come before the first evaluation of
/// that side; the board side of the file.
pub fn use_instead(bytes: &[u8]) -> Result<usize, String> {
    let n = board_side(bytes).ok_or("the file ends inside its header")?;
    let weights = Weights::from_bytes(n, bytes).map_err(|e| e.to_string())?;
    LOADED[slot(n)].set(Ok(weights)).map_err(|_| format!("the {n}x{n} weights are already in use"))?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    fn random_weights(n: usize, bucket: usize, seed: u64) -> Weights {
        let mut rng = Rng(seed);
        let mut w = Weights::zero(n, bucket);
        for s in 0..w.stages.len() {
            let mut stage = w.stages[s].clone();
            for v in &mut stage.scalars {
                *v = rng.next() as i16;
            }
            for v in &mut stage.tables {
                // Mostly zeros, as fitted tables are.
                let r = rng.next();
                *v = if r.is_multiple_of(5) { (r >> 8) as i16 } else { 0 };
            }
            w.set_stage(s, stage);
        }
        w
    }

    #[test]
    fn a_file_reads_back_the_same() {
        for (n, bucket) in [(4, 1), (6, 2), (8, 4)] {
            let w = random_weights(n, bucket, 0x1234_5678 + n as u64);
            assert_eq!(Weights::from_bytes(n, &w.to_bytes()).as_ref(), Ok(&w));
        }
    }

    #[test]
    fn damaged_files_give_typed_errors() {
        let w = random_weights(4, 1, 99);
        let good = w.to_bytes();
        let mut bad = good.clone();
        bad[0] = b'X';
        assert_eq!(Weights::from_bytes(4, &bad), Err(WeightsError::BadMagic));
        let mut newer = good.clone();
        newer[8] = 3;
        assert_eq!(Weights::from_bytes(4, &newer), Err(WeightsError::UnsupportedVersion { found: 3, supported: 2 }));
        for cut in [0, 9, 20, good.len() / 2, good.len() - 1] {
            assert_eq!(Weights::from_bytes(4, &good[..cut]), Err(WeightsError::Truncated), "cut at {cut}");
        }
        let mut flipped = good.clone();
        let mid = good.len() - 20;
        flipped[mid] ^= 0x01;
        assert!(Weights::from_bytes(4, &flipped).is_err());
        let mut mask = good.clone();
        mask[16] ^= 0x01;
        assert_eq!(Weights::from_bytes(4, &mask), Err(WeightsError::PatternMismatch { pattern: 0 }));
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(Weights::from_bytes(4, &longer), Err(WeightsError::TrailingBytes));
        let mut scalar = good;
        scalar[50] ^= 0x40;
        assert_eq!(Weights::from_bytes(4, &scalar), Err(WeightsError::Checksum));
    }
}
