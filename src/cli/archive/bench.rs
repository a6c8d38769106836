//! `archive bench`: a synthetic WTHOR database of random games added to an archive in a scratch
//! folder, then positions looked up, timed.

use super::super::common::{CliError, counted};
use super::open;
use crate::cli::report::Report;
use othello_explorer::archive::{self, Archive, Filter};
use othello_explorer::{Position, Size, Square};
use serde::Serialize;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `bench`'s report: indexing and lookups on the synthetic database.
#[derive(Serialize)]
pub(super) struct BenchReport {
    games: usize,
    positions: usize,
    write_seconds: f64,
    index_seconds: f64,
    archive_bytes: u64,
    open_ms: f64,
    lookups: usize,
    mean_lookup_ms: f64,
    slowest_lookup_ms: f64,
    filtered_start_ms: f64,
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "synthetic WTHOR database: {} written in {:.2}s",
            counted(self.games as u64, "game", "games"),
            self.write_seconds
        )?;
        writeln!(
            f,
            "indexed: {} in {:.2}s (read, replay, sort, write); the archive file {:.1} MB",
            counted(self.positions as u64, "position", "positions"),
            self.index_seconds,
            self.archive_bytes as f64 / 1e6
        )?;
        writeln!(f, "opened in {:.1} ms", self.open_ms)?;
        writeln!(
            f,
            "{} looked up: mean {:.3} ms, slowest {:.3} ms; the start filtered by a player: {:.1} ms",
            counted(self.lookups as u64, "position", "positions"),
            self.mean_lookup_ms,
            self.slowest_lookup_ms,
            self.filtered_start_ms
        )
    }
}

/// A synthetic WTHOR database of `n` games of random moves from the standard start (a fixed
/// sequence), with players and tournaments in its records.
fn synthetic(n: usize) -> Vec<u8> {
    let mut bytes = vec![20, 26, 11, 26, 0, 0, 0, 0, 0, 0, 0xea, 0x07, 8, 0, 0, 0];
    bytes[4..8].copy_from_slice(&(n as u32).to_le_bytes());
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..n {
        let mut record = [0u8; 68];
        let (t, b, w) = ((next() % 400) as u16, (next() % 3000) as u16, (next() % 3000) as u16);
        record[0..2].copy_from_slice(&t.to_le_bytes());
        record[2..4].copy_from_slice(&b.to_le_bytes());
        record[4..6].copy_from_slice(&w.to_le_bytes());
        let mut p = Position::start(Size::Eight);
        let mut k = 8;
        while !p.is_game_over() && k < 68 {
            p = p.after_forced_pass().0;
            let legal: Vec<Square> = p.legal_moves().reading_order();
            // Openings stay close to each other, as real ones do: the first moves among few.
            let pick = if k < 14 {
                (next() % legal.len().min(2) as u64) as usize
            } else {
                (next() % legal.len() as u64) as usize
            };
            let m = legal[pick];
            record[k] = (10 * (m.row() + 1) + m.col() + 1) as u8;
            p = p.play(m).expect("a legal move");
            k += 1;
        }
        bytes.extend_from_slice(&record);
    }
    bytes
}

pub(super) fn bench(n: usize, json: bool) -> Result<(), CliError> {
    // A folder of its own in the temporary folder, removed at the end.
    struct Scratch(PathBuf);
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let dir =
        Scratch(std::env::temp_dir().join(format!("othello-explorer-archive-bench-{}-{stamp}", std::process::id())));
    std::fs::create_dir_all(&dir.0)
        .map_err(|e| CliError::Failed(format!("archive bench: {}: {e}", dir.0.display())))?;
    let db = dir.0.join("synthetic.wtb");
    let t = Instant::now();
    std::fs::write(&db, synthetic(n)).map_err(|e| CliError::Failed(format!("archive bench: {e}")))?;
    let written = t.elapsed();
    let path = dir.0.join("archive.oxar");
    let t = Instant::now();
    let bytes = std::fs::read(&db).map_err(|e| CliError::Failed(e.to_string()))?;
    let games = archive::read_source(&db, &bytes, Size::Eight).map_err(|e| CliError::Failed(e.to_string()))?;
    let writer = archive::Writer::lock(&path, |_| {}).map_err(|e| CliError::Failed(e.to_string()))?;
    let mut a = Archive::default();
    a.add("synthetic.wtb", othello_explorer::notation::checksum::fnv1a(&bytes), &games);
    a.finish();
    writer.write(&a).map_err(|e| CliError::Failed(e.to_string()))?;
    drop(writer);
    let indexed = t.elapsed();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let t = Instant::now();
    let a = open(&path)?;
    let opened = t.elapsed();
    // Lookups: the start, and positions along a few games at every ply.
    let mut positions = vec![Position::start(Size::Eight)];
    for g in a.games.iter().take(50) {
        let mut p = g.start;
        for m in &g.moves {
            p = match m {
                Some(sq) => p.play(*sq).expect("legal"),
                None => p.pass(),
            };
            if !p.must_pass() && !p.is_game_over() {
                positions.push(p);
            }
        }
    }
    let mut slowest = Duration::ZERO;
    let t = Instant::now();
    for p in &positions {
        let q = Instant::now();
        let s = a.stats(p, &Filter::default());
        std::hint::black_box(&s);
        slowest = slowest.max(q.elapsed());
    }
    let mean = t.elapsed() / positions.len() as u32;
    let t = Instant::now();
    let filtered = a.stats(&positions[0], &Filter { player: Some("player 1".into()), ..Filter::default() });
    let filter_time = t.elapsed();
    std::hint::black_box(filtered);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    BenchReport {
        games: n,
        positions: a.positions(),
        write_seconds: written.as_secs_f64(),
        index_seconds: indexed.as_secs_f64(),
        archive_bytes: size,
        open_ms: ms(opened),
        lookups: positions.len(),
        mean_lookup_ms: ms(mean),
        slowest_lookup_ms: ms(slowest),
        filtered_start_ms: ms(filter_time),
    }
    .print(json);
    Ok(())
}
