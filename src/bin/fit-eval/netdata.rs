//! The network's training data (`fit-eval net-data`): positions of `games` files and `label`
//! files as fixed-size binary records that the trainer (`train/`) streams, with the layout it
//! needs to map pattern indexes to embedding rows (`docs/network.md`, "Training").
//!
//! ## The records (`train.bin`, `valid.bin`)
//!
//! 102 bytes each: the 46 placements' pattern indexes (`u16` LE, digit 1 the side to move, as
//! [`othello_explorer::eval::Indexes::own`]), the network's 5 scalar inputs (`u8`, already in
//! its units), the empties (`u8`), the label (`i8`, discs from the side to move), the label's
//! kind (`u8`: 0 the game's result above its perfect line, 1 the game's result on its perfect
//! line (exact), 2 a searched label, 3 an exact label of `fit-eval label`, 4 a position of
//! `fit-eval solved`, off any game's line, with its exact score), the pattern
//! evaluation's value in discs (`i8`: what the network is measured against), a zero byte.
//!
//! `groups-train.bin`, `groups-valid.bin`: the *siblings* of each every-move line of `fit-eval
//! solved` in that set (the position's children whose side to move has a move, which follow the
//! position's record, best first), as pairs of `u32` LE: the first child's record index and the
//! number of children. The trainer's sibling loss compares a position's moves with one another.
//!
//! A game (or solved position) whose index is a multiple of `--valid-every` goes to `valid.bin`
//! (never trained on); the others to `train.bin`. `layout.bin`: the `u32` LE embedding row (compact canonical entry)
//! of every table entry, after a `u32` count of rows, the `u32` table length, the number of
//! placements, and each placement's table offset.

use othello_explorer::eval::Indexes;
use othello_explorer::eval::network::Network;
use othello_explorer::eval::pattern::Layout;
use othello_explorer::{Position, Size};
use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Bytes of a record.
pub const RECORD: usize = 102;

/// What `net-data` was asked.
pub struct Settings {
    /// Positions from the games with at least this many empties.
    pub min_empties: u32,
    /// Keep one game position of `keep` (by a hash of the game and ply; searched labels are all kept).
    pub keep: u64,
    pub valid_every: u64,
}

fn record(out: &mut Vec<u8>, layout: &Layout, position: &Position, label: i32, kind: u8) {
    let (p, o) = position.raw();
    let own = Indexes::new(layout, p, o).own;
    for &index in &own.0[..layout.instances.len()] {
        out.extend_from_slice(&index.to_le_bytes());
    }
    let pm = othello_explorer::board::rules::legal_moves::<8>(p, o);
    let om = othello_explorer::board::rules::legal_moves::<8>(o, p);
    for s in Network::scalars_of::<8>(p, o, pm, om) {
        out.push(s as u8);
    }
    out.push(position.empty_count() as u8);
    out.push(label.clamp(-64, 64) as i8 as u8);
    out.push(kind);
    out.push(othello_explorer::eval::evaluate::<8>(p, o) as i8 as u8);
    out.push(0);
}

