//! The network's file format (`data/eval/network-N.oxnn`), read and checked.
//!
//! # Format, version 2
//!
//! All integers little-endian.
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `OXNNET\0\x1a` |
//! | 2 | format version (2) |
//! | 1 | board side `N` |
//! | 1 | empties per stage |
//! | 1 | number of stages |
//! | 1 | first layer's width ([`HIDDEN`]) |
//! | 1 | second layer's inputs ([`INPUTS2`]) |
//! | 1 | second layer's width ([`HIDDEN2`]) |
//! | 4 | the network's own version (which training made it: `docs/network.md`) |
//! | 4 | number of canonical table entries, which must be the layout's ([`Layout::canonical_entries`]) |
//! | per canonical entry, in order | its embedding row, [`HIDDEN`] `i8` (format version 1: `i16`) |
//! | 2 × [`HIDDEN`] | the first layer's bias, `i16` |
//! | per stage | `w2` ([`HIDDEN2`] rows of [`INPUTS2`] `i16`), `b2` ([`HIDDEN2`] `i32`), `w3` ([`HIDDEN2`] `i16`), `b3` (`i32`) |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! A table entry that is not canonical takes its canonical entry's row when loaded, as the
//! pattern weights do.

use super::kernels::{Bias, TableRow};
use super::{HIDDEN, HIDDEN2, INPUTS2, Network, Stack};
use crate::eval::pattern::Layout;
use std::fmt;

/// The file format version this build reads.
pub const VERSION: u16 = 2;

/// The magic bytes a network file starts with.
pub const MAGIC: [u8; 8] = *b"OXNNET\0\x1a";

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// A format version this build does not read.
    UnsupportedVersion(u16),
    /// The file ends early.
    Truncated,
    /// A header field that this build's network does not have (the field, the value).
    Shape(&'static str, usize),
    /// The checksum does not match the contents.
    Checksum,
    /// Bytes after the checksum.
    TrailingBytes,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::BadMagic => write!(f, "not a network file (no OXNNET magic)"),
            NetworkError::UnsupportedVersion(v) => write!(f, "network format version {v}: this build reads {VERSION}"),
            NetworkError::Truncated => write!(f, "the network file ends early"),
            NetworkError::Shape(what, v) => write!(f, "the network's {what} is {v}, which this build does not have"),
            NetworkError::Checksum => write!(f, "the network file's checksum does not match"),
            NetworkError::TrailingBytes => write!(f, "bytes after the network file's checksum"),
        }
    }
}

impl std::error::Error for NetworkError {}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, k: usize) -> Result<&[u8], NetworkError> {
        let out = self.bytes.get(self.at..self.at + k).ok_or(NetworkError::Truncated)?;
        self.at += k;
        Ok(out)
    }
    fn u8(&mut self) -> Result<usize, NetworkError> {
        Ok(self.take(1)?[0] as usize)
    }
    fn u32(&mut self) -> Result<u32, NetworkError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn i8s(&mut self, out: &mut [i8]) -> Result<(), NetworkError> {
        let bytes = self.take(out.len())?;
        for (o, &b) in out.iter_mut().zip(bytes) {
            *o = b as i8;
        }
        Ok(())
    }
    fn i16s(&mut self, out: &mut [i16]) -> Result<(), NetworkError> {
        let bytes = self.take(2 * out.len())?;
        for (o, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *o = i16::from_le_bytes([b[0], b[1]]);
        }
        Ok(())
    }
    fn i32s(&mut self, k: usize) -> Result<Vec<i32>, NetworkError> {
        let bytes = self.take(4 * k)?;
        Ok(bytes.chunks_exact(4).map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes"))).collect())
    }
}

