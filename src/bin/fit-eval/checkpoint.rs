//! The state a fit keeps to go on from (`train --checkpoint FILE`, `train.rs`): a fit on millions
//! of games outlasts a session or a batch task's time slot, so a stopped run must not start over.
//!
//! ```text
//! # fit-eval train checkpoint v1 fit 1f0c...e2 threads 2\n
//! zlib(round u8, has_state u8, epoch u32, stages u32, width u32,
//!      scalars f32[stages * SCALARS], tables f32[stages * (width - SCALARS)], m f32[stages * width],
//!      v f32[stages * width], round-one weights: u32 length, bytes)   (all little-endian)
//! ```
//!
//! - **Which fit**: `fit` is a hash ([`fingerprint`]) of everything the weights depend on: the
//!   board, the stages, every setting of the fit, the base weights, and every training and
//!   validation sample. A checkpoint of another fit is refused, never continued or overwritten.
//!   `threads` is the worker count the gradient was summed on: another count goes on, warned, and
//!   ends with the same fit up to the rounding of the sums.
//! - **The state**: the round (1, or 2: the relabelled round), the next epoch, the weights in
//!   discs and Adam's two moments; in round two also the round-one weights, from which the labels
//!   are made again. Round two without a state has not begun its epochs.
//! - **Written whole or not at all**: to `FILE.part` beside it, synced, then renamed over `FILE`;
//!   `FILE` must be a regular file or absent ([`othello_explorer::notation::writefile`]).

use crate::train::model::Model;
use crate::train::samples::Sample;
use crate::train::settings::Settings;
use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use othello_explorer::eval::features::SCALARS;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Where a round's fit stands: its weights, Adam's moments, and the next epoch.
pub(crate) struct Progress {
    pub model: Model,
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub epoch: usize,
}

/// A checkpoint read back.
pub(crate) struct Checkpoint {
    pub round: u8,
    /// The round's state (`None`: round two, its epochs not begun).
    pub progress: Option<Progress>,
    /// In round two, the round-one weights (a weights file's bytes).
    pub round_one: Vec<u8>,
}

/// A 64-bit hash of words (FNV-1a over 64-bit words with a final mix): stable from build to build.
struct Hash(u64);

impl Hash {
    fn new() -> Hash {
        Hash(0xcbf2_9ce4_8422_2325)
    }

    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(0x0000_0100_0000_01b3);
    }

    fn bytes(&mut self, b: &[u8]) {
        self.word(b.len() as u64);
        for chunk in b.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.word(u64::from_le_bytes(w));
        }
    }

    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^ (x >> 33)
    }
}

/// The identity of a fit: board side `n`, stage width `bucket`, the settings that shape the
/// weights, the base weights' bytes and every sample (the data, after the fit's own filtering).
pub(crate) fn fingerprint(
    n: usize,
    bucket: usize,
    s: &Settings,
    base: &[u8],
    train: &[Sample],
    valid: &[Sample],
) -> u64 {
    let mut h = Hash::new();
    for w in [n as u64, bucket as u64, s.epochs as u64, s.bootstrap_depth as u64, s.bootstrap_pair as u64] {
        h.word(w);
    }
    for w in [s.keep_lean as u64, s.swap_from as u64, s.freeze_from as u64, s.freeze_below as u64] {
        h.word(w);
    }
    for x in [s.prior, s.smooth, s.lambda] {
        h.word(x.to_bits() as u64);
    }
    h.bytes(base);
    for set in [train, valid] {
        h.word(set.len() as u64);
        for x in set {
            h.word(x.p);
            h.word(x.o);
            h.word((x.label.to_bits() as u64) << 16 | (x.stage as u64) << 8 | x.exact as u64);
        }
    }
    h.finish()
}

fn header(fingerprint: u64, threads: usize) -> String {
    format!("# fit-eval train checkpoint v1 fit {fingerprint:016x} threads {threads}\n")
}

fn part_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".part");
    path.with_file_name(name)
}