fn keep(g: u64, ply: usize, keep: u64) -> bool {
    let h = (g.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (ply as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).rotate_left(29);
    h.wrapping_mul(0x1656_67b1_9e37_79f9).is_multiple_of(keep)
}

/// Writes `train.bin`, `valid.bin` and `layout.bin` into `out` from the games files and the label
/// files; returns a summary.
pub fn run(
    settings: &Settings,
    games: &[PathBuf],
    labels: &[PathBuf],
    solved: &[PathBuf],
    out: &Path,
) -> Result<String, String> {
    let layout = Layout::of(8);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut by_game: HashMap<(String, u64), Vec<crate::label::Label>> = HashMap::new();
    let mut exact_of: HashMap<String, u32> = HashMap::new();
    for path in labels {
        let file = crate::label::read(path)?;
        if file.size != Size::Eight {
            return Err(format!("{}: the network is trained for 8x8", path.display()));
        }
        let run = file.run().to_string();
        exact_of.insert(run.clone(), file.exact);
        for (g, l) in file.lines {
            by_game.entry((run.clone(), g)).or_default().extend(l);
        }
    }
    let open = |name: &str| {
        std::fs::File::create(out.join(name))
            .map(std::io::BufWriter::new)
            .map_err(|e| format!("{}: {e}", out.join(name).display()))
    };
    let (mut train, mut valid) = (open("train.bin")?, open("valid.bin")?);
    let mut counts = [[0u64; 5]; 2];
    // The sibling groups of every-move lines, per set: (first record, records) as two u32 LE.
    let mut groups: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    let mut buffer = Vec::with_capacity(RECORD * 64);
    for path in games {
        let file = crate::games::read(path)?;
        if file.size != Size::Eight {
            return Err(format!("{}: the network is trained for 8x8", path.display()));
        }
        let run = crate::label::games_run(&file.header).to_string();
        let exact_run = file
            .header
            .split(" exact ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next()?.parse().ok())
            .unwrap_or(20u32);
        for game in &file.games {
            let positions = crate::label::positions(Size::Eight, &game.moves);
            let to_valid = game.index.is_multiple_of(settings.valid_every);
            buffer.clear();
            let mut kinds = Vec::new();
            for (ply, position) in positions.iter().enumerate().skip(game.opening) {
                let empties = position.empty_count();
                if empties < settings.min_empties || !keep(game.index, ply, settings.keep) {
                    continue;
                }
                let label = match position.to_move() {
                    othello_explorer::Color::Black => game.black_score,
                    othello_explorer::Color::White => -game.black_score,
                };
                let kind = if empties <= exact_run { 1 } else { 0 };
                record(&mut buffer, layout, position, label, kind);
                kinds.push(kind);
            }
            if let Some(list) = by_game.get(&(run.clone(), game.index)) {
                let exact = exact_of.get(&run).copied().unwrap_or(0);
                for l in list {
                    let Some(position) = positions.get(l.ply) else {
                        return Err(format!("game {} of {}: no ply {}", game.index, path.display(), l.ply));
                    };
                    let (score, kind) = match l.exact {
                        Some(x) => (x, 3),
                        None if position.empty_count() <= exact => (l.score, 3),
                        None => (l.score, 2),
                    };
                    record(&mut buffer, layout, position, score, kind);
                    kinds.push(kind);
                }
            }
            let (sink, c) = if to_valid { (&mut valid, &mut counts[1]) } else { (&mut train, &mut counts[0]) };
            sink.write_all(&buffer).map_err(|e| format!("{}: {e}", out.display()))?;
            for k in kinds {
                c[k as usize] += 1;
            }
        }
    }
    for path in solved {
        let shown = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        let mut lines = text.split_inclusive('\n');
        let header = lines.next().unwrap_or("");
        if !header.starts_with("# fit-eval solved ") || !header.contains(" size 8 ") {
            return Err(format!("{shown}: line 1: not a file of 8x8 solved positions"));
        }
        let every_move = crate::solved::is_every_move(header);
        for (k, line) in lines.enumerate() {
            if !line.ends_with('\n') {
                break; // a line cut short by a kill: the run goes on from it
            }
            let g = crate::shards::line_index(line).ok_or_else(|| format!("{shown}: line {}: no index", k + 2))?;
            // A line of an every-move run gives the position and each child (the siblings stay
            // together: held out or trained on as one).
            let (positions, siblings) = crate::solved::line_records(Size::Eight, every_move, line)
                .ok_or_else(|| format!("{shown}: line {}: not a solved position", k + 2))?;
            buffer.clear();
            for (position, score) in &positions {
                record(&mut buffer, layout, position, *score, 4);
            }
            let to_valid = g.is_multiple_of(settings.valid_every);
            let set = usize::from(to_valid);
            if siblings >= 2 {
                // The siblings follow the position: records `start + 1 ..= start + siblings`.
                let start = counts[set].iter().sum::<u64>() + 1;
                groups[set].extend_from_slice(&(start as u32).to_le_bytes());
                groups[set].extend_from_slice(&(siblings as u32).to_le_bytes());
            }
            let (sink, c) = if to_valid { (&mut valid, &mut counts[1]) } else { (&mut train, &mut counts[0]) };
            sink.write_all(&buffer).map_err(|e| format!("{}: {e}", out.display()))?;
            c[4] += positions.len() as u64;
        }
    }
    train.flush().and_then(|()| valid.flush()).map_err(|e| format!("{}: {e}", out.display()))?;
    for (name, bytes) in ["groups-train.bin", "groups-valid.bin"].iter().zip(&groups) {
        std::fs::write(out.join(name), bytes).map_err(|e| format!("{}: {e}", out.join(name).display()))?;
    }
    // The layout: every table entry's embedding row.
    let canonical: Vec<usize> = layout.canonical_entries().collect();
    let mut row_of = vec![0u32; layout.table_len()];
    for (k, &c) in canonical.iter().enumerate() {
        row_of[c] = k as u32;
    }
    let mut bytes = Vec::new();
    for v in [canonical.len() as u32, layout.table_len() as u32, layout.instances.len() as u32] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for &offset in &layout.lane_offsets[..layout.instances.len()] {
        bytes.extend_from_slice(&offset.to_le_bytes());
    }
    for entry in 0..layout.table_len() {
        bytes.extend_from_slice(&row_of[layout.canon[entry] as usize].to_le_bytes());
    }
    std::fs::write(out.join("layout.bin"), bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    let names = ["game result", "exact (perfect line)", "searched", "exact (labelled)", "exact (solved)"];
    let mut summary = String::new();
    for (set, c) in ["train", "valid"].iter().zip(&counts) {
        summary += &format!("{set}:");
        for (name, k) in names.iter().zip(c) {
            summary += &format!(" {k} {name};");
        }
        summary += "\n";
    }
    Ok(summary)
}