/// Reads and checks a network file.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(NetworkError::BadMagic);
    }
    if bytes.len() < MAGIC.len() + 8 + 8 {
        return Err(NetworkError::Truncated);
    }
    let mut r = Reader { bytes, at: MAGIC.len() };
    let version = u16::from_le_bytes(r.take(2)?.try_into().expect("2 bytes"));
    if version != VERSION {
        return Err(NetworkError::UnsupportedVersion(version));
    }
    let n = r.u8()?;
    if !matches!(n, 4 | 6 | 8) {
        return Err(NetworkError::Shape("board side", n));
    }
    let bucket = r.u8()?;
    let stages = r.u8()?;
    if bucket == 0 || stages == 0 || (stages - 1) * bucket > n * n {
        return Err(NetworkError::Shape("stage layout", bucket * 256 + stages));
    }
    for (what, want) in [("first layer", HIDDEN), ("second layer's inputs", INPUTS2), ("second layer", HIDDEN2)] {
        let got = r.u8()?;
        if got != want {
            return Err(NetworkError::Shape(what, got));
        }
    }
    let net_version = r.u32()?;
    let layout = Layout::of(n);
    let canonical: Vec<usize> = layout.canonical_entries().collect();
    let count = r.u32()? as usize;
    if count != canonical.len() {
        return Err(NetworkError::Shape("number of table entries", count));
    }
    // The checksum, before the bulk is copied.
    let body = bytes.len().checked_sub(8).ok_or(NetworkError::Truncated)?;
    let expected_len =
        r.at + count * HIDDEN + HIDDEN * 2 + stages * (HIDDEN2 * INPUTS2 * 2 + HIDDEN2 * 4 + HIDDEN2 * 2 + 4);
    if body < expected_len {
        return Err(NetworkError::Truncated);
    }
    if body > expected_len {
        return Err(NetworkError::TrailingBytes);
    }
    if crate::notation::checksum::fnv1a(&bytes[..body])
        != u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"))
    {
        return Err(NetworkError::Checksum);
    }
    let mut table = vec![TableRow([0; HIDDEN]); layout.table_len()];
    for &entry in &canonical {
        r.i8s(&mut table[entry].0)?;
    }
    for entry in 0..table.len() {
        let c = layout.canon[entry] as usize;
        if c != entry {
            table[entry] = table[c];
        }
    }
    let mut bias1 = Bias([0; HIDDEN]);
    r.i16s(&mut bias1.0)?;
    let mut stacks = Vec::with_capacity(stages);
    for _ in 0..stages {
        let mut w2 = vec![0i16; HIDDEN2 * INPUTS2];
        r.i16s(&mut w2)?;
        let b2 = r.i32s(HIDDEN2)?;
        let mut w3 = vec![0i16; HIDDEN2];
        r.i16s(&mut w3)?;
        let b3 = r.i32s(1)?[0];
        let w2_pairs = super::kernels::interleave(&w2);
        stacks.push(Stack { w2, b2, w3, b3, w2_pairs });
    }
    let mut stage_by_empties = [0u8; 65];
    for (e, s) in stage_by_empties.iter_mut().enumerate() {
        *s = (e / bucket).min(stages - 1) as u8;
    }
    Ok(Network { n, bucket, table, bias1, stacks, stage_by_empties, layout, version: net_version })
}

/// A file of random weights for the `n x n` board (the checksum left zero): for tests.
#[cfg(test)]
pub(crate) fn random_file(n: usize, bucket: usize, rng: &mut crate::testing::Rng) -> Vec<u8> {
    let stages = (n * n).div_ceil(bucket) + 1;
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[n as u8, bucket as u8, stages as u8, HIDDEN as u8, INPUTS2 as u8, HIDDEN2 as u8]);
    out.extend_from_slice(&7u32.to_le_bytes());
    let count = Layout::of(n).canonical_entries().count();
    out.extend_from_slice(&(count as u32).to_le_bytes());
    for _ in 0..count * HIDDEN {
        out.push(rng.next() as u8); // any i8
    }
    let mut i16s = |out: &mut Vec<u8>, k: usize, range: i64| {
        for _ in 0..k {
            let v = (rng.next() % (2 * range as u64 + 1)) as i64 - range;
            out.extend_from_slice(&(v as i16).to_le_bytes());
        }
    };
    i16s(&mut out, HIDDEN, 200);
    for _ in 0..stages {
        i16s(&mut out, HIDDEN2 * INPUTS2, 300);
        for j in 0..HIDDEN2 {
            out.extend_from_slice(&((j as i32 - 16) * 4000).to_le_bytes());
        }
        i16s(&mut out, HIDDEN2, 3000);
        out.extend_from_slice(&12345i32.to_le_bytes());
    }
    out.extend_from_slice(&[0; 8]);
    out
}