/// Writes the state (see the module docs) whole or not at all.
pub(crate) fn save(
    path: &Path,
    fingerprint: u64,
    threads: usize,
    round: u8,
    progress: Option<&Progress>,
    round_one: &[u8],
) -> Result<(), String> {
    let target = othello_explorer::notation::writefile::target(path).map_err(|e| e.to_string())?;
    let mut z = ZlibEncoder::new(Vec::new(), Compression::fast());
    let io = |e: std::io::Error| format!("{}: {e}", target.display());
    let mut body = Vec::new();
    body.push(round);
    body.push(progress.is_some() as u8);
    if let Some(p) = progress {
        let stages = p.model.scalars.len();
        let width = SCALARS + p.model.tables.first().map_or(0, Vec::len);
        for w in [p.epoch, stages, width] {
            body.extend_from_slice(&(w as u32).to_le_bytes());
        }
        let floats = p.model.scalars.iter().flatten().chain(p.model.tables.iter().flatten()).chain(&p.m).chain(&p.v);
        for x in floats {
            body.extend_from_slice(&x.to_le_bytes());
        }
    }
    body.extend_from_slice(&(round_one.len() as u32).to_le_bytes());
    body.extend_from_slice(round_one);
    z.write_all(&body).map_err(io)?;
    let packed = z.finish().map_err(io)?;
    let part = part_path(&target);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&part)?;
        f.write_all(header(fingerprint, threads).as_bytes())?;
        f.write_all(&packed)?;
        f.sync_all()?;
        std::fs::rename(&part, &target)
    };
    write().map_err(|e| format!("{}: {e}", part.display()))
}

/// Reads `buf[at..at + 4]` as a little-endian `u32`, moving `at` past it.
fn take_u32(buf: &[u8], at: &mut usize) -> Option<u32> {
    let v = u32::from_le_bytes(buf.get(*at..*at + 4)?.try_into().ok()?);
    *at += 4;
    Some(v)
}

/// The checkpoint at `path` of the fit named `fingerprint`: `None` when there is none yet; an
/// error for a file that is not one, or is another fit's.
pub(crate) fn load(path: &Path, fingerprint: u64, threads: usize) -> Result<Option<Checkpoint>, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let bad = |what: &str| format!("{}: {what}", path.display());
    let end = bytes.iter().position(|&b| b == b'\n').ok_or_else(|| bad("not a fit-eval train checkpoint"))?;
    let line = std::str::from_utf8(&bytes[..end]).map_err(|_| bad("not a fit-eval train checkpoint"))?;
    let words: Vec<&str> = line.split(' ').collect();
    let [_, "fit-eval", "train", "checkpoint", "v1", "fit", fit, "threads", saved_threads] = words[..] else {
        return Err(bad("not a fit-eval train checkpoint"));
    };
    if fit != format!("{fingerprint:016x}") {
        return Err(bad(
            "the checkpoint of another fit (other settings or data): remove it or name another --checkpoint",
        ));
    }
    if saved_threads != threads.to_string() {
        eprintln!(
            "{}: summed on {saved_threads} threads, going on with {threads}: the same fit up to rounding",
            path.display()
        );
    }
    let mut body = Vec::new();
    ZlibDecoder::new(&bytes[end + 1..]).read_to_end(&mut body).map_err(|e| bad(&format!("damaged ({e})")))?;
    let damaged = || bad("damaged (cut short)");
    let (round, has_state) = (*body.first().ok_or_else(damaged)?, *body.get(1).ok_or_else(damaged)?);
    let mut at = 2;
    let progress = if has_state == 1 {
        let epoch = take_u32(&body, &mut at).ok_or_else(damaged)? as usize;
        let stages = take_u32(&body, &mut at).ok_or_else(damaged)? as usize;
        let width = take_u32(&body, &mut at).ok_or_else(damaged)? as usize;
        let size = stages.checked_mul(width).filter(|_| width >= SCALARS).ok_or_else(damaged)?;
        let need = size.checked_mul(12).ok_or_else(damaged)?;
        let floats = body.get(at..at + need).ok_or_else(damaged)?;
        at += need;
        let mut all = floats.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("four bytes")));
        let scalars = (0..stages).map(|_| std::array::from_fn(|_| all.next().expect("counted"))).collect();
        let tables = (0..stages).map(|_| all.by_ref().take(width - SCALARS).collect()).collect();
        let m = all.by_ref().take(size).collect();
        let v = all.collect();
        Some(Progress { model: Model { scalars, tables }, m, v, epoch })
    } else {
        None
    };
    let len = take_u32(&body, &mut at).ok_or_else(damaged)? as usize;
    let round_one = body.get(at..at + len).ok_or_else(damaged)?.to_vec();
    if !(1..=2).contains(&round) || (round == 1 && progress.is_none()) {
        return Err(damaged());
    }
    Ok(Some(Checkpoint { round, progress, round_one }))
}
